// The interface every power-circuit element implements. An element declares its matrix entries
// once (union over all its states), stamps matrix values for the present state and integration
// method, adds its sources and history terms to the right-hand side each step, and stores its
// history when a step is accepted. Currents are counted from the first terminal to the second.
#pragma once

#include <string>
#include <vector>

#include "integration/integrator.hpp"
#include "mna/pattern.hpp"
#include "steady/state_visitor.hpp"

namespace pesim {

// What an element needs to know about the step being solved.
struct StepContext {
  double t = 0.0;   // time at the end of the step
  double dt = 0.0;
  Coefficients k;   // integration coefficients of this step
  const double* signals = nullptr;  // control signal values after the previous step
  // Thresholds of the diode-like devices in the state iteration (Transient::solveStep): each
  // compares its voltage with forwardScale·vf, widened by `acceptance` towards a change of state.
  // 1 and 0 except in a step whose states keep changing (GeckoCIRCUITS' damping).
  double forwardScale = 1.0;
  double acceptance = 0.0;
};

class Element {
 public:
  Element(std::string name, std::vector<int> nodes) : name_(std::move(name)), nodes_(std::move(nodes)) {}
  virtual ~Element() = default;
  Element(const Element&) = delete;
  Element& operator=(const Element&) = delete;

  const std::string& name() const { return name_; }
  const std::vector<int>& nodes() const { return nodes_; }
  // Renumbers terminal node `from` as `to` (Circuit, before declare(): driven nodes).
  void relocateNode(int from, int to) {
    for (int& n : nodes_) if (n == from) n = to;
  }

  // Number of branch-current unknowns this element adds to the system.
  virtual int branchCount() const { return 0; }
  // Numbers the element's branch currents from `index` (once branchCount() is final).
  void setFirstBranch(int index) { firstBranch_ = branchCount() > 0 ? index : -1; }
  // Unknown index of the element's (first) branch current, or −1 if it has none.
  int branch() const { return firstBranch_; }

  virtual void declare(Pattern& pattern) = 0;
  virtual void stampMatrix(double* values, const StepContext& step) const = 0;
  // True if stampMatrix depends on dt or the method (reactive elements).
  virtual bool reactive() const { return false; }
  // Sources and history terms; elements without any return false from hasRhs().
  virtual bool hasRhs() const { return false; }
  virtual void stampRhs(double* /*rhs*/, const StepContext& /*step*/) {}
  // True when stampRhs adds terms fixed by the device states alone (not by time, history, control
  // signals or the step): a DC source, a device's forward voltage. The time loop sums the leading
  // run of such elements once per set of device states (Transient::solveLinear).
  virtual bool rhsFixedByState() const { return false; }
  // Accept the converged solution of a step (store history).
  virtual bool hasHistory() const { return false; }
  virtual void commit(const double* /*x*/, const StepContext& /*step*/) {}
  // GeckoCIRCUITS' start (Transient::geckoStartSolve): takes from the solution of its 1 ns start
  // step what GeckoCIRCUITS' first step starts from (a capacitor starting at 0 V: its voltage).
  virtual void adoptStartSolution(const double* /*x*/) {}
  // The element's dynamic state (steady/state_visitor.hpp): none unless it keeps history.
  virtual void visitState(StateVisitor& /*visitor*/) {}
  // How the element's source term repeats in time (independent sources): constant by default.
  virtual Periodicity periodicity() const { return {}; }

  virtual double current(const double* x) const = 0;
  // When current(x) is exactly nodeVoltage(x, plus) − nodeVoltage(x, minus), i.e. one entry of
  // the solution (a branch-current unknown: {k, kGround}) or none (always 0: {kGround, kGround}),
  // sets the two indices and returns true; meters then read the solution directly.
  virtual bool currentFromSolution(int& /*plus*/, int& /*minus*/) const { return false; }
  double voltage(const double* x) const {
    return nodeVoltage(x, nodes_.at(0)) - nodeVoltage(x, nodes_.at(1));
  }

 protected:
  int node(std::size_t i) const { return nodes_[i]; }
  // voltage() for the elements that always have two terminals (no bounds check in the time loop).
  double terminalVoltage(const double* x) const { return nodeVoltage(x, nodes_[0]) - nodeVoltage(x, nodes_[1]); }
  // currentFromSolution() of an element whose current is its branch unknown.
  bool branchCurrent(int& plus, int& minus) const {
    plus = branch();
    minus = kGround;
    return true;
  }

 private:
  std::string name_;
  std::vector<int> nodes_;
  int firstBranch_ = -1;
};

}  // namespace pesim

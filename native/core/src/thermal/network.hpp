// The thermal network: a second linear MNA system beside the circuit's, by the analogy
// temperature ↔ voltage, heat flow ↔ current (GeckoCIRCUITS' thermal domain, eTH elements).
// RTH is a resistor [K/W], CTH a capacitor [J/K] with initial temperature difference T0, TSRC a
// voltage source [°C], QSRC and PV current sources [W] into their first node. Node "0" is the
// reference at 0 °C. The matrix is constant, so it is factorised once per (dt, method) and the
// factorisation reused; each step only builds the right-hand side and solves.
#pragma once

#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <Eigen/Dense>

#include "elements/element.hpp"
#include "elements/passive.hpp"
#include "elements/sources.hpp"
#include "mna/factorization.hpp"
#include "pesim/netlist.hpp"

namespace pesim {

// A heat flow source: `*power` [W] flows into node a and out of node b (QSRC: a constant, PV: the
// loss of a device, updated before every solve).
class HeatFlowSource final : public Element {
 public:
  HeatFlowSource(std::string name, std::vector<int> nodes, const double* power)
      : Element(std::move(name), std::move(nodes)), power_(power) {}
  void declare(Pattern&) override {}
  void stampMatrix(double*, const StepContext&) const override {}
  bool hasRhs() const override { return true; }
  void stampRhs(double* rhs, const StepContext&) override { addSourceCurrent(rhs, node(0), node(1), -*power_); }
  // The heat delivered into node a [W].
  double current(const double*) const override { return *power_; }
  // Where the heat flow [W] is read at every solve.
  const double* power() const { return power_; }

 private:
  const double* power_;
};

class ThermalNetwork {
 public:
  // `power(spec)` gives the location of a PV element's loss value (the caller owns it).
  ThermalNetwork(const std::vector<ElementSpec>& specs, const std::function<const double*(const ElementSpec&)>& power);

  // A consistent solution at the start (capacitors at T0), nothing committed.
  void initialize(double dt);
  // Solves one step of size dt with the given integration coefficients and commits it.
  void advance(double t, double dt, const Coefficients& k, bool backwardEuler);

  // Node index of a thermal node name (kGround for "0"); throws UnknownReference naming `user`.
  int node(const std::string& name, const std::string& user) const;
  double temperature(int node) const { return node == kGround ? 0.0 : x_[node]; }
  // Where temperature(node) is kept (the solution is solved in place; the reference's 0 is a constant).
  const double* temperatureAt(int node) const { return node == kGround ? &kReferenceTemperature : &x_[node]; }
  const Element* element(const std::string& name) const;
  const double* solution() const { return x_.data(); }
  // Shortest node time constant C_ii/G_ii over the nodes with heat capacity (RTH conductances and
  // CTH capacitances at the node); infinity when no node has both.
  double shortestTimeConstant() const { return shortestTau_; }
  // The temperatures of the heat capacities (the solution is kept for the readers between steps).
  void visitState(StateVisitor& visitor) {
    for (auto& e : elements_) e->visitState(visitor);
    for (int i = 0; i < unknowns_; ++i) visitor.held(x_[i]);
  }

 private:
  void checkGrounded(const std::vector<ElementSpec>& specs) const;
  // The factorisation for (dt, backward Euler or not): the last one used when it is that one (a
  // run's thermal steps mostly repeat one), else found or made by factorize().
  const Factorization& factorization(double dt, const Coefficients& k, bool backwardEuler) {
    if (last_ != nullptr && dt == lastDt_ && backwardEuler == lastBackwardEuler_) return *last_;
    return factorize(dt, k, backwardEuler);
  }
  const Factorization& factorize(double dt, const Coefficients& k, bool backwardEuler);
  const Factorization& remember(double dt, bool backwardEuler, const Factorization& lu);
  void solve(const StepContext& ctx, bool backwardEuler);

  std::unordered_map<std::string, int> nodeIndex_;
  std::vector<std::string> nodeNames_;
  std::vector<std::unique_ptr<Element>> elements_;
  // A node's slot in the right-hand side and the solution: its index, or for the reference the
  // slot after the unknowns (0 in the solution; what the right-hand side adds there is not read).
  std::size_t slot(int node) const { return node == kGround ? static_cast<std::size_t>(unknowns_) : static_cast<std::size_t>(node); }
  // The terms of each thermal step's right-hand side in the node rows, in netlist order (so each
  // row sums as the elements' stampRhs would): a capacitor's history or a heat flow source's power
  // (capacitor null), between the slots a and b. The temperature sources write their own branch
  // rows only, so they follow.
  struct NodeTerm {
    Capacitor* capacitor;
    const double* power;
    std::size_t a, b;
  };
  std::vector<NodeTerm> nodeTerms_;
  std::vector<VoltageSource*> sources_;
  // The capacitors with their terminals' slots, for the commit of each thermal step.
  std::vector<NodeTerm> capacitors_;
  // The step and a0 the capacitors were last tuned for (Capacitor::tune; NaN: none yet).
  double tunedDt_ = std::numeric_limits<double>::quiet_NaN(), tunedA0_ = 0.0;
  int unknowns_ = 0;
  Pattern pattern_{0};
  std::unique_ptr<Factorizer> factorizer_;
  // Factorisations by (dt, backward Euler or the run's method): a run needs one or two.
  struct Cached {
    double dt;
    bool backwardEuler;
    std::unique_ptr<Factorization> lu;
  };
  std::vector<Cached> cache_;
  // The entry of cache_ factorization() returned last (null before the first).
  const Factorization* last_ = nullptr;
  double lastDt_ = 0.0;
  bool lastBackwardEuler_ = false;
  // Sized once, when built (readers keep pointers into x_), with the reference's slot after the
  // unknowns (slot()).
  Eigen::VectorXd x_, rhs_;
  Eigen::VectorXd zero_;     // the right-hand side's start
  double shortestTau_;
  static constexpr double kReferenceTemperature = 0.0;
};

}  // namespace pesim

// Control blocks: evaluated once per step after the circuit solve, in dependency order. A block
// reads its input signals and writes its output signals in one shared array of doubles.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "circuit/params.hpp"
#include "pesim/netlist.hpp"
#include "steady/state_visitor.hpp"

namespace pesim {

class Element;
class ThermalDomain;
struct Result;

struct ControlContext {
  double t = 0.0;
  double dt = 0.0;
  double* signals = nullptr;
  const double* x = nullptr;  // circuit solution of the step (node potentials, branch currents)
  bool initial = false;       // the evaluation at t = 0, before the first step
  // With GeckoCIRCUITS timing the evaluation at t = 0 is GeckoCIRCUITS' first control step: the
  // trapezoidal memories (PI, INT, PT1) integrate it from a previous input of 0
  // (PICalculator, IntegratorCalculation, PT1Calculator after initializeAtSimulationStart)
  // instead of starting in equilibrium with it.
  bool fromZeroHistory = false;
};

// A block output that is a difference of two entries of the circuit solution (meters):
// signals[output] = nodeVoltage(x, plus) − nodeVoltage(x, minus). The control system evaluates
// these itself, without a call per block.
struct SolutionProbe {
  int output;
  int plus;
  int minus;
};

// A block output that is a value the block only reads from elsewhere, kept at a stable address
// (a constant, a loss, a thermal node's temperature): signals[output] = *plus, or *plus − *minus
// when minus is set. The control system copies these itself, without a call per block.
struct ValueCopy {
  int output;
  const double* plus;
  const double* minus;  // null: a plain copy
};

// A block output that is the current of a circuit element in the step's solution (AMP on an
// element whose current is not an entry of the solution): signals[output] = element->current(x).
struct ElementCurrent {
  int output;
  const Element* element;
};

class Block {
 public:
  Block(std::string name, std::vector<int> inputs, std::vector<int> outputs)
      : name_(std::move(name)), inputs_(std::move(inputs)), outputs_(std::move(outputs)) {}
  virtual ~Block() = default;
  Block(const Block&) = delete;
  Block& operator=(const Block&) = delete;

  const std::string& name() const { return name_; }
  const std::vector<int>& inputs() const { return inputs_; }
  const std::vector<int>& outputs() const { return outputs_; }

  virtual void evaluate(ControlContext& ctx) = 0;
  // Writes the outputs the block holds before its first evaluation, if it has them: GeckoCIRCUITS'
  // constants set theirs when they are built (ConstantCalculator, a NotCalculateableMarker), so its
  // first step already sees them (ControlSystem::preset, GeckoCIRCUITS' timing only).
  virtual void preset(double* /*signals*/) const {}
  // False when the outputs of a step do not depend on that step's inputs (sources, meters, delays);
  // such blocks break algebraic loops.
  virtual bool feedthrough() const { return true; }
  // Called after every block has been evaluated (blocks without feedthrough take their input here).
  virtual void latch(ControlContext& /*ctx*/) {}
  // True (and `probe` set) when evaluate() only writes a SolutionProbe's value: such a block has
  // no inputs and no state.
  virtual bool probe(SolutionProbe& /*probe*/) const { return false; }
  // True (and `copy` set) when evaluate() only writes a ValueCopy's value: such a block has no
  // inputs, and what it reads changes only before the control evaluation of a step.
  virtual bool copies(ValueCopy& /*copy*/) const { return false; }
  // True (and `current` set) when evaluate() only writes an ElementCurrent: such a block has no
  // inputs and no state.
  virtual bool readsCurrent(ElementCurrent& /*current*/) const { return false; }
  // False for sinks (SCOPE, GATE) whose evaluate() does nothing: the engine reads their inputs.
  virtual bool evaluates() const { return true; }
  // Adds what the block has to say about the run (printed lines of code blocks) to `warnings`.
  virtual void report(std::vector<std::string>& /*warnings*/) const {}
  // True when evaluate() computes the outputs from ctx.t and the present inputs only and changes
  // no state: the block may then be evaluated at any time between two steps (exact timing places
  // switching edges that way, transient/edge_locator.hpp).
  virtual bool pure() const { return false; }
  // True for a pure block whose outputs change with time by themselves (signal sources, TIME).
  virtual bool timeVarying() const { return false; }
  // The first time after `after` at which a time-varying block's output jumps (a rectangle's
  // edge), or +infinity; between two such times the outputs are continuous in time.
  virtual double nextJump(double /*after*/) const { return std::numeric_limits<double>::infinity(); }
  // Called once after the last step: blocks with a post-run analysis (CISPR16) add it to `result`,
  // calling `poll` now and then (it throws pesim::Error Cancelled once the run is cancelled).
  virtual void finish(Result& /*result*/, const std::function<void()>& /*poll*/) {}
  // The block's memory from one step to the next (steady/state_visitor.hpp): none by default.
  virtual void visitState(StateVisitor& /*visitor*/) {}
  // How a source block's output repeats at step dt: constant by default. A refusal names what the
  // periodic steady-state analysis cannot handle in this block.
  virtual Periodicity periodicity(double /*dt*/) const { return {}; }

 protected:
  double in(const ControlContext& ctx, std::size_t i) const { return ctx.signals[inputs_[i]]; }
  int output(std::size_t i = 0) const { return outputs_[i]; }
  void out(ControlContext& ctx, double value, std::size_t i = 0) const { ctx.signals[outputs_[i]] = value; }

 private:
  std::string name_;
  std::vector<int> inputs_;
  std::vector<int> outputs_;
};

// What a block factory needs from the circuit: element lookup and node lookup by name.
class CircuitLookup {
 public:
  virtual ~CircuitLookup() = default;
  virtual const Element* element(const std::string& name) const = 0;  // null if unknown
  virtual int node(const std::string& name) const = 0;                // throws if unknown
  virtual const ThermalDomain* thermal() const { return nullptr; }      // losses and thermal network
};

using BlockPtr = std::unique_ptr<Block>;

// The block types and their factories: control/catalog.hpp.
// TF (control/transfer_function.cpp): one input, `num`/`den` coefficients in ascending powers of s;
// with GeckoCIRCUITS' timing, GeckoCIRCUITS' step.
BlockPtr makeTransferFunction(const std::string& name, const Params& params, std::vector<int> inputs,
                              std::vector<int> outputs, Timing timing);

}  // namespace pesim

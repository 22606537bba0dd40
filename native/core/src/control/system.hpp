// The control side of a netlist: the signal table (every signal has exactly one driving block
// output), the blocks in evaluation order (algebraic loops rejected, naming the blocks), the
// gate bindings of switches and the scope channels.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "control/block.hpp"
#include "elements/passive.hpp"
#include "elements/switching.hpp"
#include "mna/pattern.hpp"
#include "pesim/netlist.hpp"
#include "transient/typed_list.hpp"

namespace pesim {

class SignalTable {
 public:
  explicit SignalTable(const std::vector<BlockSpec>& blocks);
  // Index of a signal driven by some block output; throws UnknownReference naming `user`.
  int index(const std::string& signal, const std::string& user) const;
  std::size_t size() const { return names_.size(); }

 private:
  std::unordered_map<std::string, int> index_;
  std::vector<std::string> names_;
};

struct GateBinding {
  std::string target;  // switch name
  int signal;          // signal index read at the start of each step
  std::string gate;    // GATE block name
};

struct ScopeChannel {
  std::string key;    // "<scope>.ch<n>"
  std::string scope;
  int index;          // 1-based channel number
  std::string label;
  int signal;         // the input it records (or, for a mean-value channel, averages)
  // A mean-value channel (GeckoCIRCUITS' scope average signal, see Recorder) averages `signal`
  // over meanSpan seconds; 0 for an ordinary channel. meanOrder: its position in the scope's
  // list of mean-value signals, which places GeckoCIRCUITS' averaging interval.
  double meanSpan = 0.0;
  int meanOrder = 0;
  // The scope's measurements end where GeckoCIRCUITS' scope data end (SCOPE `geckoAxis`, implied
  // by mean-value channels; see Recorder).
  bool geckoAxis = false;
};

class ControlSystem {
 public:
  ControlSystem(const std::vector<BlockSpec>& specs, const SignalTable& signals,
                const CircuitLookup& circuit, double dt, std::uint64_t seed = kDefaultSeed,
                Timing timing = Timing::Exact);

  // Evaluates every block once (ctx.signals must hold the table's values). Runs every step:
  // defined here to inline into the time loop.
  void evaluate(ControlContext& ctx) {
    for (const SolutionProbe& p : copies_) ctx.signals[p.output] = ctx.x[p.plus];
    for (const SolutionProbe& p : differences_) ctx.signals[p.output] = ctx.x[p.plus] - ctx.x[p.minus];
    for (const SolutionProbe& p : probes_) {
      ctx.signals[p.output] = nodeVoltage(ctx.x, p.plus) - nodeVoltage(ctx.x, p.minus);
    }
    if (readsValues_) readValues(ctx);
    for (Block* block : evaluated_) block->evaluate(ctx);
    for (Block* block : latching_) block->latch(ctx);
  }
  // The outputs blocks hold before their first evaluation (Block::preset).
  void preset(double* signals) const {
    for (const auto& block : blocks_) block->preset(signals);
  }
  // Appends the blocks' reports on the run (see Block::report) to `warnings`.
  void report(std::vector<std::string>& warnings) const {
    for (const auto& block : blocks_) block->report(warnings);
  }
  // After the run: the blocks' post-run analyses into `result` (Block::finish), netlist order.
  void finish(Result& result, const std::function<void()>& poll);
  // The pure blocks (Block::pure) that `signals` depend on through pure blocks only, in evaluation
  // order: evaluated alone at a time between two steps, with every other signal held, they give
  // `signals` at that time. Empty when none of them varies with time (nothing would change).
  std::vector<Block*> pureCone(const std::vector<int>& signals) const;
  const std::vector<GateBinding>& gates() const { return gates_; }
  const std::vector<ScopeChannel>& channels() const { return channels_; }
  std::size_t blockCount() const { return blocks_.size(); }
  const std::vector<BlockPtr>& blocks() const { return blocks_; }
  // The blocks' memories, in evaluation order (steady/state_visitor.hpp).
  void visitState(StateVisitor& visitor) {
    for (auto& block : blocks_) block->visitState(visitor);
  }

 private:
  void order();
  // The value copies and element currents (out of line: the time loop of a circuit without them
  // stays as small as it was).
  void readValues(ControlContext& ctx) const;

  std::vector<BlockPtr> blocks_;       // in evaluation order after order()
  std::vector<Block*> finishing_;      // every block, netlist order (for finish())
  // Meters, evaluated first (they read no signal), by form: v(plus) against the reference (a copy:
  // v − 0.0 is v, bit for bit), v(plus) − v(minus), and the rest (reference as plus).
  std::vector<SolutionProbe> copies_;
  std::vector<SolutionProbe> differences_;
  std::vector<SolutionProbe> probes_;
  // Blocks that copy a value (Block::copies), evaluated after the meters for the same reason: plain
  // copies, then differences.
  std::vector<ValueCopy> copiedValues_;
  std::vector<ValueCopy> copiedDifferences_;
  // Current meters of elements (Block::readsCurrent), also before the other blocks: the common
  // element types called without a virtual call (typed_list.hpp), the output of each beside it.
  TypedList<const Element, const Resistor, const Diode, const Igbt, const Capacitor> currents_;
  std::vector<int> currentOutputs_;
  bool readsValues_ = false;  // any value copies or element currents
  std::vector<Block*> evaluated_;      // the other blocks with an evaluation, in order
  std::vector<Block*> latching_;       // blocks that take their input after evaluation
  std::vector<GateBinding> gates_;
  std::vector<ScopeChannel> channels_;
};

}  // namespace pesim

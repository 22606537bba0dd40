// Control system assembly and evaluation order (see system.hpp).
#include "control/system.hpp"

#include "control/catalog.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_set>

#include "pesim/errors.hpp"

namespace pesim {

SignalTable::SignalTable(const std::vector<BlockSpec>& blocks) {
  std::unordered_map<std::string, std::string> driver;
  for (const auto& block : blocks) {
    for (const auto& signal : block.outputs) {
      auto [it, fresh] = driver.emplace(signal, block.name);
      if (!fresh) {
        throw Error(ErrorCode::NetlistInvalid,
                    "signal '" + signal + "' is driven by two blocks: " + it->second + " and " + block.name,
                    block.name);
      }
      index_.emplace(signal, static_cast<int>(names_.size()));
      names_.push_back(signal);
    }
  }
}

int SignalTable::index(const std::string& signal, const std::string& user) const {
  auto it = index_.find(signal);
  if (it == index_.end()) {
    throw Error(ErrorCode::UnknownReference,
                user + ": signal '" + signal + "' is not the output of any control block", user);
  }
  return it->second;
}

namespace {

// Output count of a block: its descriptor's, as many as the netlist lists for a type that has no
// fixed count, and 1 for an unknown type (refused when it is built).
std::size_t expectedOutputs(const BlockSpec& spec, const BlockDescriptor* type) {
  if (type == nullptr) return 1;
  return type->outputs == kOutputsAsListed ? spec.outputs.size() : static_cast<std::size_t>(type->outputs);
}

// The mean-value signals of a scope: input number (0-based) → {span, position in the list}.
// `meanInputs` (1-based input numbers) and `meanSpans` (s) list them in GeckoCIRCUITS' order.
std::vector<std::pair<double, int>> scopeMeans(const Params& p, std::size_t inputs) {
  std::vector<std::pair<double, int>> means(inputs, {0.0, 0});
  if (!p.has("meanInputs") && !p.has("meanSpans")) return means;
  std::vector<double> numbers = p.array("meanInputs");
  std::vector<double> spans = p.array("meanSpans");
  if (spans.size() != numbers.size()) p.outOfRange("meanSpans", "a list as long as meanInputs");
  for (std::size_t j = 0; j < numbers.size(); ++j) {
    double n = numbers[j];
    if (n != std::floor(n) || n < 1 || n > static_cast<double>(inputs) || means[static_cast<std::size_t>(n) - 1].first > 0.0) {
      p.outOfRange("meanInputs", "distinct input numbers from 1 to " + std::to_string(inputs));
    }
    if (!(spans[j] > 0.0)) p.outOfRange("meanSpans", "a list of averaging times greater than 0");
    means[static_cast<std::size_t>(n) - 1] = {spans[j], static_cast<int>(j)};
  }
  return means;
}

// Channels of a scope, numbered in order: each input, followed by its mean-value channel if it
// has one (GeckoCIRCUITS inserts it after its input: DataContainerMeanWrapper.defineMeanSignals).
// `channelNames` labels the channels in that order.
// `geckoAxis` applies with GeckoCIRCUITS' timing only: exact timing runs to tEnd.
void addScopeChannels(const std::string& scope, const Params& p, const std::vector<int>& inputs, Timing timing,
                      std::vector<ScopeChannel>& channels) {
  std::vector<std::string> labels;
  if (p.has("channelNames")) labels = p.names("channelNames");
  auto means = scopeMeans(p, inputs.size());
  bool geckoAxis = (timing == Timing::Gecko && p.number("geckoAxis", 0.0) != 0.0) ||
                   std::any_of(means.begin(), means.end(), [](const auto& m) { return m.first > 0.0; });
  std::size_t n = 0;
  auto add = [&](int signal, double span, int order) {
    std::string label = n < labels.size() ? labels[n] : "";
    ++n;
    channels.push_back({scope + ".ch" + std::to_string(n), scope, static_cast<int>(n), label, signal, span, order, geckoAxis});
  };
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    add(inputs[i], 0.0, 0);
    if (means[i].first > 0.0) add(inputs[i], means[i].first, means[i].second);
  }
}

}  // namespace

ControlSystem::ControlSystem(const std::vector<BlockSpec>& specs, const SignalTable& signals,
                             const CircuitLookup& circuit, double dt, std::uint64_t seed, Timing timing) {
  std::unordered_set<std::string> gated;
  for (const auto& spec : specs) {
    const BlockDescriptor* type = findBlockType(spec.type);
    const std::size_t outputCount = expectedOutputs(spec, type);
    if (spec.outputs.size() != outputCount) {
      throw Error(ErrorCode::NetlistInvalid,
                  spec.name + ": a " + spec.type + " block has " + std::to_string(outputCount) +
                      " output(s), got " + std::to_string(spec.outputs.size()),
                  spec.name);
    }
    if (type != nullptr && !type->takesInputs && !spec.inputs.empty()) {
      throw Error(ErrorCode::NetlistInvalid, spec.name + ": a " + spec.type + " block takes no inputs", spec.name);
    }
    std::vector<int> inputs, outputs;
    for (const auto& s : spec.inputs) inputs.push_back(signals.index(s, spec.name));
    for (const auto& s : spec.outputs) outputs.push_back(signals.index(s, spec.name));
    Params p(spec.name, spec.params);
    if (spec.type == "GATE") {
      std::string target = p.text("target");
      if (!gated.insert(target).second) {
        throw Error(ErrorCode::NetlistInvalid, spec.name + ": switch '" + target + "' already has a GATE block", spec.name);
      }
      gates_.push_back({target, inputs.empty() ? -1 : inputs[0], spec.name});
    }
    if (spec.type == "SCOPE") addScopeChannels(spec.name, p, inputs, timing, channels_);
    if (type == nullptr) {
      throw Error(ErrorCode::UnknownElementType, spec.name + ": unknown control block type '" + spec.type + "'", spec.name);
    }
    BlockArgs args{spec.type, spec.name, p, std::move(inputs), std::move(outputs), circuit, dt, seed, timing};
    blocks_.push_back(type->make(args));
    finishing_.push_back(blocks_.back().get());
  }
  order();
}

std::vector<Block*> ControlSystem::pureCone(const std::vector<int>& signals) const {
  std::unordered_map<int, std::size_t> producer;
  for (std::size_t i = 0; i < blocks_.size(); ++i) {
    for (int s : blocks_[i]->outputs()) producer[s] = i;
  }
  std::vector<bool> inCone(blocks_.size(), false);
  std::vector<int> pending(signals.begin(), signals.end());
  while (!pending.empty()) {
    int signal = pending.back();
    pending.pop_back();
    auto it = producer.find(signal);
    if (it == producer.end() || inCone[it->second] || !blocks_[it->second]->pure()) continue;
    inCone[it->second] = true;
    for (int input : blocks_[it->second]->inputs()) pending.push_back(input);
  }
  std::vector<Block*> cone;
  bool varies = false;
  for (std::size_t i = 0; i < blocks_.size(); ++i) {  // blocks_ is in evaluation order
    if (!inCone[i]) continue;
    cone.push_back(blocks_[i].get());
    varies = varies || blocks_[i]->timeVarying();
  }
  if (!varies) cone.clear();
  return cone;
}

void ControlSystem::readValues(ControlContext& ctx) const {
  for (const ValueCopy& c : copiedValues_) ctx.signals[c.output] = *c.plus;
  for (const ValueCopy& c : copiedDifferences_) ctx.signals[c.output] = *c.plus - *c.minus;
  for (std::size_t i = 0; i < currents_.size(); ++i) {
    const double* x = ctx.x;
    double& value = ctx.signals[currentOutputs_[i]];
    currents_.visit(i, [&](auto* element) { value = element->current(x); });
  }
}

void ControlSystem::finish(Result& result, const std::function<void()>& poll) {
  for (Block* block : finishing_) block->finish(result, poll);
}

// Kahn's algorithm over "output of A feeds an input of B, and B has direct feedthrough".
void ControlSystem::order() {
  const std::size_t n = blocks_.size();
  std::unordered_map<int, std::size_t> producer;
  for (std::size_t i = 0; i < n; ++i) {
    for (int s : blocks_[i]->outputs()) producer[s] = i;
  }
  std::vector<std::vector<std::size_t>> consumers(n);
  std::vector<int> pending(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    if (!blocks_[i]->feedthrough()) continue;
    for (int s : blocks_[i]->inputs()) {
      std::size_t from = producer.at(s);
      consumers[from].push_back(i);
      ++pending[i];
    }
  }
  std::vector<std::size_t> ready, sequence;
  for (std::size_t i = 0; i < n; ++i) {
    if (pending[i] == 0) ready.push_back(i);
  }
  while (!ready.empty()) {
    std::size_t i = ready.back();
    ready.pop_back();
    sequence.push_back(i);
    for (std::size_t next : consumers[i]) {
      if (--pending[next] == 0) ready.push_back(next);
    }
  }
  if (sequence.size() != n) {
    std::string names;
    std::string first;
    for (std::size_t i = 0; i < n; ++i) {
      if (pending[i] == 0) continue;
      if (first.empty()) first = blocks_[i]->name();
      names += (names.empty() ? "" : ", ") + blocks_[i]->name();
    }
    throw Error(ErrorCode::AlgebraicLoop,
                "algebraic loop among control blocks " + names +
                    ": each depends on the others within one step; break it with a DELAY block",
                first);
  }
  // Stable order for equal readiness is not required; evaluation order only follows dependencies.
  std::vector<BlockPtr> ordered;
  ordered.reserve(n);
  for (std::size_t i : sequence) ordered.push_back(std::move(blocks_[i]));
  blocks_ = std::move(ordered);
  for (auto& block : blocks_) {
    if (!block->feedthrough() && !block->inputs().empty()) latching_.push_back(block.get());
    // A meter reads only the circuit solution, and every reader of its output is ordered after
    // it (feedthrough) or reads at latch time: evaluating all meters first changes nothing.
    // A value copy has no inputs and reads nothing another block writes in this evaluation: the
    // same argument places it before the other blocks.
    SolutionProbe probe{};
    ValueCopy copy{};
    ElementCurrent current{};
    if (block->copies(copy)) {
      (copy.minus == nullptr ? copiedValues_ : copiedDifferences_).push_back(copy);
    } else if (block->probe(probe)) {
      if (probe.plus != kGround && probe.minus == kGround) copies_.push_back(probe);
      else if (probe.plus != kGround) differences_.push_back(probe);
      else probes_.push_back(probe);
    } else if (block->readsCurrent(current)) {
      currents_.add(current.element);
      currentOutputs_.push_back(current.output);
    } else if (block->evaluates()) {
      evaluated_.push_back(block.get());
    }
  }
  readsValues_ = !copiedValues_.empty() || !copiedDifferences_.empty() || !currents_.empty();
}


}  // namespace pesim

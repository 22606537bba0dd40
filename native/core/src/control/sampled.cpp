// Blocks that act on single steps of their inputs: COUNTER (counts rising edges), SAMPLEHOLD
// (passes its input while the clock is high, holds it otherwise) and PD (backward difference,
// G(s) = gain·s). Logic inputs are high above 0.5, as everywhere in the control system.
#include "control/catalog.hpp"
#include "pesim/errors.hpp"

namespace pesim {

namespace {

constexpr double kThreshold = 0.5;

// COUNTER: inputs (clock[, reset]). The output grows by 1 at each step where the clock is ≥ 0.5
// after being < 0.5; while reset > 0.5 it is 0. GeckoCIRCUITS: ReglerCounter / CounterCalculatable.
class Counter : public Block {
 public:
  using Block::Block;
  void evaluate(ControlContext& ctx) override {
    double clock = in(ctx, 0);
    if (clock >= kThreshold && last_ < kThreshold) count_ += 1.0;
    if (inputs().size() > 1 && in(ctx, 1) > kThreshold) count_ = 0.0;
    last_ = clock;
    out(ctx, count_);
  }
  void visitState(StateVisitor& visitor) override {
    visitor.held(count_);
    visitor.held(last_);
  }

 private:
  double count_ = 0.0;
  double last_ = 0.0;
};

// SAMPLEHOLD: inputs (x, clock). y = x while clock > 0.5, else the last value taken (0 before the
// first). GeckoCIRCUITS: ReglerSampleHold / SampleHoldCalculator.
class SampleHold : public Block {
 public:
  using Block::Block;
  void evaluate(ControlContext& ctx) override {
    if (in(ctx, 1) > kThreshold) held_ = in(ctx, 0);
    out(ctx, held_);
  }
  void visitState(StateVisitor& visitor) override { visitor.real(held_); }

 private:
  double held_ = 0.0;
};

// PD: y(n) = gain·(x(n) − x(n−1))/dt. GeckoCIRCUITS: ReglerPD / PDCalculator (G(s) = a1·s, no
// filter). The evaluation at t = 0 outputs 0 and takes x(0) as the previous value, so a signal
// that starts at a non-zero value gives no spike. From zero history (GeckoCIRCUITS' timing) the
// previous value starts at 0, as in PDCalculator: the first output is gain·x(0)/dt (checked by
// running GeckoCIRCUITS).
class Differentiator : public Block {
 public:
  Differentiator(std::string name, std::vector<int> inputs, std::vector<int> outputs, double gain)
      : Block(std::move(name), std::move(inputs), std::move(outputs)), gain_(gain) {}
  void evaluate(ControlContext& ctx) override {
    double x = in(ctx, 0);
    out(ctx, ctx.initial && !ctx.fromZeroHistory ? 0.0 : gain_ * (x - xPrev_) / ctx.dt);
    xPrev_ = x;
  }
  void visitState(StateVisitor& visitor) override { visitor.real(xPrev_); }

 private:
  double gain_;
  double xPrev_ = 0.0;
};

void requireInputs(const std::string& name, const std::string& type, std::size_t got, std::size_t min,
                   std::size_t max) {
  if (got >= min && got <= max) return;
  std::string expected = min == max ? std::to_string(min) : std::to_string(min) + " or " + std::to_string(max);
  throw Error(ErrorCode::NetlistInvalid,
              name + ": a " + type + " block takes " + expected + " input(s), got " + std::to_string(got), name);
}

BlockPtr counter(BlockArgs& a) {
  requireInputs(a.name, a.type, a.inputs.size(), 1, 2);
  return std::make_unique<Counter>(a.name, std::move(a.inputs), std::move(a.outputs));
}

BlockPtr sampleHold(BlockArgs& a) {
  requireInputs(a.name, a.type, a.inputs.size(), 2, 2);
  return std::make_unique<SampleHold>(a.name, std::move(a.inputs), std::move(a.outputs));
}

BlockPtr differentiator(BlockArgs& a) {
  requireInputs(a.name, a.type, a.inputs.size(), 1, 1);
  return std::make_unique<Differentiator>(a.name, std::move(a.inputs), std::move(a.outputs), a.params.number("gain", 1.0));
}

const BlockDescriptor kSampledBlocks[] = {
    {"COUNTER", true, 1, counter},
    {"SAMPLEHOLD", true, 1, sampleHold},
    {"PD", true, 1, differentiator},
};

}  // namespace

BlockFamily sampledBlocks() { return blockFamily(kSampledBlocks); }

}  // namespace pesim

// Signal sources: SIGNAL (sine, triangle of any duty, rectangle, sawtooth), CONST and TIME.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "control/catalog.hpp"
#include "control/stepped_wave.hpp"
#include "math/sine.hpp"

namespace pesim {

namespace {
constexpr double kPi = 3.14159265358979323846;

class SignalSource : public Block {
 public:
  enum class Shape { Sine, Triangle, Rectangle, Sawtooth };
  SignalSource(std::string name, std::vector<int> outputs, const Params& p, Timing timing)
      : Block(std::move(name), {}, std::move(outputs)) {
    std::string shape = p.text("waveform", "sine");
    if (shape == "sine") shape_ = Shape::Sine;
    else if (shape == "triangle") shape_ = Shape::Triangle;
    else if (shape == "rectangle") shape_ = Shape::Rectangle;
    else if (shape == "sawtooth") shape_ = Shape::Sawtooth;
    else p.outOfRange("waveform", "one of sine, triangle, rectangle, sawtooth");
    amplitude_ = p.number("amplitude", 1.0);
    frequency_ = p.positive("frequency");
    offset_ = p.number("offset", 0.0);
    phaseDegrees_ = p.number("phase", 0.0);
    phase_ = phaseDegrees_ / 360.0;
    duty_ = p.inRange("duty", 0.0, 1.0, 0.5);
    if (timing == Timing::Gecko) stepped_ = steppedWave();
    // GeckoCIRCUITS starts a source with external parameters again at its second step, once its
    // inputs hold values (SignalCalculatorExternalWrapper); the .ipes reader sets this flag on them.
    restartAtSecondStep_ = p.number("restartAtSecondStep", 0.0) != 0.0;
  }
  bool feedthrough() const override { return false; }
  void evaluate(ControlContext& ctx) override {
    if (stepped_) {
      // GeckoCIRCUITS computes its first step at t = 0: the evaluation before pesim's first step.
      if (ctx.initial) evaluations_ = 0;
      if (ctx.initial || (restartAtSecondStep_ && evaluations_ == 1)) stepped_->start();
      ++evaluations_;
      out(ctx, stepped_->step(ctx.dt));
      return;
    }
    const double cycles = frequency_ * ctx.t + phase_;
    // The position within the period only for the shapes that use it: a sine (every step) skips it.
    double shape = 0.0;
    switch (shape_) {
      case Shape::Sine: shape = math::sin(2.0 * kPi * cycles); break;
      case Shape::Triangle: shape = triangle(position(cycles)); break;
      case Shape::Rectangle: shape = position(cycles) < duty_ ? 1.0 : 0.0; break;
      case Shape::Sawtooth: shape = position(cycles); break;
    }
    out(ctx, offset_ + amplitude_ * shape);
  }
  void visitState(StateVisitor& visitor) override {
    if (stepped_) stepped_->visitState(visitor);
    visitor.held(evaluations_);
  }
  Periodicity periodicity(double dt) const override {
    // GeckoCIRCUITS' stepped wave repeats after a whole number of steps (SteppedWave::periodSteps).
    if (stepped_) return {static_cast<double>(stepped_->periodSteps(dt)) * dt, 0.0, ""};
    return {1.0 / frequency_, 0.0, ""};
  }
  bool pure() const override { return !stepped_; }
  bool timeVarying() const override { return true; }
  // The jumps of the exact waveform: a rectangle's edges at f = 0 and f = duty, a sawtooth's (and
  // a one-sided triangle's) return at f = 0.
  double nextJump(double after) const override {
    const bool jumpsAtStart = shape_ == Shape::Sawtooth || (shape_ == Shape::Triangle && (duty_ == 0.0 || duty_ == 1.0)) ||
                              (shape_ == Shape::Rectangle && duty_ > 0.0 && duty_ < 1.0);
    if (stepped_ || !jumpsAtStart) return std::numeric_limits<double>::infinity();
    const double k = std::floor(frequency_ * after + phase_);
    const bool fallingEdge = shape_ == Shape::Rectangle;
    for (double start = k; start <= k + 2.0; start += 1.0) {
      for (double at : {start, start + duty_}) {
        if (at != start && !fallingEdge) continue;
        const double t = (at - phase_) / frequency_;
        if (t > after) return t;
      }
    }
    return std::numeric_limits<double>::infinity();
  }

 private:
  // Position within the period, [0, 1). Within a few rounding units of a jump (f = 0 or the duty)
  // it is the position just after the jump, so that the time nextJump() gives shows the new value.
  double position(double cycles) const {
    const double eps = 8.0 * std::numeric_limits<double>::epsilon() * std::max(1.0, std::abs(cycles));
    double f = cycles - std::floor(cycles);
    if (f > 1.0 - eps) f = 0.0;
    if (f < duty_ && f > duty_ - eps) f = duty_;
    return f;
  }

  // −1 at the period start, rising to +1 at f = duty, falling back to −1 at f = 1 (duty 1: a
  // rising sawtooth, duty 0 a falling one; 0.5 the symmetric triangle).
  double triangle(double f) const {
    return f < duty_ ? -1.0 + 2.0 * f / duty_ : 1.0 - 2.0 * (f - duty_) / (1.0 - duty_);
  }

  // GeckoCIRCUITS' stepped form of a rectangle or triangle, with its phase φ recovered from the
  // netlist's (signals.ts in the .ipes reader: rectangle −φ, triangle 180°·d − φ).
  std::optional<SteppedWave> steppedWave() const {
    const double phaseDegrees = phaseDegrees_;
    if (shape_ == Shape::Rectangle) {
      return SteppedWave(SteppedWave::Kind::Rectangle, amplitude_, frequency_, offset_, -phaseDegrees, duty_);
    }
    if (shape_ == Shape::Triangle) {
      return SteppedWave(SteppedWave::Kind::Triangle, amplitude_, frequency_, offset_, 180.0 * duty_ - phaseDegrees,
                         duty_);
    }
    return std::nullopt;
  }

  Shape shape_ = Shape::Sine;
  double amplitude_, frequency_, offset_, phase_, duty_, phaseDegrees_;
  std::optional<SteppedWave> stepped_;
  bool restartAtSecondStep_ = false;
  long evaluations_ = 0;
};

class Constant : public Block {
 public:
  Constant(std::string name, std::vector<int> outputs, double value)
      : Block(std::move(name), {}, std::move(outputs)), value_(value) {}
  bool feedthrough() const override { return false; }
  void evaluate(ControlContext& ctx) override { out(ctx, value_); }
  bool copies(ValueCopy& copy) const override {
    copy = {output(), &value_, nullptr};
    return true;
  }
  void preset(double* signals) const override { signals[outputs()[0]] = value_; }
  bool pure() const override { return true; }

 private:
  double value_;
};

class Time : public Block {
 public:
  Time(std::string name, std::vector<int> outputs) : Block(std::move(name), {}, std::move(outputs)) {}
  bool feedthrough() const override { return false; }
  void evaluate(ControlContext& ctx) override { out(ctx, ctx.t); }
  Periodicity periodicity(double /*dt*/) const override {
    return {0.0, 0.0, "the TIME block '" + name() + "' grows without bound"};
  }
  bool pure() const override { return true; }
  bool timeVarying() const override { return true; }
};
BlockPtr signalSource(BlockArgs& a) {
  return std::make_unique<SignalSource>(a.name, std::move(a.outputs), a.params, a.timing);
}

BlockPtr constant(BlockArgs& a) { return std::make_unique<Constant>(a.name, std::move(a.outputs), a.params.number("value")); }

BlockPtr time(BlockArgs& a) { return std::make_unique<Time>(a.name, std::move(a.outputs)); }

const BlockDescriptor kSourceBlocks[] = {
    {"SIGNAL", false, 1, signalSource},
    {"CONST", false, 1, constant},
    {"TIME", false, 1, time},
};

}  // namespace

BlockFamily sourceBlocks() { return blockFamily(kSourceBlocks); }

}  // namespace pesim

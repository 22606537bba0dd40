// Blocks with memory: PI, PT1, INT (trapezoidal/Tustin discretisations at the engine step, INT
// with an optional reset input), the undamped second-order PT2 and the transport DELAY. TF (transfer
// functions) is in transfer_function.cpp.
#include <algorithm>
#include <cmath>
#include <limits>

#include "control/catalog.hpp"
#include "pesim/errors.hpp"

namespace pesim {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Trapezoidal integral of gain·x with optional clamps: y(n) = y(n−1) + gain·dt·(x(n) + x(n−1))/2.
class Integral {
 public:
  Integral(double gain, double y0, double lo, double hi) : gain_(gain), y_(y0), y0_(y0), lo_(lo), hi_(hi) {}
  // At the initial evaluation the integral holds (x(n−1) := x) unless fromZero: then it takes the
  // step from x(n−1) = 0 (GeckoCIRCUITS' first control step).
  double step(double x, double dt, bool initial, bool fromZero) {
    if (!initial || fromZero) y_ = std::clamp(y_ + gain_ * dt * 0.5 * (x + xPrev_), lo_, hi_);
    xPrev_ = x;
    return y_;
  }
  // Back to the initial value; the next step integrates from x(n−1) = 0.
  double reset() {
    y_ = y0_;
    xPrev_ = 0.0;
    return y_;
  }
  void visitState(StateVisitor& visitor) {
    visitor.real(y_);
    visitor.real(xPrev_);
  }

 private:
  double gain_, y_, y0_, lo_, hi_;
  double xPrev_ = 0.0;
};

// PI: y = kp·x + ∫ki·x dt.
class PiController : public Block {
 public:
  PiController(std::string name, std::vector<int> inputs, std::vector<int> outputs, const Params& p)
      : Block(std::move(name), std::move(inputs), std::move(outputs)),
        kp_(p.number("kp")),
        integral_(p.number("ki"), p.number("y0", 0.0), -std::numeric_limits<double>::infinity(),
                  std::numeric_limits<double>::infinity()) {}
  void evaluate(ControlContext& ctx) override {
    double x = in(ctx, 0);
    out(ctx, kp_ * x + integral_.step(x, ctx.dt, ctx.initial, ctx.fromZeroHistory));
  }
  void visitState(StateVisitor& visitor) override { integral_.visitState(visitor); }

 private:
  double kp_;
  Integral integral_;
};

// INT: y = y0 + ∫gain·x dt, clamped to [min, max]. With a second input (reset): while it is ≥ 1 the
// output is y0 and the integral restarts from there (GeckoCIRCUITS: ReglerIntegral /
// IntegratorCalculation, which integrates while the reset input is < 1).
class Integrator : public Block {
 public:
  Integrator(std::string name, std::vector<int> inputs, std::vector<int> outputs, const Params& p)
      : Block(std::move(name), std::move(inputs), std::move(outputs)),
        integral_(p.number("gain", 1.0), p.number("y0", 0.0),
                  p.number("min", -std::numeric_limits<double>::infinity()),
                  p.number("max", std::numeric_limits<double>::infinity())) {
    if (p.number("max", kInf) < p.number("min", -kInf)) p.outOfRange("max", "at least 'min'");
  }
  void evaluate(ControlContext& ctx) override {
    if (inputs().size() > 1 && in(ctx, 1) >= 1.0) {
      out(ctx, integral_.reset());
      return;
    }
    out(ctx, integral_.step(in(ctx, 0), ctx.dt, ctx.initial, ctx.fromZeroHistory));
  }
  void visitState(StateVisitor& visitor) override { integral_.visitState(visitor); }

 private:
  Integral integral_;
};

// PT1: T·y' + y = gain·x, bilinear (Tustin) transform at step dt:
//   y(n) = (gain·(x(n) + x(n−1)) + (2T/dt − 1)·y(n−1)) / (2T/dt + 1).
class FirstOrderLag : public Block {
 public:
  FirstOrderLag(std::string name, std::vector<int> inputs, std::vector<int> outputs, const Params& p)
      : Block(std::move(name), std::move(inputs), std::move(outputs)),
        t_(p.positive("T")), gain_(p.number("gain", 1.0)), y_(p.number("y0", 0.0)) {}
  void evaluate(ControlContext& ctx) override {
    double x = in(ctx, 0);
    if (!ctx.initial || ctx.fromZeroHistory) {
      double r = 2.0 * t_ / ctx.dt;
      y_ = (gain_ * (x + xPrev_) + (r - 1.0) * y_) / (r + 1.0);
    }
    xPrev_ = x;
    out(ctx, y_);
  }
  void visitState(StateVisitor& visitor) override {
    visitor.real(y_);
    visitor.real(xPrev_);
  }

 private:
  double t_, gain_, y_;
  double xPrev_ = 0.0;
};

// PT2 as GeckoCIRCUITS defines it (ReglerPT2 / PT2Calculator): the undamped second-order lag
//   T²·y'' + y = gain·x,  G(s) = gain / (1 + (sT)²),
// an LC filter without losses (a unit step gives gain·(1 − cos(t/T))). Central differences at step
// dt with the input of the previous step, as GeckoCIRCUITS computes it:
//   y(n) = (2 − dt²/T²)·y(n−1) − y(n−2) + gain·(dt²/T²)·x(n−1).
// The recursion conserves the oscillation's amplitude for dt < 2T and grows without bound beyond,
// so dt ≥ 2T is refused.
class SecondOrderLag : public Block {
 public:
  SecondOrderLag(std::string name, std::vector<int> inputs, std::vector<int> outputs, const Params& p, double dt)
      : Block(std::move(name), std::move(inputs), std::move(outputs)),
        t_(p.positive("T")), gain_(p.number("gain", 1.0)) {
    if (dt >= 2.0 * t_) p.outOfRange("T", "more than half the time step (the undamped PT2 is unstable for dt >= 2T)");
  }
  void evaluate(ControlContext& ctx) override {
    if (!ctx.initial) {
      double r = ctx.dt * ctx.dt / (t_ * t_);
      double y = (2.0 - r) * y1_ - y2_ + gain_ * r * xPrev_;
      y2_ = y1_;
      y1_ = y;
    }
    xPrev_ = in(ctx, 0);
    out(ctx, y1_);
  }
  void visitState(StateVisitor& visitor) override {
    visitor.real(y1_);
    visitor.real(y2_);
    visitor.real(xPrev_);
  }

 private:
  double t_, gain_;
  double y1_ = 0.0, y2_ = 0.0, xPrev_ = 0.0;
};

// DELAY: y(t) = x(t − delay) on the step grid, 0 before the first input arrives. Its output does
// not depend on the present input, so it breaks algebraic loops. The delay is round(delay/dt) steps,
// at least one; with GeckoCIRCUITS' timing it is its DelayCalculator's (int)(delay/dt) steps (so
// 3e-8/1e-8 = 2.9999999999999996 is 2), and a delay below one step passes the input through.
class Delay : public Block {
 public:
  Delay(std::string name, std::vector<int> inputs, std::vector<int> outputs, double delay, double dt, Timing timing)
      : Block(std::move(name), std::move(inputs), std::move(outputs)), buffer_(steps(delay, dt, timing), 0.0) {}
  bool feedthrough() const override { return buffer_.empty(); }
  void evaluate(ControlContext& ctx) override { out(ctx, buffer_.empty() ? in(ctx, 0) : buffer_[head_]); }
  void latch(ControlContext& ctx) override {
    if (buffer_.empty()) return;
    buffer_[head_] = in(ctx, 0);
    head_ = (head_ + 1) % buffer_.size();
  }
  void visitState(StateVisitor& visitor) override {
    for (double& value : buffer_) visitor.real(value);
    long head = static_cast<long>(head_);
    visitor.held(head);
    head_ = static_cast<std::size_t>(head);
  }

 private:
  static std::size_t steps(double delay, double dt, Timing timing) {
    if (timing == Timing::Gecko) return dt > delay ? 0 : static_cast<std::size_t>(delay / dt);
    return static_cast<std::size_t>(std::max(1.0, std::round(delay / dt)));
  }

  std::vector<double> buffer_;
  std::size_t head_ = 0;
};

void requireOneInput(const std::string& name, const std::string& type, std::size_t got) {
  if (got == 1) return;
  throw Error(ErrorCode::NetlistInvalid,
              name + ": a " + type + " block takes 1 input, got " + std::to_string(got), name);
}

template <typename Lag>
BlockPtr lag(BlockArgs& a) {
  requireOneInput(a.name, a.type, a.inputs.size());
  return std::make_unique<Lag>(a.name, std::move(a.inputs), std::move(a.outputs), a.params);
}

BlockPtr secondOrderLag(BlockArgs& a) {
  requireOneInput(a.name, a.type, a.inputs.size());
  return std::make_unique<SecondOrderLag>(a.name, std::move(a.inputs), std::move(a.outputs), a.params, a.dt);
}

// INT: a second input resets it.
BlockPtr integrator(BlockArgs& a) {
  if (a.inputs.size() != 2) requireOneInput(a.name, a.type, a.inputs.size());
  return std::make_unique<Integrator>(a.name, std::move(a.inputs), std::move(a.outputs), a.params);
}

BlockPtr delay(BlockArgs& a) {
  requireOneInput(a.name, a.type, a.inputs.size());
  return std::make_unique<Delay>(a.name, std::move(a.inputs), std::move(a.outputs), a.params.positive("delay"), a.dt, a.timing);
}

BlockPtr transferFunction(BlockArgs& a) {
  requireOneInput(a.name, a.type, a.inputs.size());
  return makeTransferFunction(a.name, a.params, std::move(a.inputs), std::move(a.outputs), a.timing);
}

const BlockDescriptor kDynamicBlocks[] = {
    {"PI", true, 1, lag<PiController>},
    {"PT1", true, 1, lag<FirstOrderLag>},
    {"PT2", true, 1, secondOrderLag},
    {"INT", true, 1, integrator},
    {"DELAY", true, 1, delay},
    {"TF", true, 1, transferFunction},
};

}  // namespace

BlockFamily dynamicBlocks() { return blockFamily(kDynamicBlocks); }

}  // namespace pesim

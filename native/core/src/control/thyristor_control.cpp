// THYRISTOR_CONTROL: gate pulses for a six-pulse thyristor bridge, synchronised to a line voltage.
// GeckoCIRCUITS: ReglerThyristorControl / ThyristorControlCalculator.
//
// Inputs: alpha (firing angle, degrees), sync (synchronisation voltage, normally phase a).
// Outputs (in this order): gt_A1, gt_A2, gt_A3 (upper thyristors of phases a, b, c), gt_B1, gt_B2,
// gt_B3 (lower thyristors of phases a, b, c); 1 while a pulse is on, else 0.
// Parameters: phaseShift (degrees, 30), initFreq (Hz, 50), onTime (pulse width, s, 4e-3).
//
// Each rising zero crossing of sync (previous value ≤ 0, present ≥ 0, the two different) sets the
// synchronisation time t_s; from the second crossing on, the line frequency f is measured as one
// over the time between crossings (GeckoCIRCUITS only measures when the previous crossing lies after
// t = 0). With T = 1/f and a = (phaseShift + alpha)/360, gate i (0..5) fires at
//   t_i = t_s + a·T + (i − 6)·T/3, minus 1.5·T for the lower gates (i ≥ 3),
// i.e. modulo T: A1 at a·T, B3 at a·T + T/6, A2 at + T/3, B1 at + T/2, A3 at + 2T/3, B2 at + 5T/6.
// Whenever t_i changes (at a crossing, or when alpha or f change), a pulse [t_i, t_i + onTime] is
// scheduled, moved forward by whole periods until it starts no earlier than the present step
// (within 1e-10 s). At t = 0 every gate whose t_i ≤ 0 also gets a pulse [1e-20 s, onTime]. A
// pulse sets its output to 1 at the first step after its start and back to 0 at the first step
// after its end; pulses are applied in the order they were scheduled.
#include <algorithm>
#include <array>

#include "control/multi_output.hpp"

namespace pesim {

namespace {

constexpr int kGates = 6;
constexpr double kStartPulseOn = 1e-20;   // GeckoCIRCUITS' start pulse begins just after t = 0
constexpr double kScheduleTolerance = 1e-10;

struct Pulse {
  double on;
  double off;
  int gate;
};

class ThyristorControl : public Block {
 public:
  ThyristorControl(std::string name, std::vector<int> inputs, std::vector<int> outputs, const Params& p)
      : Block(std::move(name), std::move(inputs), std::move(outputs)),
        phaseShift_(p.number("phaseShift", 30.0)),
        frequency_(p.positive("initFreq", 50.0)),
        width_(p.nonNegative("onTime", 4e-3)) {}

  void evaluate(ControlContext& ctx) override {
    const double t = ctx.t;
    const double sync = in(ctx, 1);
    if (syncOld_ <= 0.0 && sync >= 0.0 && syncOld_ != sync) {
      syncTime_ = t;
      if (lastCrossing_ > 0.0 && t != lastCrossing_) frequency_ = 1.0 / (t - lastCrossing_);
      lastCrossing_ = t;
    }
    const double period = 1.0 / frequency_;
    const double angle = (phaseShift_ + in(ctx, 0)) / 360.0;
    for (int i = 0; i < kGates; ++i) {
      double firing = syncTime_ + period * angle + (i - kGates) * period / 3.0;
      if (i > 2) firing -= 1.5 * period;
      if (firing != lastFiring_[i]) schedule(firing, firing + width_, i, t, period);
      lastFiring_[i] = firing;
    }
    for (const Pulse& pulse : pulses_) {
      if (t > pulse.on) state_[pulse.gate] = 1.0;
      if (t > pulse.off) state_[pulse.gate] = 0.0;
    }
    pulses_.erase(std::remove_if(pulses_.begin(), pulses_.end(), [t](const Pulse& pulse) { return t > pulse.off; }),
                  pulses_.end());
    for (int i = 0; i < kGates; ++i) out(ctx, state_[i], static_cast<std::size_t>(i));
    syncOld_ = sync;
  }
  Periodicity periodicity(double /*dt*/) const override {
    return {0.0, 0.0, "the thyristor control block '" + name() + "' keeps a firing schedule the analysis cannot restart"};
  }

 private:
  void schedule(double on, double off, int gate, double t, double period) {
    if (on <= 0.0 && t == 0.0) pulses_.push_back({kStartPulseOn, off - on, gate});
    while (t > on + kScheduleTolerance) {
      on += period;
      off += period;
    }
    pulses_.push_back({on, off, gate});
  }

  double phaseShift_, frequency_, width_;
  double lastCrossing_ = -1.0;
  double syncTime_ = 0.0;
  double syncOld_ = 0.0;
  std::array<double, kGates> lastFiring_{-1.0, -1.0, -1.0, -1.0, -1.0, -1.0};
  std::array<double, kGates> state_{};
  std::vector<Pulse> pulses_;
};

}  // namespace

BlockPtr makeThyristorControl(const std::string& name, const Params& params, std::vector<int> inputs,
                              std::vector<int> outputs) {
  return std::make_unique<ThyristorControl>(name, std::move(inputs), std::move(outputs), params);
}

}  // namespace pesim

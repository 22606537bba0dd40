// GeckoCIRCUITS' stepped rectangle and triangle (see stepped_wave.hpp). The arithmetic keeps the
// order of operations of the classes cited there so that clamping happens on the same steps.
#include "control/stepped_wave.hpp"

#include <cmath>

namespace pesim {

namespace {
constexpr double kPi = 3.14159265358979323846;
constexpr double kDegreesToRadians = 0.017453292519943295;  // java.lang.Math.toRadians
constexpr double kStartStepsPerPeriod = 1000.0;
}  // namespace

SteppedWave::SteppedWave(Kind kind, double amplitude, double frequency, double offset, double phaseDegrees,
                         double duty)
    : kind_(kind),
      amplitude_(amplitude),
      frequency_(frequency),
      offset_(offset),
      phase_(phaseDegrees * kDegreesToRadians),
      duty_(duty) {}

void SteppedWave::advance(double up, double down, double peak, bool clamp) {
  if (rising_) level_ += up;
  else level_ -= down;
  if (!clamp) return;
  if (level_ >= peak) {
    level_ = peak;
    rising_ = false;
  } else if (level_ <= -peak) {
    level_ = -peak;
    rising_ = true;
  }
}

void SteppedWave::start() {
  level_ = 0.0;
  rising_ = true;
  runStartPhase();
}

// The start state: the triangle run over the phase in steps of a thousandth of the period, then
// negated (AbstractSignalCalculatorPeriodic.calculateStartSignal in both subclasses).
void SteppedWave::runStartPhase() {
  double phase = phase_;  // wrapped into [0, 2π] as GeckoCIRCUITS does
  while (phase > 2 * kPi) phase -= 2 * kPi;
  while (phase < 0) phase += 2 * kPi;
  const double period = 1.0 / frequency_;
  const double dtx = period / kStartStepsPerPeriod;
  const double magnitude = std::fabs(amplitude_);
  const bool clamp = amplitude_ != 0.0;
  double end = period * phase / (2 * kPi);
  if (kind_ == Kind::Rectangle) {
    end -= (1 - 2 * duty_) / (4 * frequency_);
    if (end < 0) end += period;
  }
  for (double tx = 0; tx < end; tx += dtx) {
    if (kind_ == Kind::Rectangle) {
      advance(2 * frequency_ * dtx / 0.5, 2 * frequency_ * dtx / (1 - 0.5), 1.0, clamp);
    } else {
      advance(magnitude * 2 * frequency_ * dtx / duty_, magnitude * 2 * frequency_ * dtx / (1 - duty_), magnitude,
              clamp);
    }
  }
  level_ = -level_;
}

double SteppedWave::step(double dt) {
  if (kind_ == Kind::Rectangle) {
    advance(4 * frequency_ * dt, 4 * frequency_ * dt, 1.0, true);
    return level_ > 1 - 2 * duty_ ? amplitude_ + offset_ : offset_;
  }
  const double magnitude = std::fabs(amplitude_);
  advance(magnitude * 2 * frequency_ * dt / duty_, magnitude * 2 * frequency_ * dt / (1 - duty_), magnitude,
          amplitude_ != 0.0);
  // GeckoCIRCUITS requires A ≥ 0; a negative amplitude (pesim's PWM carriers) mirrors the wave.
  return (amplitude_ < 0 ? -level_ : level_) + offset_;
}

long SteppedWave::periodSteps(double dt) const {
  if (amplitude_ == 0.0) return 0;
  // Counts the steps between the second and the third time the rising ramp reaches its peak.
  constexpr long kMaxSteps = 100'000'000;
  SteppedWave wave = *this;
  wave.start();
  long peaks = 0, first = 0;
  for (long n = 1; n <= kMaxSteps; ++n) {
    const bool wasRising = wave.rising_;
    wave.step(dt);
    if (!(wasRising && !wave.rising_)) continue;
    if (++peaks == 2) first = n;
    if (peaks == 3) return n - first;
  }
  return 0;
}

}  // namespace pesim

// Time functions of independent sources: dc, sine, pulse (SPICE PULSE), pwm, piecewise-linear,
// and a control signal (value after the previous step's control evaluation).
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "circuit/params.hpp"
#include "steady/state_visitor.hpp"

namespace pesim {

class Waveform {
 public:
  enum class Kind { Dc, Sine, Pulse, Pwm, Pwl, Signal };

  // Reads `waveform` and its parameters; `signalIndex` resolves a control-signal name.
  static Waveform fromParams(const Params& params, int signalIndex);
  double value(double t, const double* signals) const { return kind_ == Kind::Dc ? a_ : evaluate(t, signals); }
  Kind kind() const { return kind_; }
  // Period of the time function and the time it repeats from (a control signal: none of its own).
  Periodicity periodicity() const;
  // Name of the control signal a `signal` waveform follows (empty otherwise).
  static std::string signalName(const Params& params);

 private:
  double evaluate(double t, const double* signals) const;
  double periodsBefore(double local) const;

  Kind kind_ = Kind::Dc;
  double a_ = 0, b_ = 0, c_ = 0, d_ = 0, e_ = 0, f_ = 0, g_ = 0;  // meaning depends on kind
  std::vector<double> times_, values_;
  int signal_ = -1;
  // Pulse: the whole periods floor(local/period) last computed and the range of local times over
  // which that floor is certain, to skip the division while time stays inside one period.
  mutable double periods_ = 0.0;
  mutable double periodsFrom_ = std::numeric_limits<double>::infinity();
  mutable double periodsTo_ = -std::numeric_limits<double>::infinity();
};

// floor(local / g_) of a PULSE, as computed by the division, bit for bit. The division runs when
// local leaves the range of the last one: a range kept 1e-6 periods inside the period's edges,
// where the rounding of local/g_ (a few ulps of the period count, bounded by 2^20 periods here)
// cannot move the floor, so inside it the floor is the remembered one.
inline double Waveform::periodsBefore(double local) const {
  if (local >= periodsFrom_ && local < periodsTo_) return periods_;
  constexpr double kMargin = 1e-6;
  constexpr double kLargestCached = 1 << 20;
  periods_ = std::floor(local / g_);
  if (periods_ < kLargestCached) {
    periodsFrom_ = (periods_ + kMargin) * g_;
    periodsTo_ = (periods_ + 1.0 - kMargin) * g_;
  } else {
    periodsFrom_ = std::numeric_limits<double>::infinity();
    periodsTo_ = -std::numeric_limits<double>::infinity();
  }
  return periods_;
}

}  // namespace pesim

// Time functions of independent sources: dc, sine, pulse (SPICE PULSE), pwm, piecewise-linear,
// and a control signal (value after the previous step's control evaluation).
#pragma once

#include <string>
#include <vector>

#include "circuit/params.hpp"

namespace pesim {

class Waveform {
 public:
  enum class Kind { Dc, Sine, Pulse, Pwm, Pwl, Signal };

  // Reads `waveform` and its parameters; `signalIndex` resolves a control-signal name.
  static Waveform fromParams(const Params& params, int signalIndex);
  double value(double t, const double* signals) const;
  Kind kind() const { return kind_; }
  // Name of the control signal a `signal` waveform follows (empty otherwise).
  static std::string signalName(const Params& params);

 private:
  Kind kind_ = Kind::Dc;
  double a_ = 0, b_ = 0, c_ = 0, d_ = 0, e_ = 0, f_ = 0, g_ = 0;  // meaning depends on kind
  std::vector<double> times_, values_;
  int signal_ = -1;
};

}  // namespace pesim

// Source waveforms (docs/netlist.md, "Source waveforms").
#include "elements/waveform.hpp"

#include <algorithm>
#include <cmath>

#include "math/sine.hpp"

namespace pesim {

namespace {
constexpr double kPi = 3.14159265358979323846;

// Position within a period, in [0, 1).
double periodFraction(double t, double period) {
  double fraction = t / period;
  return fraction - std::floor(fraction);
}
}  // namespace

std::string Waveform::signalName(const Params& params) {
  return params.text("waveform", "dc") == "signal" ? params.text("signal") : std::string();
}

Waveform Waveform::fromParams(const Params& p, int signalIndex) {
  Waveform w;
  std::string kind = p.text("waveform", "dc");
  if (kind == "dc") {
    w.kind_ = Kind::Dc;
    w.a_ = p.number("value");
  } else if (kind == "sine") {
    w.kind_ = Kind::Sine;
    w.a_ = p.number("amplitude");
    w.b_ = p.nonNegative("frequency", 0.0);
    w.c_ = p.number("offset", 0.0);
    w.d_ = p.number("phase", 0.0) * kPi / 180.0;
    w.e_ = p.nonNegative("delay", 0.0);
  } else if (kind == "pulse") {
    w.kind_ = Kind::Pulse;
    w.a_ = p.number("v1");
    w.b_ = p.number("v2");
    w.c_ = p.nonNegative("delay", 0.0);
    w.d_ = p.nonNegative("rise", 0.0);
    w.e_ = p.nonNegative("fall", 0.0);
    w.f_ = p.nonNegative("width", 0.0);
    w.g_ = p.nonNegative("period", 0.0);
    if (w.g_ > 0.0 && w.d_ + w.f_ + w.e_ > w.g_) p.outOfRange("period", "at least rise + width + fall");
  } else if (kind == "pwm") {
    w.kind_ = Kind::Pwm;
    w.a_ = p.number("low", 0.0);
    w.b_ = p.number("high");
    w.c_ = p.positive("frequency");
    w.d_ = p.inRange("duty", 0.0, 1.0, 0.5);
    w.e_ = p.number("phase", 0.0) / 360.0;
  } else if (kind == "pwl") {
    w.kind_ = Kind::Pwl;
    w.times_ = p.array("times");
    w.values_ = p.array("values");
    if (w.times_.empty() || w.times_.size() != w.values_.size()) {
      p.outOfRange("values", "a list as long as 'times' (and not empty)");
    }
    for (std::size_t i = 1; i < w.times_.size(); ++i) {
      if (!(w.times_[i] > w.times_[i - 1])) p.outOfRange("times", "strictly increasing");
    }
  } else if (kind == "signal") {
    w.kind_ = Kind::Signal;
    w.signal_ = signalIndex;
    w.a_ = p.number("gain", 1.0);
    w.b_ = p.number("offset", 0.0);
  } else {
    p.outOfRange("waveform", "one of dc, sine, pulse, pwm, pwl, signal");
  }
  return w;
}

Periodicity Waveform::periodicity() const {
  Periodicity p;
  switch (kind_) {
    case Kind::Dc:
    case Kind::Signal:
      break;
    case Kind::Sine:
      if (b_ > 0.0) p.period = 1.0 / b_;
      p.from = e_;
      break;
    case Kind::Pulse:
      // Without a period the pulse happens once and the source is constant after it.
      p.period = g_;
      p.from = g_ > 0.0 ? c_ : c_ + d_ + f_ + e_;
      break;
    case Kind::Pwm:
      p.period = 1.0 / c_;
      break;
    case Kind::Pwl:
      p.from = times_.back();  // constant after the last point
      break;
  }
  return p;
}

double Waveform::evaluate(double t, const double* signals) const {
  switch (kind_) {
    case Kind::Dc:
      return a_;
    case Kind::Sine:
      // The time loop's sine (math/sine.hpp): every step evaluates it, and its result feeds the solve.
      if (t < e_) return c_ + a_ * math::sin(d_);
      return c_ + a_ * math::sin(2.0 * kPi * b_ * (t - e_) + d_);
    case Kind::Pulse: {
      // SPICE PULSE(V1 V2 TD TR TF PW PER).
      if (t < c_) return a_;
      double local = t - c_;
      if (g_ > 0.0) local -= g_ * periodsBefore(local);
      if (local < d_) return a_ + (b_ - a_) * (d_ > 0.0 ? local / d_ : 1.0);
      local -= d_;
      if (local <= f_) return b_;
      local -= f_;
      if (local < e_) return b_ + (a_ - b_) * local / e_;
      return a_;
    }
    case Kind::Pwm:
      return periodFraction(t * c_ + e_, 1.0) < d_ ? b_ : a_;
    case Kind::Pwl: {
      if (t <= times_.front()) return values_.front();
      if (t >= times_.back()) return values_.back();
      auto upper = std::upper_bound(times_.begin(), times_.end(), t);
      std::size_t i = static_cast<std::size_t>(upper - times_.begin());
      double t0 = times_[i - 1], t1 = times_[i];
      return values_[i - 1] + (values_[i] - values_[i - 1]) * (t - t0) / (t1 - t0);
    }
    case Kind::Signal:
      return b_ + a_ * signals[signal_];
  }
  return 0.0;
}

}  // namespace pesim

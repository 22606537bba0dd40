// Scope recording and measurements. Channels are decimated to a point budget by keeping every
// k-th step (k fixed before the run, so the arrays are allocated once at their final size and
// moved into the result); measurements (avg, rms,
// min, max) accumulate over the measurement window from every step, without storing samples.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <vector>

#include "control/system.hpp"
#include "pesim/engine.hpp"

namespace pesim {

// Window bounds match sample times to this fraction of a step: a bound written from a sample's
// time (a decimal print, a running sum of steps as GeckoCIRCUITS keeps it) selects that sample.
constexpr double kWindowTolerance = 1e-6;

class Recorder {
 public:
  // `storage` (RunControl::sampleStorage), when set, provides the arrays the samples go to.
  Recorder(const std::vector<ScopeChannel>& channels, long totalSteps, double dt, long maxPoints,
           double measureFrom, double measureTo,
           const std::function<double*(std::size_t, std::size_t)>& storage = {});

  // Step n at time t with the signal values after the control evaluation; called for n = 0, 1, ...,
  // totalSteps in order.
  void record(long n, double t, const double* signals);
  // Moves the recorded arrays and the measurements into result; call once, after the last step.
  void finish(Result& result);

 private:
  struct Accumulator {
    double sum = 0.0, sumSquares = 0.0, min = 0.0, max = 0.0;
    long count = 0;
  };

  std::vector<ScopeChannel> channels_;
  long totalSteps_;
  long stride_;
  double from_, to_;
  std::size_t points_ = 0;  // points the run records (arrays sized once, before the run)
  std::size_t next_ = 0;    // index of the next point to write
  long nextStep_ = 0;       // the step it is taken from: a multiple of stride_, or the last step
  // Per channel, the signal it records and where its samples go (the caller's storage, or
  // values_), side by side for the per-step copy.
  struct Output {
    std::size_t signal;
    double* samples;
  };
  std::vector<Output> outputs_;
  double* timeOut_ = nullptr;  // where the time axis goes: the caller's storage, or time_
  std::vector<double> time_;
  std::vector<std::vector<double>> values_;
  std::vector<Accumulator> accumulators_;
};

// Runs every step: defined here to inline into the time loop.
inline void Recorder::record(long n, double t, const double* signals) {
  if (t >= from_ && t <= to_) {
    for (std::size_t c = 0; c < outputs_.size(); ++c) {
      double v = signals[outputs_[c].signal];
      Accumulator& a = accumulators_[c];
      if (a.count == 0) a.min = a.max = v;
      a.sum += v;
      a.sumSquares += v * v;
      if (v < a.min) a.min = v;
      if (v > a.max) a.max = v;
      ++a.count;
    }
  }
  // Steps arrive in order 0, 1, 2, ...: the next one to keep is known (no division per step).
  if (n != nextStep_) return;
  nextStep_ = std::min(n + stride_, totalSteps_);
  // Written in place into the arrays that finish() hands over: no growth checks, no later copy.
  if (next_ >= points_) return;  // only if record() is called beyond totalSteps
  timeOut_[next_] = t;
  for (const Output& o : outputs_) o.samples[next_] = signals[o.signal];
  ++next_;
}

}  // namespace pesim

// Scope recording and measurements. Channels are decimated to a point budget by keeping every
// k-th step (k fixed before the run, so the arrays are allocated once at their final size and
// moved into the result); measurements (avg, rms,
// min, max) accumulate over the measurement window from every step, without storing samples.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "control/system.hpp"
#include "pesim/engine.hpp"

namespace pesim {

class Recorder {
 public:
  // `storage` (RunControl::sampleStorage), when set, provides the arrays the samples go to.
  Recorder(const std::vector<ScopeChannel>& channels, long totalSteps, double dt, long maxPoints,
           double measureFrom, double measureTo,
           const std::function<double*(std::size_t, std::size_t)>& storage = {});

  // Step n (0..totalSteps) at time t with the signal values after the control evaluation.
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
  std::vector<int> signalIndex_;  // channels_[c].signal, contiguous for the per-step copy
  double* timeOut_ = nullptr;         // where the time axis and each channel's samples go:
  std::vector<double*> valuesOut_;    // the caller's storage, or time_ and values_
  std::vector<double> time_;
  std::vector<std::vector<double>> values_;
  std::vector<Accumulator> accumulators_;
};

}  // namespace pesim

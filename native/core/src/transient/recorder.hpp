// Scope recording and measurements. Channels are decimated to a point budget by keeping every
// k-th step (k fixed before the run, so the arrays are allocated once); measurements (avg, rms,
// min, max) accumulate over the measurement window from every step, without storing samples.
#pragma once

#include <vector>

#include "control/system.hpp"
#include "pesim/engine.hpp"

namespace pesim {

class Recorder {
 public:
  Recorder(const std::vector<ScopeChannel>& channels, long totalSteps, double dt, long maxPoints,
           double measureFrom, double measureTo);

  // Step n (0..totalSteps) at time t with the signal values after the control evaluation.
  void record(long n, double t, const double* signals);
  void finish(Result& result) const;

 private:
  struct Accumulator {
    double sum = 0.0, sumSquares = 0.0, min = 0.0, max = 0.0;
    long count = 0;
  };

  std::vector<ScopeChannel> channels_;
  long totalSteps_;
  long stride_;
  double from_, to_;
  std::vector<double> time_;
  std::vector<std::vector<double>> values_;
  std::vector<Accumulator> accumulators_;
};

}  // namespace pesim

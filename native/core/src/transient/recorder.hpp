// Scope recording and measurements. Channels are decimated to a point budget by keeping every
// k-th step (k fixed before the run, so the arrays are allocated once at their final size and
// moved into the result); measurements (avg, rms,
// min, max) accumulate over the measurement window from every step, without storing samples.
//
// A mean-value channel (ScopeChannel::meanSpan > 0) holds one number over the whole run, as
// GeckoCIRCUITS reports its scope's average signals (the values its cursors, its characteristics
// dialog and its data access read; its plot draws a moving average instead): DataContainerMeanWrapper
// .getValue passes the signal's position j in the scope's list of mean-value signals where a
// sample index belongs, so every sample is the average over the interval centred on GeckoCIRCUITS'
// sample j, j·dt ± span/2, clipped to the run: the start of the run. The average is GeckoCIRCUITS'
// (DataContainerCompressable.getAVGValueInInterval): the difference of a running integral (sample
// 1 adds nothing to it) at the interval's end indices, divided by their time difference, with the
// indices of TimeSeriesConstantDt (times as GeckoCIRCUITS accumulates them, t += dt, and the
// sample spacing fitted over the first 100 samples; GeckoCIRCUITS keeps samples and integral in
// single precision, the engine sums doubles). Such a channel records its input during the run and
// gets its value when the run ends.
//
// GeckoCIRCUITS' scope shows its samples up to the index of its last sample's time less half its
// longest averaging time (DataContainerMeanWrapper.getMaximumTimeIndex, which every scope has; 0
// without mean-value signals): truncated on its axis, which may drop the last sample, and half an
// averaging time early with mean-value signals. The measurements of a scope with `geckoAxis` (or
// mean-value channels) end there too; its samples run to the end.
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

// GeckoCIRCUITS' scope time axis (TimeSeriesConstantDt) over samples 0..last taken every dt from
// t0: the sample spacing is fitted over the first 100 samples, whose times GeckoCIRCUITS
// accumulates (t += dt); sample k is at t0 + k·spacing, and the index of a time is truncated and
// clipped to the samples.
struct GeckoAxis {
  double t0 = 0.0;
  double spacing = 0.0;
  long last = 0;
  long index(double time) const;
  double time(long k) const { return t0 + static_cast<double>(k) * spacing; }
};
GeckoAxis geckoAxis(double t0, double dt, long last);
// The samples a mean-value channel averages, (start, stop], and the time the average divides by.
struct MeanWindow {
  long start = 0;
  long stop = 0;
  double seconds = 0.0;
};
// GeckoCIRCUITS' averaging interval of the mean-value signal at position `order` with averaging
// time `span` (see the file comment).
MeanWindow geckoMeanWindow(const GeckoAxis& axis, double span, int order);
// The last sample GeckoCIRCUITS shows of a scope whose longest averaging time is `span` (0: none).
long geckoScopeEnd(const GeckoAxis& axis, double span);

class Recorder {
 public:
  // `storage` (RunControl::sampleStorage), when set, provides the arrays the samples go to.
  // `axis`: GeckoCIRCUITS' time axis of the run (geckoClocks), for the mean-value channels.
  Recorder(const std::vector<ScopeChannel>& channels, long totalSteps, double dt, long maxPoints,
           double measureFrom, double measureTo,
           const std::function<double*(std::size_t, std::size_t)>& storage = {}, const GeckoAxis& axis = {});

  // Step n at time t with the signal values after the control evaluation; called for n = 0, 1, ...,
  // totalSteps in order.
  void record(long n, double t, const double* signals);
  // Moves the recorded arrays and the measurements into result; call once, after the last step.
  void finish(Result& result);
  // Copies what is recorded so far into result, as finish() would give it; recording goes on.
  void copyTo(Result& result) const;

 private:
  struct Accumulator {
    double sum = 0.0, sumSquares = 0.0, min = 0.0, max = 0.0;
    long count = 0;
  };

  // The mean-value channels, and the data end of the scopes on GeckoCIRCUITS' axis.
  void applyGeckoAxis(const GeckoAxis& axis);
  // Sets the mean-value channels to their value: every sample, and the window measurements.
  void holdMeans();

  std::vector<ScopeChannel> channels_;
  long totalSteps_;
  double dt_;
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
    double until;  // last time the measurements take (the window's end, or its scope's data end)
  };
  std::vector<Output> outputs_;
  // The mean-value channels: the sum of their input over the samples of their window.
  struct Mean {
    std::size_t channel;
    std::size_t signal;
    MeanWindow window;
    double sum = 0.0;
  };
  std::vector<Mean> means_;
  // The value of a mean-value channel from the samples summed so far.
  double meanValue(const Mean& m) const;
  // The channels' window measurements from `accumulators` into result.
  void addMeasurements(Result& result, const std::vector<Accumulator>& accumulators) const;
  long windowSteps_ = 0;  // steps inside the measurement window
  double* timeOut_ = nullptr;  // where the time axis goes: the caller's storage, or time_
  std::vector<double> time_;
  std::vector<std::vector<double>> values_;
  std::vector<Accumulator> accumulators_;
};

// Runs every step: defined here to inline into the time loop.
inline void Recorder::record(long n, double t, const double* signals) {
  for (Mean& m : means_) {
    if (n > m.window.start && n <= m.window.stop && n >= 2) m.sum += signals[m.signal];
  }
  if (t >= from_ && t <= to_) {
    ++windowSteps_;
    for (std::size_t c = 0; c < outputs_.size(); ++c) {
      if (t > outputs_[c].until) continue;
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

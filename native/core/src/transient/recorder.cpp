// Channel decimation and online measurements (see recorder.hpp).
#include "transient/recorder.hpp"

#include <cmath>
#include <utility>

namespace pesim {

Recorder::Recorder(const std::vector<ScopeChannel>& channels, long totalSteps, double /*dt*/,
                   long maxPoints, double measureFrom, double measureTo,
                   const std::function<double*(std::size_t, std::size_t)>& storage)
    : channels_(channels), totalSteps_(totalSteps), from_(measureFrom), to_(measureTo) {
  // Points 0, k, 2k, ... plus the last step: at most maxPoints of them.
  long budget = maxPoints < 2 ? 2 : maxPoints;
  stride_ = totalSteps / (budget - 1) + ((totalSteps % (budget - 1)) ? 1 : 0);
  if (stride_ < 1) stride_ = 1;
  // Exactly the points recorded: steps 0, k, ..., plus the last step when k does not divide it.
  points_ = static_cast<std::size_t>(totalSteps / stride_ + 1 + ((totalSteps % stride_) ? 1 : 0));
  values_.resize(channels_.size());
  valuesOut_.resize(channels_.size());
  if (storage) {
    timeOut_ = storage(0, points_);
    for (std::size_t c = 0; c < channels_.size(); ++c) valuesOut_[c] = storage(c + 1, points_);
  } else {
    time_.resize(points_);
    timeOut_ = time_.data();
    for (std::size_t c = 0; c < channels_.size(); ++c) {
      values_[c].resize(points_);
      valuesOut_[c] = values_[c].data();
    }
  }
  signalIndex_.reserve(channels_.size());
  for (const ScopeChannel& c : channels_) signalIndex_.push_back(c.signal);
  accumulators_.resize(channels_.size());
}

void Recorder::record(long n, double t, const double* signals) {
  if (t >= from_ && t <= to_) {
    for (std::size_t c = 0; c < channels_.size(); ++c) {
      double v = signals[signalIndex_[c]];
      Accumulator& a = accumulators_[c];
      if (a.count == 0) a.min = a.max = v;
      a.sum += v;
      a.sumSquares += v * v;
      if (v < a.min) a.min = v;
      if (v > a.max) a.max = v;
      ++a.count;
    }
  }
  if (n % stride_ != 0 && n != totalSteps_) return;
  // Written in place into the arrays that finish() hands over: no growth checks, no later copy.
  if (next_ >= points_) return;  // only if record() is called beyond totalSteps
  timeOut_[next_] = t;
  const std::size_t channelCount = signalIndex_.size();
  for (std::size_t c = 0; c < channelCount; ++c) valuesOut_[c][next_] = signals[signalIndex_[c]];
  ++next_;
}

void Recorder::finish(Result& result) {
  // Points not reached (a run ended early) are not reported; caller storage keeps its length.
  result.points = next_;
  if (!time_.empty()) time_.resize(next_);
  result.time = std::move(time_);
  for (std::size_t c = 0; c < channels_.size(); ++c) {
    const ScopeChannel& ch = channels_[c];
    if (!values_[c].empty()) values_[c].resize(next_);
    result.channels.push_back({ch.key, ch.scope, ch.index, ch.label, std::move(values_[c])});
    const Accumulator& a = accumulators_[c];
    if (a.count == 0) continue;
    double count = static_cast<double>(a.count);
    result.measurements.push_back({ch.key + ".avg", a.sum / count});
    result.measurements.push_back({ch.key + ".rms", std::sqrt(a.sumSquares / count)});
    result.measurements.push_back({ch.key + ".min", a.min});
    result.measurements.push_back({ch.key + ".max", a.max});
  }
}

}  // namespace pesim

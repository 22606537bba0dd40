// Channel decimation and online measurements (see recorder.hpp).
#include "transient/recorder.hpp"

#include <cmath>

namespace pesim {

Recorder::Recorder(const std::vector<ScopeChannel>& channels, long totalSteps, double /*dt*/,
                   long maxPoints, double measureFrom, double measureTo)
    : channels_(channels), totalSteps_(totalSteps), from_(measureFrom), to_(measureTo) {
  // Points 0, k, 2k, ... plus the last step: at most maxPoints of them.
  long budget = maxPoints < 2 ? 2 : maxPoints;
  stride_ = totalSteps / (budget - 1) + ((totalSteps % (budget - 1)) ? 1 : 0);
  if (stride_ < 1) stride_ = 1;
  std::size_t points = static_cast<std::size_t>(totalSteps / stride_ + 2);
  time_.reserve(points);
  values_.resize(channels_.size());
  for (auto& v : values_) v.reserve(points);
  accumulators_.resize(channels_.size());
}

void Recorder::record(long n, double t, const double* signals) {
  if (t >= from_ && t <= to_) {
    for (std::size_t c = 0; c < channels_.size(); ++c) {
      double v = signals[channels_[c].signal];
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
  time_.push_back(t);
  for (std::size_t c = 0; c < channels_.size(); ++c) values_[c].push_back(signals[channels_[c].signal]);
}

void Recorder::finish(Result& result) const {
  result.time = time_;
  for (std::size_t c = 0; c < channels_.size(); ++c) {
    const ScopeChannel& ch = channels_[c];
    result.channels.push_back({ch.key, ch.scope, ch.index, ch.label, values_[c]});
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

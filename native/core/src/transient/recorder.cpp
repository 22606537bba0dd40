// Channel decimation and online measurements (see recorder.hpp).
#include "transient/recorder.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>

namespace pesim {

GeckoAxis geckoAxis(double t0, double dt, long last) {
  GeckoAxis axis;
  axis.t0 = t0;
  axis.last = std::max(last, 0L);
  long fitted = std::min(axis.last, 99L);
  double t = t0;
  for (long k = 0; k < fitted; ++k) t += dt;
  axis.spacing = fitted > 0 ? (t - t0) / static_cast<double>(fitted) : dt;
  return axis;
}

long GeckoAxis::index(double time) const {
  return std::clamp(static_cast<long>((time - t0) / spacing), 0L, last);
}

MeanWindow geckoMeanWindow(const GeckoAxis& axis, double span, int order) {
  double centre = axis.time(order);
  MeanWindow w;
  w.start = axis.index(centre - span / 2);
  w.stop = axis.index(centre + span / 2);
  w.seconds = axis.time(w.stop) - axis.time(w.start);
  return w;
}

long geckoScopeEnd(const GeckoAxis& axis, double span) {
  return std::min(axis.index(axis.time(axis.last) - span / 2), axis.last);
}

Recorder::Recorder(const std::vector<ScopeChannel>& channels, long totalSteps, double dt,
                   long maxPoints, double measureFrom, double measureTo,
                   const std::function<double*(std::size_t, std::size_t)>& storage, const GeckoAxis& axis)
    : channels_(channels), totalSteps_(totalSteps), dt_(dt), from_(measureFrom - kWindowTolerance * dt), to_(measureTo + kWindowTolerance * dt) {
  // Points 0, k, 2k, ... plus the last step: at most maxPoints of them.
  long budget = maxPoints < 2 ? 2 : maxPoints;
  stride_ = totalSteps / (budget - 1) + ((totalSteps % (budget - 1)) ? 1 : 0);
  if (stride_ < 1) stride_ = 1;
  // Exactly the points recorded: steps 0, k, ..., plus the last step when k does not divide it.
  points_ = static_cast<std::size_t>(totalSteps / stride_ + 1 + ((totalSteps % stride_) ? 1 : 0));
  values_.resize(channels_.size());
  outputs_.resize(channels_.size());
  for (std::size_t c = 0; c < channels_.size(); ++c) {
    outputs_[c].signal = static_cast<std::size_t>(channels_[c].signal);
    outputs_[c].until = to_;
  }
  if (storage) {
    timeOut_ = storage(0, points_);
    for (std::size_t c = 0; c < channels_.size(); ++c) outputs_[c].samples = storage(c + 1, points_);
  } else {
    time_.resize(points_);
    timeOut_ = time_.data();
    for (std::size_t c = 0; c < channels_.size(); ++c) {
      values_[c].resize(points_);
      outputs_[c].samples = values_[c].data();
    }
  }
  accumulators_.resize(channels_.size());
  applyGeckoAxis(axis);
}

void Recorder::applyGeckoAxis(const GeckoAxis& axis) {
  std::map<std::string, double> longest;  // per scope on GeckoCIRCUITS' axis: its longest averaging time
  for (const ScopeChannel& ch : channels_) {
    if (ch.geckoAxis) longest[ch.scope] = std::max(longest[ch.scope], ch.meanSpan);
  }
  if (longest.empty()) return;
  for (std::size_t c = 0; c < channels_.size(); ++c) {
    const ScopeChannel& ch = channels_[c];
    auto scope = longest.find(ch.scope);
    if (scope == longest.end()) continue;
    double end = (static_cast<double>(geckoScopeEnd(axis, scope->second)) + 0.5) * dt_;
    outputs_[c].until = std::min(to_, end);
    if (ch.meanSpan > 0.0) means_.push_back({c, static_cast<std::size_t>(ch.signal), geckoMeanWindow(axis, ch.meanSpan, ch.meanOrder)});
  }
}

double Recorder::meanValue(const Mean& m) const {
  // The integral of samples (start, stop] over their time; no samples: 0/0 as in GeckoCIRCUITS.
  return m.window.stop > m.window.start ? m.sum * dt_ / m.window.seconds : std::nan("");
}

void Recorder::holdMeans() {
  for (const Mean& m : means_) {
    const double value = meanValue(m);
    std::fill(outputs_[m.channel].samples, outputs_[m.channel].samples + next_, value);
    // A constant: its window statistics are the value (one sample's accumulator gives exactly that).
    if (windowSteps_ > 0) accumulators_[m.channel] = {value, value * value, value, value, 1};
  }
}

void Recorder::addMeasurements(Result& result, const std::vector<Accumulator>& accumulators) const {
  for (std::size_t c = 0; c < channels_.size(); ++c) {
    const ScopeChannel& ch = channels_[c];
    const Accumulator& a = accumulators[c];
    if (a.count == 0) continue;
    double count = static_cast<double>(a.count);
    result.measurements.push_back({ch.key + ".avg", a.sum / count});
    result.measurements.push_back({ch.key + ".rms", std::sqrt(a.sumSquares / count)});
    result.measurements.push_back({ch.key + ".min", a.min});
    result.measurements.push_back({ch.key + ".max", a.max});
  }
}

void Recorder::finish(Result& result) {
  holdMeans();
  // Points not reached (a run ended early) are not reported; caller storage keeps its length.
  result.points = next_;
  if (!time_.empty()) time_.resize(next_);
  result.time = std::move(time_);
  for (std::size_t c = 0; c < channels_.size(); ++c) {
    const ScopeChannel& ch = channels_[c];
    if (!values_[c].empty()) values_[c].resize(next_);
    result.channels.push_back({ch.key, ch.scope, ch.index, ch.label, std::move(values_[c])});
  }
  addMeasurements(result, accumulators_);
}

void Recorder::copyTo(Result& result) const {
  result.points = next_;
  result.time.assign(timeOut_, timeOut_ + next_);
  for (std::size_t c = 0; c < channels_.size(); ++c) {
    const ScopeChannel& ch = channels_[c];
    result.channels.push_back({ch.key, ch.scope, ch.index, ch.label,
                               std::vector<double>(outputs_[c].samples, outputs_[c].samples + next_)});
  }
  std::vector<Accumulator> accumulators = accumulators_;
  for (const Mean& m : means_) {
    const double value = meanValue(m);
    std::fill(result.channels[m.channel].values.begin(), result.channels[m.channel].values.end(), value);
    if (windowSteps_ > 0) accumulators[m.channel] = {value, value * value, value, value, 1};
  }
  addMeasurements(result, accumulators);
}

}  // namespace pesim

// Loss curve lookup table (see loss_table.hpp).
#include "losses/loss_table.hpp"

#include <cmath>

#include "pesim/errors.hpp"

namespace pesim {

namespace {

[[noreturn]] void invalid(const std::string& owner, const std::string& field, const std::string& what) {
  throw Error(ErrorCode::ParameterOutOfRange, owner + ": " + field + " " + what, owner);
}

}  // namespace

LossTable::LossTable(const std::vector<LossCurve>& curves, bool perVolt, const std::string& owner,
                     const std::string& field) {
  if (curves.empty()) invalid(owner, field, "needs at least one measured curve");
  for (std::size_t k = 0; k < curves.size(); ++k) {
    const LossCurve& c = curves[k];
    const std::string at = field + "[" + std::to_string(k) + "]";
    if (!std::isfinite(c.T)) invalid(owner, at + ".T", "must be a finite temperature");
    if (k > 0 && !(c.T > curves[k - 1].T)) invalid(owner, at + ".T", "must be greater than the previous curve's T (curves sorted by temperature)");
    if (c.i.size() < 2) invalid(owner, at + ".i", "needs at least two currents");
    if (c.y.size() != c.i.size()) {
      invalid(owner, at, "has " + std::to_string(c.i.size()) + " currents but " + std::to_string(c.y.size()) + " values");
    }
    // Equal consecutive currents are a step of the curve: measured on-state curves in
    // GeckoCIRCUITS loss files start (0 A, 0 V), (0 A, threshold). The table keeps the last
    // point of each step, the value for currents above it (at the step itself v·i or E is 0 anyway
    // for the usual step at 0 A).
    if (perVolt && !(c.uRef > 0.0)) invalid(owner, at + ".uRef", "must be a reference voltage greater than 0");
    std::vector<double> currents, values;
    for (std::size_t j = 0; j < c.i.size(); ++j) {
      if (!std::isfinite(c.i[j]) || !std::isfinite(c.y[j])) invalid(owner, at + ".i[" + std::to_string(j) + "]", "must be a finite point");
      if (j > 0 && c.i[j] < c.i[j - 1]) invalid(owner, at + ".i[" + std::to_string(j) + "]", "must not be less than the previous current");
      double v = perVolt ? c.y[j] / c.uRef : c.y[j];
      if (!currents.empty() && c.i[j] == currents.back()) {
        values.back() = v;
      } else {
        currents.push_back(c.i[j]);
        values.push_back(v);
      }
    }
    if (currents.size() < 2) invalid(owner, at + ".i", "needs at least two different currents");
    for (double i : currents) {
      if (i < 0.0) nonNegativeCurrents_ = false;
    }
    temperatures_.push_back(c.T);
    currents_.push_back(std::move(currents));
    values_.push_back(std::move(values));
  }
}

std::size_t LossTable::segment(double current, const std::vector<double>& i) {
  std::size_t right = 1;
  while (right + 1 < i.size() && i[right] <= current) ++right;
  return right;
}

double LossTable::onSegment(double current, std::size_t right, const std::vector<double>& i, const std::vector<double>& y) {
  const std::size_t left = right - 1;
  const double w = (current - i[left]) / (i[right] - i[left]);
  return y[left] + w * (y[right] - y[left]);
}

// `segmentOf(curve, i)` gives the right end of the segment of curve `curve` holding current i.
template <typename Segment>
double LossTable::interpolate(double temperature, double current, Segment&& segmentOf) const {
  const double i = nonNegativeCurrents_ ? std::fabs(current) : current;
  std::size_t upper = 0;
  while (upper + 1 < temperatures_.size() && temperature > temperatures_[upper]) ++upper;
  const double high = onSegment(i, segmentOf(upper, i), currents_[upper], values_[upper]);
  if (upper == 0) return high;
  const std::size_t lower = upper - 1;
  const double low = onSegment(i, segmentOf(lower, i), currents_[lower], values_[lower]);
  const double w = (temperature - temperatures_[lower]) / (temperatures_[upper] - temperatures_[lower]);
  return low + w * (high - low);
}

double LossTable::lookup(double temperature, double current) const {
  return interpolate(temperature, current, [this](std::size_t curve, double i) { return segment(i, currents_[curve]); });
}

double LossTable::lookup(double temperature, double current, Cursor& cursor) const {
  return interpolate(temperature, current, [&](std::size_t curve, double i) {
    // A curve of three points has its segment after one comparison: the check would cost more.
    if (currents_[curve].size() <= 3) return segment(i, currents_[curve]);
    std::size_t& right = cursor.right_[curve];
    if (!isSegment(right, i, currents_[curve])) right = segment(i, currents_[curve]);
    return right;
  });
}

}  // namespace pesim

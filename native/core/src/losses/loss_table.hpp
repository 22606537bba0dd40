// Measured semiconductor loss curves as a lookup table in junction temperature and current
// (GeckoCIRCUITS: DetailedLossLookupTable). Each curve gives y(i) at one temperature; a lookup
// interpolates linearly in current on the curves of the two temperatures around T and then linearly
// in temperature between them.
#pragma once

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "pesim/netlist.hpp"

namespace pesim {

class LossTable {
 public:
  // `curves` sorted by rising T, each with rising currents. Switching curves (perVolt) store
  // y / uRef, the energy per volt of blocking voltage. Throws pesim::Error naming `owner` and
  // `field` (e.g. "lossModels.igbt.turnOn") when the curves are not a valid table.
  LossTable(const std::vector<LossCurve>& curves, bool perVolt, const std::string& owner, const std::string& field);

  // y at temperature T [°C] and current i [A]. In current, linear between the two measured
  // points around i and the first or last segment's line beyond them (findLossValueOnCurve); a
  // table measured at non-negative currents only is looked up at |i|. In temperature: below the
  // lowest curve that curve's value; above the highest, the line through the two highest
  // (getInterpolatedYValue / getInterpolatedXValue).
  double lookup(double temperature, double current) const;

  // Where the last lookups of one caller ended on each curve: a device's current moves little from
  // step to step, so its segment is usually the one found before and is checked instead of
  // searched. The same segment, so the same value, as the search from the start.
  class Cursor {
   public:
    Cursor() = default;  // for no table (a device without a detailed model)
    explicit Cursor(const LossTable& table) : right_(table.temperatures_.size(), 1) {}

   private:
    friend class LossTable;
    std::vector<std::size_t> right_;  // per curve: the right end of the last segment
  };
  // lookup() with the segments searched from `cursor` (made for this table), which it updates.
  // Runs after every step for every device with a detailed model: inline, so that the step's loss
  // update makes no call (the same operations in the same order as lookup()).
  double lookup(double temperature, double current, Cursor& cursor) const {
    return interpolate(temperature, current, [&](std::size_t curve, double i) {
      const std::vector<double>& currents = currents_[curve];
      // A curve of three points has its segment after one comparison: the check would cost more.
      if (currents.size() <= 3) return segment(i, currents);
      std::size_t& right = cursor.right_[curve];
      if (!isSegment(right, i, currents)) right = segment(i, currents);
      return right;
    });
  }

 private:
  // The right end of the segment of curve i holding `current`: the first point from the second on
  // above it (or the last point), as found by the scan from the start.
  static std::size_t segment(double current, const std::vector<double>& i) {
    std::size_t right = 1;
    while (right + 1 < i.size() && i[right] <= current) ++right;
    return right;
  }
  // Whether `right` is that point: the points before it are not above `current` (the currents
  // rise, so the one before it decides) and it is above it or the last.
  static bool isSegment(std::size_t right, double current, const std::vector<double>& i) {
    return (right == 1 || i[right - 1] <= current) && (right + 1 == i.size() || !(i[right] <= current));
  }
  static double onSegment(double current, std::size_t right, const std::vector<double>& i, const std::vector<double>& y) {
    const std::size_t left = right - 1;
    const double w = (current - i[left]) / (i[right] - i[left]);
    return y[left] + w * (y[right] - y[left]);
  }
  // `segmentOf(curve, i)` gives the right end of the segment of curve `curve` holding current i.
  template <typename Segment>
  double interpolate(double temperature, double current, Segment&& segmentOf) const {
    const double i = nonNegativeCurrents_ ? std::fabs(current) : current;
    // One curve (a table measured at one temperature): its value, as the search below gives it.
    if (singleCurve_) return onSegment(i, segmentOf(0, i), currents_[0], values_[0]);
    std::size_t upper = 0;
    while (upper + 1 < temperatures_.size() && temperature > temperatures_[upper]) ++upper;
    const double high = onSegment(i, segmentOf(upper, i), currents_[upper], values_[upper]);
    if (upper == 0) return high;
    const std::size_t lower = upper - 1;
    const double low = onSegment(i, segmentOf(lower, i), currents_[lower], values_[lower]);
    const double w = (temperature - temperatures_[lower]) / (temperatures_[upper] - temperatures_[lower]);
    return low + w * (high - low);
  }

  std::vector<double> temperatures_;
  std::vector<std::vector<double>> currents_;
  std::vector<std::vector<double>> values_;
  bool nonNegativeCurrents_ = true;
  bool singleCurve_ = false;
};

}  // namespace pesim

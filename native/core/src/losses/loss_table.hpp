// Measured semiconductor loss curves as a lookup table in junction temperature and current
// (GeckoCIRCUITS: DetailedLossLookupTable). Each curve gives y(i) at one temperature; a lookup
// interpolates linearly in current on the curves of the two temperatures around T and then linearly
// in temperature between them.
#pragma once

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
  double lookup(double temperature, double current, Cursor& cursor) const;

 private:
  // The right end of the segment of curve i holding `current`: the first point from the second on
  // above it (or the last point), as found by the scan from the start.
  static std::size_t segment(double current, const std::vector<double>& i);
  // Whether `right` is that point: the points before it are not above `current` (the currents
  // rise, so the one before it decides) and it is above it or the last.
  static bool isSegment(std::size_t right, double current, const std::vector<double>& i) {
    return (right == 1 || i[right - 1] <= current) && (right + 1 == i.size() || !(i[right] <= current));
  }
  static double onSegment(double current, std::size_t right, const std::vector<double>& i, const std::vector<double>& y);
  template <typename Segment>
  double interpolate(double temperature, double current, Segment&& segmentOf) const;

  std::vector<double> temperatures_;
  std::vector<std::vector<double>> currents_;
  std::vector<std::vector<double>> values_;
  bool nonNegativeCurrents_ = true;
};

}  // namespace pesim

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

 private:
  static double onCurve(double current, const std::vector<double>& i, const std::vector<double>& y);

  std::vector<double> temperatures_;
  std::vector<std::vector<double>> currents_;
  std::vector<std::vector<double>> values_;
  bool nonNegativeCurrents_ = true;
};

}  // namespace pesim

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
  singleCurve_ = temperatures_.size() == 1;
}

double LossTable::lookup(double temperature, double current) const {
  return interpolate(temperature, current, [this](std::size_t curve, double i) { return segment(i, currents_[curve]); });
}

}  // namespace pesim

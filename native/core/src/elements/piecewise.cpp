// Construction and lookup of piecewise-linear characteristics (see piecewise.hpp).
#include "elements/piecewise.hpp"

#include <algorithm>
#include <cmath>

#include "pesim/errors.hpp"

namespace pesim {

namespace {

// Mean of y over [x1, x2] when y is interpolated linearly, or linearly in log10(y).
double segmentMean(double y1, double y2, bool logarithmic) {
  if (!logarithmic || y1 == y2) return 0.5 * (y1 + y2);
  return (y2 - y1) / std::log(y2 / y1);
}

// y at fraction f of an interval, interpolated as GeckoCIRCUITS does (linearly, or linearly in log y).
double interpolated(double y1, double y2, double f, bool logarithmic) {
  if (f <= 0.0) return y1;
  if (f >= 1.0) return y2;
  return logarithmic ? y1 * std::pow(y2 / y1, f) : y1 + (y2 - y1) * f;
}

// Parts per table interval: up to 16, fewer for long tables so that both halves' segments stay
// within the element's state range (kMaxSegments).
constexpr std::size_t kMaxSegments = 200;
constexpr std::size_t kMaxParts = 16;
std::size_t subdivisions(std::size_t points) {
  const std::size_t intervals = points - 1;
  const std::size_t halfBudget = (kMaxSegments + 1) / 2 - 2;  // minus the end segments
  return std::max<std::size_t>(1, std::min(kMaxParts, halfBudget / intervals));
}

}  // namespace

PiecewiseLinear::PiecewiseLinear(const std::string& owner, const std::vector<double>& x,
                                 const std::vector<double>& y, bool logarithmic) {
  auto invalid = [&](const std::string& what) {
    throw Error(ErrorCode::ParameterOutOfRange, owner + ": nonlinear characteristic: " + what, owner);
  };
  if (x.size() < 2 || x.size() != y.size()) invalid("needs at least two points and as many x as y values");
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i]) || x[i] < 0.0) invalid("x values must be finite and at least 0");
    if (!std::isfinite(y[i]) || y[i] <= 0.0) invalid("y values must be finite and greater than 0");
    if (i > 0 && x[i] <= x[i - 1]) invalid("x values must be strictly ascending");
  }
  // Positive half: segment j starts at starts[j] (the first at 0) with the given slope; q at its
  // start is integral[j].
  std::vector<double> starts{0.0}, halfSlopes, integral{0.0};
  if (x.front() > 0.0) {
    halfSlopes.push_back(y.front());
    starts.push_back(x.front());
    integral.push_back(y.front() * x.front());
  }
  // Each table interval is split into equal parts, so that the piecewise-linear integral follows
  // the curved one (quadratic for a linearly interpolated L) closely: with the interval's mean alone,
  // an L falling from 0.5 to 0.15 mH over one interval would act as 0.325 mH throughout it.
  const std::size_t parts = subdivisions(x.size());
  for (std::size_t i = 1; i < x.size(); ++i) {
    for (std::size_t k = 1; k <= parts; ++k) {
      const double f0 = static_cast<double>(k - 1) / static_cast<double>(parts);
      const double f1 = static_cast<double>(k) / static_cast<double>(parts);
      const double x0 = k == 1 ? x[i - 1] : x[i - 1] + (x[i] - x[i - 1]) * f0;
      const double x1 = k == parts ? x[i] : x[i - 1] + (x[i] - x[i - 1]) * f1;
      const double mean = segmentMean(interpolated(y[i - 1], y[i], f0, logarithmic),
                                      interpolated(y[i - 1], y[i], f1, logarithmic), logarithmic);
      halfSlopes.push_back(mean);
      starts.push_back(x1);
      integral.push_back(integral.back() + mean * (x1 - x0));
    }
  }
  halfSlopes.push_back(y.back());
  const std::size_t m = halfSlopes.size();
  std::vector<double> halfOffsets(m);
  for (std::size_t j = 0; j < m; ++j) halfOffsets[j] = integral[j] - halfSlopes[j] * starts[j];
  // Mirror to the negative half (odd function); the segment through 0 is shared.
  for (std::size_t j = m; j-- > 1;) {
    breaks_.push_back(-starts[j]);
    slopes_.push_back(halfSlopes[j]);
    offsets_.push_back(-halfOffsets[j]);
  }
  slopes_.push_back(halfSlopes[0]);
  offsets_.push_back(0.0);
  for (std::size_t j = 1; j < m; ++j) {
    breaks_.push_back(starts[j]);
    slopes_.push_back(halfSlopes[j]);
    offsets_.push_back(halfOffsets[j]);
  }
}

int PiecewiseLinear::segmentOf(double x) const {
  return static_cast<int>(std::lower_bound(breaks_.begin(), breaks_.end(), x) - breaks_.begin());
}

double PiecewiseLinear::distanceOutside(int segment, double x) const {
  const auto s = static_cast<std::size_t>(segment);
  if (s > 0 && x < breaks_[s - 1]) return breaks_[s - 1] - x;
  if (s < breaks_.size() && x > breaks_[s]) return x - breaks_[s];
  return 0.0;
}

}  // namespace pesim

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
  for (std::size_t i = 1; i < x.size(); ++i) {
    const double mean = segmentMean(y[i - 1], y[i], logarithmic);
    halfSlopes.push_back(mean);
    starts.push_back(x[i]);
    integral.push_back(integral.back() + mean * (x[i] - x[i - 1]));
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

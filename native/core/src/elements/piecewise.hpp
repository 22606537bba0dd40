// A piecewise-linear characteristic y = slope·x + offset, odd in x, built from GeckoCIRCUITS'
// table of a differential quantity over |x| (nonlinX[] / nonlinY[]: C(|u|) of a capacitor, L(|i|)
// of an inductor; AbstractNonLinearCircuitComponent). GeckoCIRCUITS interpolates that table,
// logarithmically in y for C (getActualValueLOGFromLinearizedCharacteristic) and linearly for L
// (getActualValueLINFromLinearizedCharacteristic), and holds the end values outside it. Here the
// integral of the table — the charge q(u) or the flux ψ(i) — is made piecewise linear between the
// table points, exact at every point: the slope of a segment is the mean of the interpolated
// quantity over it (arithmetic mean for linear, logarithmic mean (y2 − y1)/ln(y2/y1) for
// logarithmic interpolation), and the end values beyond the table. Each segment is a linear
// state of the element (state_device.hpp).
#pragma once

#include <string>
#include <vector>

namespace pesim {

class PiecewiseLinear {
 public:
  // x: ascending, ≥ 0, at least two points; y: positive. Throws pesim::Error naming `owner`.
  PiecewiseLinear(const std::string& owner, const std::vector<double>& x, const std::vector<double>& y,
                  bool logarithmic);

  int segments() const { return static_cast<int>(slopes_.size()); }
  // Segment containing x (ties at a breakpoint go to the lower segment).
  int segmentOf(double x) const;
  double slope(int segment) const { return slopes_[static_cast<std::size_t>(segment)]; }
  double offset(int segment) const { return offsets_[static_cast<std::size_t>(segment)]; }
  double value(int segment, double x) const { return slope(segment) * x + offset(segment); }
  // How far x lies outside the segment (0 inside).
  double distanceOutside(int segment, double x) const;

 private:
  std::vector<double> breaks_;   // ascending; segment s spans [breaks_[s−1], breaks_[s]]
  std::vector<double> slopes_;   // breaks_.size() + 1 segments
  std::vector<double> offsets_;
};

}  // namespace pesim

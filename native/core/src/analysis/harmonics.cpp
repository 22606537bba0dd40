// Harmonic window: DFT over whole fundamental periods (see harmonics.hpp).
#include "analysis/harmonics.hpp"

#include <algorithm>
#include <cmath>

#include "analysis/fft.hpp"

namespace pesim::analysis::detail {

HarmonicWindow::HarmonicWindow(const double* data, std::size_t size, double sampleRate,
                               std::optional<double> baseFrequency) {
  if (baseFrequency) {
    const double samplesPerPeriod = sampleRate / *baseFrequency;
    // The tolerance keeps a record of exactly P periods from losing one to rounding.
    const double whole = std::floor(static_cast<double>(size) / samplesPerPeriod + 1e-9);
    periods_ = static_cast<std::size_t>(std::max(1.0, whole));
    samples_ = std::min<std::size_t>(size, static_cast<std::size_t>(std::llround(static_cast<double>(periods_) * samplesPerPeriod)));
    samples_ = std::max<std::size_t>(samples_, 1);
    baseFrequency_ = *baseFrequency;
    bins_ = realDft(data, samples_);
    const double binStep = 2.0 * 3.14159265358979323846 * static_cast<double>(periods_) / static_cast<double>(samples_);
    const double exactStep = 2.0 * 3.14159265358979323846 * *baseFrequency / sampleRate;
    drift_ = (exactStep - binStep) * static_cast<double>(samples_ - 1) / 2.0;
    return;
  }
  samples_ = size;
  bins_ = realDft(data, size);
  double strongest = 0.0;
  for (std::size_t m = 1; m < bins_.size(); ++m) {
    const double power = std::norm(bins_[m]);
    if (power > strongest) {
      strongest = power;
      periods_ = m;
    }
  }
  if (periods_ == 0 && bins_.size() > 1) periods_ = 1;  // no energy outside DC: bin 1 by convention
  baseFrequency_ = static_cast<double>(periods_) * sampleRate / static_cast<double>(size);
}

double HarmonicWindow::dc() const { return bins_[0].real() / static_cast<double>(samples_); }

std::size_t HarmonicWindow::highestHarmonic() const {
  return periods_ == 0 ? 0 : (samples_ / 2) / periods_;
}

double HarmonicWindow::amplitude(std::size_t k) const {
  if (k == 0 || k > highestHarmonic()) return 0.0;
  const std::size_t bin = k * periods_;
  const bool nyquist = 2 * bin == samples_;
  return (nyquist ? 1.0 : 2.0) * std::abs(bins_[bin]) / static_cast<double>(samples_);
}

double HarmonicWindow::phaseDegrees(std::size_t k) const {
  if (k == 0 || k > highestHarmonic()) return 0.0;
  const std::complex<double> x = bins_[k * periods_];
  if (x == std::complex<double>(0.0, 0.0)) return 0.0;
  // The window holds round(P·L) samples, so bin kP sits slightly off k·f0 when L is not a whole
  // number; a tone at exactly k·f0 then shows a phase offset of k·δ·(M−1)/2 in the DFT, which is
  // removed here (δ: the angular step mismatch per sample).
  constexpr double pi = 3.14159265358979323846;
  const double radians = std::atan2(x.imag(), x.real()) - static_cast<double>(k) * drift_;
  double degrees = std::remainder(radians, 2.0 * pi) * 180.0 / pi;
  if (degrees <= -180.0) degrees += 360.0;
  return degrees;
}

double HarmonicWindow::distortion() const {
  double sum = 0.0;
  const std::size_t highest = highestHarmonic();
  for (std::size_t k = 2; k <= highest; ++k) {
    const double a = amplitude(k);
    sum += a * a;
  }
  return std::sqrt(sum);
}

}  // namespace pesim::analysis::detail

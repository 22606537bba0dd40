// Public analysis functions (pesim/analysis.hpp): validation, time-domain measures in one pass,
// and the harmonic measures from a HarmonicWindow.
#include <algorithm>
#include <cmath>

#include "analysis/fft.hpp"
#include "analysis/harmonics.hpp"
#include "analysis/validate.hpp"
#include "pesim/analysis.hpp"

namespace pesim::analysis {

namespace {

// Neumaier-compensated sum: 10 M samples keep ~1e-15 relative accuracy.
struct CompensatedSum {
  double sum = 0.0;
  double carry = 0.0;
  void add(double v) {
    const double t = sum + v;
    carry += std::abs(sum) >= std::abs(v) ? (sum - t) + v : (v - t) + sum;
    sum = t;
  }
  double value() const { return sum + carry; }
};

// Largest magnitude of the samples: sums run over x / peak so that squares and sums of finite input
// (1e200, ±1e308) neither overflow nor underflow; the result is scaled back once.
double peakMagnitude(const double* data, std::size_t size) {
  double peak = 0.0;
  for (std::size_t i = 0; i < size; ++i) peak = std::max(peak, std::abs(data[i]));
  return peak;
}

}  // namespace

Characteristics characteristics(const double* data, std::size_t size, double sampleRate,
                                std::optional<double> baseFrequency) {
  detail::requireSamples(data, size);
  detail::requireSampleRate(sampleRate);
  if (baseFrequency) detail::requireBaseFrequency(*baseFrequency, sampleRate, size);

  const double peak = peakMagnitude(data, size);
  const double unit = peak > 0.0 ? peak : 1.0;
  CompensatedSum sum, squares, magnitudes;
  double lo = data[0], hi = data[0];
  for (std::size_t i = 0; i < size; ++i) {
    const double v = data[i];
    const double scaled = v / unit;
    sum.add(scaled);
    squares.add(scaled * scaled);
    magnitudes.add(std::abs(scaled));
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  const double n = static_cast<double>(size);
  Characteristics out;
  out.sampleCount = size;
  out.average = sum.value() / n * unit;
  out.rms = std::sqrt(std::max(0.0, squares.value() / n)) * unit;
  out.min = lo;
  out.max = hi;
  // hi − lo of finite samples exceeds the double range only when it truly is larger (1e308 − (−1e308)).
  out.peakToPeak = hi - lo;
  // An average at rounding level of the signal (a sampled sine over whole periods) counts as 0.
  const double scale = std::max(std::abs(lo), std::abs(hi));
  out.ripple = std::abs(out.average) <= 1e-12 * scale ? 0.0 : (hi / unit - lo / unit) / std::abs(out.average / unit);
  const double meanMagnitude = magnitudes.value() / n;  // in units of `unit`
  out.shapeFactor = meanMagnitude == 0.0 ? 0.0 : std::sqrt(std::max(0.0, squares.value() / n)) / meanMagnitude;

  const detail::HarmonicWindow window(data, size, sampleRate, baseFrequency);
  const double fundamental = window.amplitude(1);
  const double distortion = window.distortion();
  const double total = std::hypot(fundamental, distortion);
  // A signal without an alternating part (a constant: its non-DC bins hold only rounding, about
  // 1e-16 of the signal) has no harmonic distortion; ratios of rounding noise would be arbitrary.
  const bool alternating = total > 1e-12 * peak;
  out.thd = !alternating || fundamental == 0.0 ? 0.0 : distortion / fundamental;
  out.klirr = !alternating || total == 0.0 ? 0.0 : distortion / total;
  out.baseFrequency = window.baseFrequency();
  return out;
}

FourierResult fourier(const double* data, std::size_t size, double sampleRate, std::optional<double> baseFrequency,
                      int harmonics) {
  detail::requireSamples(data, size);
  detail::requireSampleRate(sampleRate);
  detail::requireHarmonics(harmonics);
  if (baseFrequency) detail::requireBaseFrequency(*baseFrequency, sampleRate, size);

  const detail::HarmonicWindow window(data, size, sampleRate, baseFrequency);
  FourierResult out;
  out.baseFrequency = window.baseFrequency();
  out.harmonics = harmonics;
  out.dcComponent = window.dc();
  out.periods = window.periods();
  out.windowSamples = window.samples();
  out.amplitudes.resize(static_cast<std::size_t>(harmonics));
  out.phasesDegrees.resize(static_cast<std::size_t>(harmonics));
  for (std::size_t k = 1; k <= static_cast<std::size_t>(harmonics); ++k) {
    out.amplitudes[k - 1] = window.amplitude(k);
    out.phasesDegrees[k - 1] = window.phaseDegrees(k);
  }
  out.fundamentalAmplitude = out.amplitudes[0];
  out.fundamentalPhaseDegrees = out.phasesDegrees[0];
  return out;
}

double rms(const double* data, std::size_t size) {
  detail::requireSamples(data, size);
  const double peak = peakMagnitude(data, size);
  if (peak == 0.0) return 0.0;
  CompensatedSum squares;
  for (std::size_t i = 0; i < size; ++i) {
    const double scaled = data[i] / peak;
    squares.add(scaled * scaled);
  }
  return std::sqrt(std::max(0.0, squares.value() / static_cast<double>(size))) * peak;
}

std::vector<std::complex<double>> spectrum(const double* data, std::size_t size) {
  detail::requireSamples(data, size);
  return detail::realDft(data, size);
}

}  // namespace pesim::analysis

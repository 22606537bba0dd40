// CISPR 16 test receiver on a recorded signal (see pesim/cispr16.hpp). Follows GeckoCIRCUITS
// (Cispr16Fft: record and window; QuasiPeakCalculator: band filter and detectors; TestReceiverWindow:
// frequency list in "interval" mode):
//  1. the last N samples, N the smallest power of two ≥ (samples − 1)/2; f0 = 1/(N·dt) is the bin
//     spacing; values divided by √2 so that a sine's level is its RMS value;
//  2. optional Blackman window w(i) = 2.38·(0.42 − 0.5 cos(2πi/(N−1)) + 0.08 cos(4πi/(N−1)));
//  3. per analysed bin k: the spectrum kept within k ± s (s = ⌊150 Hz/f0⌋ in band A below 150 kHz,
//     ⌊8 kHz/f0⌋ above: the 200 Hz / 9 kHz CISPR bandwidths), full for |j| ≤ s/2 and tapering
//     linearly to 0 at |j| = s; back to the time domain and the window divided out;
//  4. peak = max |x| over samples [2N/5, 4N/5); average = π/2 · mean |x| over [N/5, 4N/5);
//     quasi-peak = the CISPR detector (charge τc, discharge τd: 1 ms / 160 ms in band B, 45 ms /
//     500 ms in band A) integrated by backward Euler over samples [N/4, 3N/4), averaged over the
//     second half, repeated from its last value until it settles, and scaled by 1/0.928 (band B)
//     or 1/0.626 (band A). As in GeckoCIRCUITS the detector step is 0.5/(f0·N) = dt/2.
#include "pesim/cispr16.hpp"

#include <cmath>
#include <complex>
#include <limits>
#include <string>

#include "analysis/fft.hpp"
#include "pesim/errors.hpp"

namespace pesim {

namespace {

using analysis::detail::Cx;
using analysis::detail::Pow2Fft;

constexpr double kPi = 3.14159265358979323846;
constexpr double kBandBLower = 150e3;  // Hz, start of CISPR band B
constexpr double kBlackmanNorm = 2.38;

double blackman(std::size_t i, std::size_t n) {
  const double x = 2.0 * kPi * static_cast<double>(i) / static_cast<double>(n - 1);
  return kBlackmanNorm * (0.42 - 0.5 * std::cos(x) + 0.08 * std::cos(2.0 * x));
}

double dbMicroVolt(double v) {
  return v > 0.0 ? 20.0 * std::log10(v / 1e-6) : std::numeric_limits<double>::quiet_NaN();
}

// One run of the quasi-peak detector from `start` over samples [N/4, 3N/4); returns the mean output
// over the second half. The first run (start 0) uses 0.2× the time constants to settle sooner.
double quasiPeakRun(const std::vector<double>& x, double start, double step, double tauC, double tauD) {
  const double scale = start == 0.0 ? 0.2 : 1.0;
  const double rcdt = scale * tauC / step;           // τc/Δt
  const double ratio = tauC / tauD;                  // R1/R2
  const double charge = 1.0 / (1.0 + rcdt + ratio);  // backward Euler with the charging branch
  const double discharge = 1.0 / (1.0 + step / (scale * tauD));
  const std::size_t n = x.size();
  double out = start, sum = 0.0;
  std::size_t count = 0;
  for (std::size_t i = n / 4; i < 3 * n / 4; ++i) {
    double next = (x[i] + out * rcdt) * charge;
    if (x[i] < next) next = out * discharge;  // diode blocks: discharge only
    if (i > n / 2) {
      sum += next;
      ++count;
    }
    out = next;
  }
  return sum / static_cast<double>(count);
}

double quasiPeak(const std::vector<double>& x, double step, bool bandA) {
  const double tauC = bandA ? 45e-3 : 1e-3;
  const double tauD = bandA ? 0.5 : 160e-3;
  const double norm = bandA ? 1.0 / 0.626 : 1.0 / 0.928;
  const double runSpan = step * static_cast<double>(x.size()) / 2.0;
  const int minimumRuns = static_cast<int>(8.0 * tauC / runSpan);
  double value = quasiPeakRun(x, 0.0, step, tauC, tauD);
  double previous = 0.0;
  for (int runs = 1; std::abs((previous - value) / (previous + value)) > 0.1 || runs < minimumRuns; ++runs) {
    previous = value;
    value = quasiPeakRun(x, value, step, tauC, tauD);
    if (!(value > 0.0)) break;  // a silent band: nothing to converge to
  }
  return value * norm;
}

void checkSettings(const Cispr16Settings& s, const std::string& block) {
  auto bad = [&](const std::string& what) {
    throw Error(ErrorCode::ParameterOutOfRange, block + ": CISPR16 " + what, block);
  };
  if (!(s.minFrequency > 0.0) || !std::isfinite(s.minFrequency)) bad("minFrequency must be a positive number of Hz");
  if (!(s.maxFrequency >= s.minFrequency) || !std::isfinite(s.maxFrequency)) bad("maxFrequency must be ≥ minFrequency");
  if (!(s.interval > 0.0) || !std::isfinite(s.interval)) bad("interval must be a positive number of Hz");
}

}  // namespace

Cispr16Spectrum cispr16Receiver(const std::vector<double>& samples, double dt, const Cispr16Settings& settings,
                                const std::string& block, const std::function<void()>& poll) {
  checkSettings(settings, block);
  if (samples.size() < 8 || !(dt > 0.0)) {
    throw Error(ErrorCode::AnalysisInvalid, block + ": CISPR16 needs at least 8 recorded samples at a positive step",
                block);
  }
  std::size_t n = 1;
  while (n < (samples.size() - 1) / 2) n *= 2;
  const double f0 = 1.0 / (static_cast<double>(n) * dt);
  std::vector<double> window(n, 1.0);
  if (settings.blackman) {
    for (std::size_t i = 0; i < n; ++i) window[i] = blackman(i, n);
  }
  const Pow2Fft fft(n);
  std::vector<Cx> spectrum(n);
  const std::size_t first = samples.size() - n;
  for (std::size_t i = 0; i < n; ++i) spectrum[i] = {samples[first + i] / std::sqrt(2.0) * window[i], 0.0};
  fft.forwardToBitReversed(spectrum.data());  // spectrum[bitReverse(k)] = X[k]

  Cispr16Spectrum result;
  result.resolution = f0;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto start = static_cast<long>(settings.minFrequency / f0);
  const auto stop = static_cast<long>(settings.maxFrequency / f0);
  const auto stride = std::max(1L, static_cast<long>(settings.interval / f0));
  const double limit = f0 * static_cast<double>(n) / 2.5;  // GeckoCIRCUITS' highest frequency
  std::vector<Cx> band(n);
  std::vector<double> x(n);
  for (long k = std::max(1L, start); k <= stop; k += stride) {
    const double frequency = static_cast<double>(k) * f0;
    if (frequency > limit) break;
    if (poll) poll();
    const bool bandA = frequency < kBandBLower;
    const long span = std::max(1L, static_cast<long>((bandA ? 150.0 : 8e3) / f0));
    for (auto& c : band) c = {0.0, 0.0};
    for (long j = -span + 1; j < span; ++j) {
      const long bin = k + j;
      if (bin <= 0 || bin >= static_cast<long>(n / 2)) continue;
      const double shape = std::abs(j) <= span / 2 ? 1.0 : 2.0 - 2.0 * static_cast<double>(std::abs(j)) / static_cast<double>(span);
      const auto pos = static_cast<std::size_t>(bin);
      const Cx v = spectrum[fft.bitReverse(pos)];
      band[fft.bitReverse(pos)] = {v.re * shape, v.im * shape};
      band[fft.bitReverse(n - pos)] = {v.re * shape, -v.im * shape};  // conjugate: a real signal
    }
    fft.inverseFromBitReversed(band.data());
    for (std::size_t i = 0; i < n; ++i) x[i] = band[i].re / static_cast<double>(n) / window[i];

    double peak = 0.0, mean = 0.0;
    for (std::size_t i = 2 * n / 5; i < 4 * n / 5; ++i) peak = std::max(peak, std::abs(x[i]));
    for (std::size_t i = n / 5; i < 4 * n / 5; ++i) mean += std::abs(x[i]);
    mean /= static_cast<double>(4 * n / 5 - n / 5);
    result.frequency.push_back(frequency);
    result.peak.push_back(settings.peak ? dbMicroVolt(peak) : nan);
    result.average.push_back(settings.average ? dbMicroVolt(kPi / 2.0 * mean) : nan);
    result.quasiPeak.push_back(settings.quasiPeak ? dbMicroVolt(quasiPeak(x, 0.5 * dt, bandA)) : nan);
  }
  return result;
}

}  // namespace pesim

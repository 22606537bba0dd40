// Signal analysis: every FFT path (power of two, mixed radix, Bluestein even/odd) against a naive
// DFT, and the measures against closed forms (sine, square wave THD, known harmonics, DC offset).
#include <cmath>
#include <complex>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "analysis/fft.hpp"
#include "harness.hpp"
#include "pesim/analysis.hpp"
#include "pesim/errors.hpp"
#include "pesim/spectrum.hpp"

using namespace pesim;
using namespace pesim::test;

namespace {

constexpr double kPi = 3.14159265358979323846;

std::vector<double> randomSignal(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> x(n);
  for (auto& v : x) v = u(rng);
  return x;
}

double worstDftError(std::size_t n) {
  const std::vector<double> x = randomSignal(n, static_cast<unsigned>(n));
  const auto fast = analysis::spectrum(x.data(), n);
  double worst = 0.0;
  for (std::size_t k = 0; k <= n / 2; ++k) {
    std::complex<double> sum = 0.0;
    for (std::size_t j = 0; j < n; ++j) {
      const double angle = -2.0 * kPi * static_cast<double>((j * k) % n) / static_cast<double>(n);
      sum += x[j] * std::complex<double>(std::cos(angle), std::sin(angle));
    }
    worst = std::max(worst, std::abs(sum - fast[k]) / std::sqrt(static_cast<double>(n)));
  }
  return worst;
}

// Naive DFT bin k of real x, exact integer reduction of j·k mod n.
std::complex<double> naiveBin(const std::vector<double>& x, std::size_t k) {
  const std::size_t n = x.size();
  std::complex<double> sum = 0.0;
  for (std::size_t j = 0; j < n; ++j) {
    const double angle = -2.0 * kPi * static_cast<double>((j * k) % n) / static_cast<double>(n);
    sum += x[j] * std::complex<double>(std::cos(angle), std::sin(angle));
  }
  return sum;
}

std::string invalidField(const std::function<void()>& call) {
  try {
    call();
  } catch (const InputError& e) {
    return e.code() == ErrorCode::AnalysisInvalid ? e.field() : "wrong code";
  }
  return "no error";
}

}  // namespace

TEST(fft_power_of_two_matches_naive_dft) {
  for (std::size_t n : {1u, 2u, 4u, 8u, 32u, 512u, 2048u}) CHECK_NEAR(worstDftError(n), 0.0, 1e-12);
}

TEST(fft_mixed_radix_matches_naive_dft) {
  for (std::size_t n : {3u, 6u, 12u, 1000u, 1470u}) CHECK_NEAR(worstDftError(n), 0.0, 1e-12);
}

TEST(fft_bluestein_matches_naive_dft) {
  for (std::size_t n : {67u, 1009u, 2018u, 4 * 1031u}) CHECK_NEAR(worstDftError(n), 0.0, 1e-11);
}

// The real-input fast path (bit-reversed gather, radix-4 DIT, split), AVX2 and scalar kernels, one
// and two threads, against a naive DFT: every bin up to 2^12, a spread of bins at 2^16 and 2^18
// (beyond the cache-sized leaf, so the large stages and the two-thread split run).
TEST(real_fft_fast_path_matches_naive_dft) {
  for (unsigned bits : {1u, 2u, 3u, 4u, 5u, 7u, 10u, 12u, 16u, 18u}) {
    const std::size_t n = std::size_t{1} << bits;
    const std::vector<double> x = randomSignal(n, 100 + bits);
    std::vector<std::size_t> bins;
    if (bits <= 12) {
      for (std::size_t k = 0; k <= n / 2; ++k) bins.push_back(k);
    } else {
      for (std::size_t k : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{3}, n / 8 + 1, n / 4 - 1, n / 4,
                            n / 4 + 5, n / 2 - 7, n / 2 - 1, n / 2}) bins.push_back(k);
      for (std::size_t k = 11; k < n / 2; k += n / 64 + 3) bins.push_back(k);
    }
    std::vector<std::complex<double>> expected;
    for (std::size_t k : bins) expected.push_back(naiveBin(x, k));
    for (bool simd : {false, true}) {
      const analysis::detail::RealPow2Fft plan(n, simd);
      for (unsigned threads : {1u, 2u}) {
        std::vector<std::complex<double>> out(n / 2 + 1);
        plan.forward(x.data(), out.data(), threads);
        double worst = 0.0;
        for (std::size_t i = 0; i < bins.size(); ++i) worst = std::max(worst, std::abs(out[bins[i]] - expected[i]));
        CHECK_NEAR(worst / std::sqrt(static_cast<double>(n)), 0.0, 1e-13);
      }
    }
  }
}

TEST(unit_roots_are_correctly_rounded_on_the_whole_circle) {
  const analysis::detail::UnitRoots roots(1 << 12);
  double worst = 0.0;
  for (std::size_t k = 0; k < (1 << 12); k += 7) {
    const double angle = -2.0 * kPi * static_cast<double>(k) / 4096.0;
    const auto r = roots.at(k);
    worst = std::max(worst, std::abs(std::complex<double>(r.re, r.im) - std::polar(1.0, angle)));
  }
  CHECK_NEAR(worst, 0.0, 1e-15);
}

TEST(spectrum_plans_are_reused_bounded_and_agree_with_spectrum) {
  analysis::SpectrumPlans plans(2, std::size_t{1} << 30);
  for (std::size_t n : {std::size_t{4096}, std::size_t{1000}, std::size_t{4096}, std::size_t{256}, std::size_t{1} << 15,
                        std::size_t{1009}, std::size_t{1}}) {
    const std::vector<double> x = randomSignal(n, static_cast<unsigned>(n) + 5);
    std::vector<std::complex<double>> out(n / 2 + 1);
    analysis::spectrumInto(x.data(), n, out.data(), plans);
    const auto reference = analysis::spectrum(x.data(), n);
    double worst = 0.0;
    for (std::size_t k = 0; k <= n / 2; ++k) worst = std::max(worst, std::abs(out[k] - reference[k]));
    CHECK_NEAR(worst, 0.0, 0.0);  // same plan kind, same arithmetic: identical bits
    CHECK(plans.cachedPlans() <= 2);
  }
  CHECK(plans.cachedPlans() == 2);  // 256 and 2^15, the two most recent power-of-two sizes
  analysis::SpectrumPlans tight(4, 1);  // byte budget below one plan: only the newest is kept
  const std::vector<double> x = randomSignal(64, 1);
  std::vector<std::complex<double>> out(33);
  analysis::spectrumInto(x.data(), 64, out.data(), tight);
  analysis::spectrumInto(x.data(), 32, out.data(), tight);
  CHECK(tight.cachedPlans() == 1);
  CHECK(tight.cachedBytes() > 0);
  const std::vector<double> bad{1.0, std::nan("")};
  CHECK(invalidField([&] { analysis::spectrumInto(bad.data(), 2, out.data(), plans); }) == "data[1]");
}

TEST(pow2_inverse_undoes_forward) {
  analysis::detail::Pow2Fft fft(256);
  std::vector<analysis::detail::Cx> x(256), original;
  const auto r = randomSignal(512, 7);
  for (std::size_t i = 0; i < 256; ++i) x[i] = {r[2 * i], r[2 * i + 1]};
  original = x;
  fft.forwardToBitReversed(x.data());
  fft.inverseFromBitReversed(x.data());
  double worst = 0.0;
  for (std::size_t i = 0; i < 256; ++i) worst = std::max(worst, std::abs(x[i].re / 256 - original[i].re));
  CHECK_NEAR(worst, 0.0, 1e-14);
}

TEST(sine_characteristics) {
  // 3 V amplitude, 50 Hz, 10 kHz sampling, 10 whole periods: rms = 3/√2, mean|x| = 6/π.
  std::vector<double> x(2000);
  for (std::size_t j = 0; j < x.size(); ++j) x[j] = 3.0 * std::sin(2 * kPi * 50.0 * static_cast<double>(j) / 1e4);
  const auto c = analysis::characteristics(x.data(), x.size(), 1e4);
  CHECK_NEAR(c.rms, 3.0 / std::sqrt(2.0), 1e-12);
  CHECK_NEAR(c.average, 0.0, 1e-12);
  CHECK_NEAR(c.peakToPeak, 6.0, 1e-9);
  CHECK_NEAR(c.ripple, 0.0, 0.0);  // the average is 0 up to rounding
  CHECK_NEAR(c.thd, 0.0, 1e-12);
  CHECK_NEAR(c.baseFrequency, 50.0, 1e-12);
  CHECK_NEAR(c.shapeFactor, kPi / (2 * std::sqrt(2.0)), 1e-3);
}

TEST(square_wave_thd) {
  // ±1 square, L = 1000 samples per period: sampled harmonic amplitudes 4 / (L sin(πk/L)), odd k.
  const std::size_t period = 1000, periods = 8;
  std::vector<double> x(period * periods);
  for (std::size_t j = 0; j < x.size(); ++j) x[j] = (j % period) < period / 2 ? 1.0 : -1.0;
  double sum = 0.0;
  for (std::size_t k = 3; k < period / 2; k += 2) sum += std::pow(4.0 / (period * std::sin(kPi * k / period)), 2);
  const double a1 = 4.0 / (period * std::sin(kPi / period));
  const auto c = analysis::characteristics(x.data(), x.size(), 1e5, 100.0);
  CHECK_NEAR(c.thd, std::sqrt(sum) / a1, 1e-10);
  CHECK_NEAR(c.thd, std::sqrt(kPi * kPi / 8 - 1), 1e-4);
  CHECK_NEAR(c.klirr, std::sqrt(sum) / std::sqrt(sum + a1 * a1), 1e-10);
  CHECK_NEAR(c.shapeFactor, 1.0, 1e-12);
}

TEST(fourier_known_harmonics_with_phase_and_offset) {
  // x = 0.5 + 2 cos(ωt + 30°) + 0.3 cos(3ωt − 120°), f0 = 60 Hz, fs = 7 kHz (non-integer period),
  // 25.3 periods of data: the window is 25 periods.
  const double fs = 7000.0, f0 = 60.0;
  std::vector<double> x(static_cast<std::size_t>(25.3 * fs / f0));
  for (std::size_t j = 0; j < x.size(); ++j) {
    const double t = static_cast<double>(j) / fs;
    x[j] = 0.5 + 2.0 * std::cos(2 * kPi * f0 * t + kPi / 6) + 0.3 * std::cos(6 * kPi * f0 * t - 2 * kPi / 3);
  }
  const auto f = analysis::fourier(x.data(), x.size(), fs, f0, 5);
  CHECK(f.periods == 25);
  CHECK(f.windowSamples == static_cast<std::size_t>(std::llround(25 * fs / f0)));
  CHECK_NEAR(f.dcComponent, 0.5, 2e-3);
  CHECK_NEAR(f.fundamentalAmplitude, 2.0, 5e-3);
  CHECK_NEAR(f.fundamentalPhaseDegrees, 30.0, 0.2);
  CHECK_NEAR(f.amplitudes[2], 0.3, 5e-3);
  CHECK_NEAR(f.phasesDegrees[2], -120.0, 0.5);
  CHECK_NEAR(f.amplitudes[1], 0.0, 5e-3);
}

TEST(measures_of_huge_and_tiny_samples_stay_finite) {
  // Squares of 1e200 overflow and of 1e-200 underflow: the sums run on samples scaled by the peak.
  const std::vector<double> huge{1e200, 1e200};
  CHECK_NEAR(analysis::rms(huge.data(), 2) / 1e200, 1.0, 1e-15);
  const std::vector<double> tiny{3e-200, -4e-200};
  CHECK_NEAR(analysis::rms(tiny.data(), 2) / 1e-200, std::sqrt(12.5), 1e-14);
  const std::vector<double> extremes{1e308, -1e308, 1e308, -1e308};
  const auto c = analysis::characteristics(extremes.data(), extremes.size(), 4.0);
  CHECK_NEAR(c.rms / 1e308, 1.0, 1e-15);
  CHECK_NEAR(c.shapeFactor, 1.0, 1e-15);
  CHECK(c.average == 0.0);
  CHECK(std::isinf(c.peakToPeak));  // 2e308 is beyond the double range: the service answers 422
  const std::vector<double> zeros{0.0, 0.0};
  CHECK(analysis::rms(zeros.data(), 2) == 0.0);
}

TEST(rms_and_validation) {
  const std::vector<double> x{3.0, -4.0};
  CHECK_NEAR(analysis::rms(x.data(), 2), std::sqrt(12.5), 1e-15);
  const std::vector<double> bad{1.0, std::nan(""), 2.0};
  CHECK(invalidField([&] { analysis::rms(bad.data(), 3); }) == "data[1]");
  CHECK(invalidField([&] { analysis::rms(x.data(), 0); }) == "data");
  CHECK(invalidField([&] { analysis::characteristics(x.data(), 2, 0.0); }) == "sampleRate");
  CHECK(invalidField([&] { analysis::fourier(x.data(), 2, 10.0, 1.0, 0); }) == "harmonics");
  CHECK(invalidField([&] { analysis::fourier(x.data(), 2, 10.0, 6.0, 3); }) == "baseFrequency");  // > Nyquist
  CHECK(invalidField([&] { analysis::fourier(x.data(), 2, 10.0, 1.0, 3); }) == "baseFrequency");  // < 1 period
}

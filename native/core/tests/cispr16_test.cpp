// CISPR 16 test receiver (pesim/cispr16.hpp) against hand-computed levels: a sine of amplitude A
// inside band B reads 20·log10(A/√2 / 1 µV) dBµV on the peak and average detectors (the quasi-peak
// within its convergence tolerance), the frequency list follows the interval, bad settings fail.
#include <cmath>
#include <vector>

#include "harness.hpp"
#include "pesim/cispr16.hpp"
#include "pesim/errors.hpp"

using namespace pesim;

namespace {

constexpr double kPi = 3.14159265358979323846;

std::vector<double> sine(double amplitude, double frequency, double dt, std::size_t count) {
  std::vector<double> x(count);
  for (std::size_t i = 0; i < count; ++i) x[i] = amplitude * std::sin(2.0 * kPi * frequency * dt * static_cast<double>(i));
  return x;
}

}  // namespace

TEST(cispr16SineReadsItsRmsLevelOnEveryDetector) {
  const double dt = 1e-7;
  const std::size_t count = 2 * 65536 + 1;  // N = 65536 samples analysed, f0 = 1/(N·dt) ≈ 152.6 Hz
  const double f0 = 1.0 / (65536.0 * dt);
  const double frequency = 1311.0 * f0;     // ≈ 200 kHz, band B, on a bin
  Cispr16Settings settings;
  settings.minFrequency = frequency;
  settings.maxFrequency = frequency;
  settings.average = true;
  const double amplitude = 0.25;
  const auto result = cispr16Receiver(sine(amplitude, frequency, dt, count), dt, settings, "CISPR16.1");
  const double expected = 20.0 * std::log10(amplitude / std::sqrt(2.0) / 1e-6);  // 104.95 dBµV
  CHECK(result.frequency.size() == 1);
  CHECK_NEAR(result.frequency[0], frequency, 1e-6);
  CHECK_NEAR(result.peak[0], expected, 0.05);
  CHECK_NEAR(result.average[0], expected, 0.05);
  // The quasi-peak detector is iterated until two runs differ by less than 10 % (GeckoCIRCUITS
  // QuasiPeakCalculator), so it stops short of its steady state: it reads at most 1.5 dB low
  // (−1.08 dB here), never high.
  CHECK(result.quasiPeak[0] <= expected + 0.05);
  CHECK(result.quasiPeak[0] >= expected - 1.5);
}

TEST(cispr16SineOffTheAnalysedBandReadsFarBelow) {
  const double dt = 1e-7;
  const double f0 = 1.0 / (65536.0 * dt);
  Cispr16Settings settings;
  settings.minFrequency = 1311.0 * f0;
  settings.maxFrequency = 1311.0 * f0;
  // 100 kHz away from the 9 kHz band: the filtered signal is the Blackman leakage only.
  const auto result = cispr16Receiver(sine(1.0, (1311.0 + 655.0) * f0, dt, 2 * 65536 + 1), dt, settings, "C");
  CHECK(result.peak[0] < 20.0 * std::log10(1.0 / std::sqrt(2.0) / 1e-6) - 60.0);
}

TEST(cispr16FrequencyListFollowsTheInterval) {
  const double dt = 1e-7;
  const double f0 = 1.0 / (65536.0 * dt);
  Cispr16Settings settings;
  settings.minFrequency = 150e3;
  settings.maxFrequency = 250e3;
  settings.interval = 20e3;
  settings.quasiPeak = false;
  const auto result = cispr16Receiver(sine(1.0, 200e3, dt, 2 * 65536 + 1), dt, settings, "C");
  // bins ⌊150e3/f0⌋ = 983 stepping by ⌊20e3/f0⌋ = 131 up to ⌊250e3/f0⌋ = 1638: 983 … 1638 → 6 points
  CHECK(result.frequency.size() == 6);
  CHECK_NEAR(result.frequency[0], 983.0 * f0, 1e-6);
  CHECK_NEAR(result.frequency[1] - result.frequency[0], 131.0 * f0, 1e-6);
  CHECK(std::isnan(result.quasiPeak[0]));
}

TEST(cispr16RejectsBadSettings) {
  Cispr16Settings settings;
  settings.interval = 0.0;
  bool threw = false;
  try {
    cispr16Receiver(std::vector<double>(100, 0.0), 1e-7, settings, "CISPR16.1");
  } catch (const Error& e) {
    threw = e.code() == ErrorCode::ParameterOutOfRange && e.element() == "CISPR16.1";
  }
  CHECK(threw);
}

namespace {

// Impulses of area `area` (one sample each) every `period` samples, dt = 2^-20 s.
std::vector<double> pulseTrain(double area, std::size_t period, double dt, std::size_t count) {
  std::vector<double> x(count, 0.0);
  for (std::size_t i = 0; i < count; i += period) x[i] = area / dt;
  return x;
}

}  // namespace

TEST(cispr16PulseTrainPeakAverageAndQuasiPeakWeighting) {
  // The band filter is flat within ±4 kHz of the analysed frequency and falls linearly to 0 at
  // ±8 kHz (GeckoCIRCUITS QuasiPeakCalculator): impulse bandwidth B = 12 kHz. An impulse of area a
  // then peaks at √2·a·B in RMS-scaled units: 20·log10(√2 · 1 µVs · 12 kHz / 1 µV) = 84.59 dBµV,
  // whatever the repetition frequency. The average detector is proportional to the repetition
  // frequency (8× → +18.06 dB); the quasi-peak detector lies between the two and rises with it.
  const double dt = 1.0 / 1048576.0;
  const std::size_t n = 1 << 18;  // analysed samples: f0 = 4 Hz, 200 kHz on bin 50000
  Cispr16Settings settings;
  settings.minFrequency = settings.maxFrequency = 200e3;
  settings.average = true;
  const double peak = 20.0 * std::log10(std::sqrt(2.0) * 1e-6 * 12e3 / 1e-6);
  double lastQuasiPeak = 0.0;
  double average128 = 0.0, average1024 = 0.0;
  for (std::size_t period : {std::size_t(8192), std::size_t(2048), std::size_t(1024)}) {  // 128, 512, 1024 Hz
    const auto r = cispr16Receiver(pulseTrain(1e-6, period, dt, 2 * n + 1), dt, settings, "C");
    CHECK_NEAR(r.frequency[0], 200e3, 1e-6);
    CHECK_NEAR(r.peak[0], peak, 0.1);
    CHECK(r.average[0] < r.quasiPeak[0] && r.quasiPeak[0] < r.peak[0]);
    CHECK(r.quasiPeak[0] > lastQuasiPeak);
    lastQuasiPeak = r.quasiPeak[0];
    if (period == 8192) average128 = r.average[0];
    if (period == 1024) average1024 = r.average[0];
  }
  CHECK_NEAR(average1024 - average128, 20.0 * std::log10(8.0), 0.5);
}

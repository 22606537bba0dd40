// Signal analysis of sampled waveforms: characteristics (average, rms, extremes, ripple, form
// factor, THD, distortion factor), Fourier coefficients of a base frequency and its harmonics, and
// the raw real-input spectrum. Definitions follow docs/spec/decisions.md §1.4.
//
// Conventions
//  - Samples x[j] are taken at t_j = j / sampleRate; t = 0 is the FIRST sample.
//  - Harmonic analysis uses the largest whole number P of fundamental periods in the data: with
//    L = sampleRate / f0 samples per period, P = floor(N / L) and the window is the first
//    M = round(P · L) samples. Harmonic k is bin k·P of the length-M DFT X, so
//        x(t) ≈ c0 + Σ_k c_k · cos(2π · k · f0 · t + φ_k)
//    with c0 = X[0] / M, c_k = 2 |X[kP]| / M (|X[kP]| / M at exactly the Nyquist bin),
//    φ_k = atan2(Im X[kP], Re X[kP]) in degrees, in (−180, 180]. A pure cosine has φ = 0, a pure
//    sine φ = −90. When L is not a whole number, bin kP lies slightly off k·f0; the phase is
//    corrected for that offset (k·δ·(M−1)/2, δ the per-sample angle mismatch) so that it refers to
//    the exact harmonic frequency at t = 0. Harmonics above the Nyquist frequency have c_k = 0 and φ_k = 0.
//  - Without a base frequency the fundamental is the strongest non-DC bin m of the DFT of all N
//    samples: f0 = m · sampleRate / N, and the whole record (exactly m periods) is the window.
//  - thd = sqrt(Σ_{k≥2} c_k²) / c_1 and klirr = sqrt(Σ_{k≥2} c_k²) / sqrt(Σ_{k≥1} c_k²), summed over
//    every harmonic up to the Nyquist frequency; both are 0 when the denominator is 0.
//  - ripple = (max − min) / |average| (0 when |average| ≤ 1e-12 · max|x|, i.e. 0 up to rounding);
//    shapeFactor = rms / mean(|x|) (0 when
//    every sample is 0).
// Inputs are validated (InputError, code ANALYSIS_INVALID, with the field at fault). Functions are
// pure and keep no state: they may run in several threads at once.
#pragma once

#include <complex>
#include <cstddef>
#include <optional>
#include <vector>

namespace pesim::analysis {

constexpr std::size_t kMaxSamples = 10'000'000;
constexpr int kMaxHarmonics = 1000;
constexpr int kDefaultHarmonics = 20;

struct Characteristics {
  double average = 0.0;
  double rms = 0.0;
  double min = 0.0;
  double max = 0.0;
  double peakToPeak = 0.0;
  double ripple = 0.0;
  double shapeFactor = 0.0;
  double thd = 0.0;
  double klirr = 0.0;
  std::size_t sampleCount = 0;
  double baseFrequency = 0.0;  // the fundamental used for thd/klirr (given or found); 0 if none
};

struct FourierResult {
  double baseFrequency = 0.0;  // given, or found as the strongest non-DC bin
  int harmonics = 0;
  double dcComponent = 0.0;
  double fundamentalAmplitude = 0.0;
  double fundamentalPhaseDegrees = 0.0;
  std::vector<double> amplitudes;      // c_k, k = 1..harmonics (index k − 1)
  std::vector<double> phasesDegrees;   // φ_k, k = 1..harmonics (index k − 1)
  std::size_t periods = 0;             // P: whole fundamental periods in the window
  std::size_t windowSamples = 0;       // M: samples in the window (from the first sample)
};

// baseFrequency: the fundamental in Hz; empty → the strongest non-DC bin.
Characteristics characteristics(const double* data, std::size_t size, double sampleRate,
                                std::optional<double> baseFrequency = std::nullopt);

// harmonics in 1..kMaxHarmonics.
FourierResult fourier(const double* data, std::size_t size, double sampleRate,
                      std::optional<double> baseFrequency, int harmonics = kDefaultHarmonics);

// sqrt(mean(x²)).
double rms(const double* data, std::size_t size);

// Bins 0..N/2 of the unnormalised DFT X[k] = Σ_j x[j] e^{−2πi·j·k/N} of real data of any length.
std::vector<std::complex<double>> spectrum(const double* data, std::size_t size);

}  // namespace pesim::analysis

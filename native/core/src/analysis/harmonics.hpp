// The harmonic window of a signal: the DFT over the largest whole number of fundamental periods
// and the amplitude/phase of each harmonic read from it (conventions in pesim/analysis.hpp).
#pragma once

#include <complex>
#include <cstddef>
#include <optional>
#include <vector>

namespace pesim::analysis::detail {

class HarmonicWindow {
 public:
  // Inputs must already be validated. Without baseFrequency the strongest non-DC bin of the whole
  // record is the fundamental.
  HarmonicWindow(const double* data, std::size_t size, double sampleRate, std::optional<double> baseFrequency);

  double baseFrequency() const { return baseFrequency_; }  // 0 when the record has no non-DC bin
  std::size_t periods() const { return periods_; }
  std::size_t samples() const { return samples_; }
  double dc() const;
  // Harmonic k ≥ 1: amplitude c_k and phase φ_k (degrees); 0 above the Nyquist frequency.
  double amplitude(std::size_t k) const;
  double phaseDegrees(std::size_t k) const;
  // The highest harmonic at or below the Nyquist frequency (0 when there is none).
  std::size_t highestHarmonic() const;
  // sqrt(Σ_{k≥2} c_k²) over every harmonic up to the Nyquist frequency.
  double distortion() const;

 private:
  std::vector<std::complex<double>> bins_;  // bins 0..M/2 of the window's DFT
  double baseFrequency_ = 0.0;
  std::size_t periods_ = 0;
  std::size_t samples_ = 0;
  double drift_ = 0.0;  // phase offset (rad) of harmonic 1 from rounding the window to whole samples
};

}  // namespace pesim::analysis::detail

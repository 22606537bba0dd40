// The raw real-input spectrum with reusable FFT plans: the same bins as analysis::spectrum(), but
// power-of-two lengths take their plan (twiddle tables, a few MB for 1 M points) from a cache
// instead of building it on every call, and the result is written into a caller's buffer (the
// addon passes the Float64Array it returns, so nothing is copied).
//
// SpectrumPlans is an object the caller owns (the addon keeps one per Node environment, so
// worker threads never share it and there is no global state). It is thread safe: calls from
// several threads may share it; plans themselves are immutable and shared by reference count, so
// evicting a plan never disturbs a transform still using it. It is bounded: at most `maxPlans`
// sizes and, beyond the most recent plan, `maxBytes` of tables, least recently used first out.
#pragma once

#include <complex>
#include <cstddef>
#include <memory>

namespace pesim::analysis {

class SpectrumPlans {
 public:
  explicit SpectrumPlans(std::size_t maxPlans = 4, std::size_t maxBytes = std::size_t{256} << 20);
  ~SpectrumPlans();
  SpectrumPlans(const SpectrumPlans&) = delete;
  SpectrumPlans& operator=(const SpectrumPlans&) = delete;

  std::size_t cachedPlans() const;
  std::size_t cachedBytes() const;

  struct Impl;

 private:
  friend void spectrumInto(const double*, std::size_t, std::complex<double>*, SpectrumPlans&, unsigned);
  std::unique_ptr<Impl> impl_;
};

// Bins 0..N/2 of X[k] = Σ_j x[j] e^{−2πi·j·k/N} into out[0..N/2] (N/2 + 1 entries), any N.
// Validates like spectrum() (InputError ANALYSIS_INVALID). threads ∈ {1, 2}: with 2, transforms of
// 2^16 points or more split their largest stages over a second thread.
void spectrumInto(const double* data, std::size_t size, std::complex<double>* out, SpectrumPlans& plans,
                  unsigned threads = 1);

}  // namespace pesim::analysis

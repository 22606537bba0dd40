// Fast Fourier transforms for signal analysis (internal to the core).
//  - Pow2Fft: complex transform of a power-of-two length n. Forward is a recursive radix-4
//    decimation in frequency (radix-2 last stage when log2 n is odd) that leaves its output in
//    bit-reversed order; inverse is the matching decimation in time that takes bit-reversed input
//    and returns natural order. Recursion keeps sub-transforms inside the cache once they fit.
//    Twiddles are precomputed per plan; a plan is immutable, so one plan serves several threads.
//  - realDft(): the DFT of a real sequence of any length n, bins 0..n/2, unnormalised:
//    X[k] = sum_j x[j] e^{-2 pi i j k / n}. Power-of-two lengths use RealPow2Fft (the real-input
//    split over a half-length DitPlan, fft_radix4.hpp); lengths whose prime factors are all small
//    use Eigen's kissfft; any other length uses Bluestein's chirp-z algorithm over Pow2Fft.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "analysis/fft_radix4.hpp"

namespace pesim::analysis::detail {

class Pow2Fft {
 public:
  explicit Pow2Fft(std::size_t n);  // n must be a power of two ≥ 1
  std::size_t size() const { return n_; }
  // In place; output X[k] is stored at data[bitReverse(k)].
  void forwardToBitReversed(Cx* data) const;
  // In place, unnormalised inverse (sign +); input in bit-reversed order, output natural order.
  void inverseFromBitReversed(Cx* data) const;
  std::size_t bitReverse(std::size_t k) const;

 private:
  void dif(Cx* x, std::size_t s) const;
  void dit(Cx* x, std::size_t s) const;
  std::size_t n_;
  unsigned log2n_;
  std::vector<Cx> twiddle_;  // e^{-2 pi i k / n}, k < 3n/4
};

// Real-input transform of a power-of-two length n ≥ 2 into bins 0..n/2 (natural order), through
// the complex DitPlan of length n/2 and the split step. Immutable: shared by threads.
class RealPow2Fft {
 public:
  // allowSimd = false forces the scalar kernels (tests compare both).
  explicit RealPow2Fft(std::size_t n, bool allowSimd = true);
  // out has n/2 + 1 entries and is also the work area; x is only read. threads ∈ {1, 2}.
  void forward(const double* x, std::complex<double>* out, unsigned threads = 1) const;
  std::size_t size() const { return n_; }
  std::size_t bytes() const { return roots_.bytes() + half_.bytes(); }
  bool usesAvx2() const { return half_.usesAvx2(); }

 private:
  std::size_t n_;
  unsigned log2h_;
  UnitRoots roots_;  // order n: the split twiddles and, by stride, every stage's
  DitPlan half_;
};

bool isPowerOfTwo(std::size_t n);
std::size_t largestPrimeFactor(std::size_t n);

// Bins 0..n/2 of the DFT of the n real samples x (n ≥ 1).
std::vector<std::complex<double>> realDft(const double* x, std::size_t n);

// The same into out[0..n/2]; power-of-two lengths use `plan` when given (plan->size() == n).
void realDftInto(const double* x, std::size_t n, std::complex<double>* out, const RealPow2Fft* plan, unsigned threads);

}  // namespace pesim::analysis::detail

// In-place power-of-two complex FFT for the real-input fast path (see fft.cpp for the algorithm
// and its references).
//  - UnitRoots: e^{-2 pi i k / n} for 0 <= k <= n/4 (a quarter circle), each entry from an exact
//    sin/cos of an eighth circle plus symmetry, so every twiddle is correctly rounded.
//  - DitPlan: forward transform of length h = 2^L, input in bit-reversed order, output in natural
//    order, radix 4 (one radix-2 stage first when L is odd), depth first: blocks that fit in the
//    L1/L2 cache are finished before the next larger stage touches them. Kernels exist as AVX2+FMA
//    (chosen at run time when the CPU has both) and portable scalar code.
//  - bitReverseGather: the input permutation, from interleaved (re, im) pairs, tiled for the cache.
// Plans are immutable after construction: one plan serves any number of threads at once.
#pragma once

#include <cstddef>
#include <vector>

namespace pesim::analysis::detail {

struct Cx {
  double re;
  double im;
};

class UnitRoots {
 public:
  explicit UnitRoots(std::size_t n);  // n a power of two ≥ 4
  std::size_t order() const { return n_; }
  // e^{-2 pi i k / n} for 0 <= k <= n/4.
  Cx quarter(std::size_t k) const { return table_[k]; }
  const Cx* quarterTable() const { return table_.data(); }
  // e^{-2 pi i k / n} for any k (reduced mod n).
  Cx at(std::size_t k) const;
  std::size_t bytes() const { return table_.size() * sizeof(Cx); }

 private:
  std::size_t n_;
  std::vector<Cx> table_;
};

class DitPlan {
 public:
  // h = 2^L ≥ 1; roots.order() must be a multiple of h (≥ 4). allowSimd = false forces the
  // scalar kernels (tests compare both).
  DitPlan(std::size_t h, const UnitRoots& roots, bool allowSimd = true);
  std::size_t size() const { return h_; }
  // In place: data[rev(k)] in, X[k] at data[k] out (unnormalised, sign −). threads ∈ {1, 2}.
  void run(Cx* data, unsigned threads) const;
  std::size_t bytes() const { return (small_.size() + large_.size()) * sizeof(Cx); }
  bool usesAvx2() const { return avx2_; }

 private:
  void recurse(Cx* x, unsigned lg) const;
  void leaf(Cx* x, unsigned lg) const;
  void combine(Cx* x, unsigned lg, std::size_t jBegin, std::size_t jEnd) const;

  std::size_t h_;
  unsigned log2h_;
  bool avx2_;
  // Stages up to the leaf size: per pair of j, [w1(j), w1(j+1), w2(j), w2(j+1), w3(j), w3(j+1)].
  std::vector<Cx> small_;
  // Larger stages: w1(j) only (w2, w3 are formed by multiplication, saving memory traffic).
  std::vector<Cx> large_;
  std::vector<std::size_t> offset_;  // by log2 of the stage size: start in small_ or large_
};

// dst[rev_bits(i)] = (pairs[2i], pairs[2i+1]) for i < 2^bits.
void bitReverseGather(const double* pairs, Cx* dst, unsigned bits);

}  // namespace pesim::analysis::detail

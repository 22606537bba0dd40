// x = M·b for the small dense inverses of the MNA solve (factorization.cpp): M is N×N, column-major
// with column stride N, N known at compile time. Every x[i] is 0.0 plus M(i, j)·b[j] for
// j = 0, 1, ... in order, each product and each sum rounded on its own (no fused multiply-add),
// so both versions below give the same x, bit for bit: the rows are independent lanes, only their
// grouping into registers differs.
#pragma once

#include <cstddef>

#if defined(__GNUC__) && defined(__x86_64__)
#define PESIM_DENSE_PRODUCT_AVX2 1
#include <immintrin.h>
#endif

namespace pesim {

// The portable product: the compiler unrolls it fully and vectorises the rows two at a time (SSE2).
template <std::size_t N>
void denseProductPortable(const double* m, const double* b, double* x) {
  double sum[N] = {};
  for (std::size_t j = 0; j < N; ++j, m += N) {
    for (std::size_t i = 0; i < N; ++i) sum[i] += m[i] * b[j];
  }
  for (std::size_t i = 0; i < N; ++i) x[i] = sum[i];
}

#ifdef PESIM_DENSE_PRODUCT_AVX2
// The same product with the rows four at a time (AVX2 registers: half the instructions of SSE2
// for the 9 to 16 unknowns of a converter with its thermal network), the last N mod 4 rows two
// at a time and then one. Enabled for AVX2 only, which has no fused multiply-add: a product and a
// sum stay two roundings, as in the portable loop. Call only where the CPU supports AVX2.
template <std::size_t N>
__attribute__((target("avx2"))) void denseProductAvx2(const double* m, const double* b, double* x) {
  constexpr std::size_t kQuads = N / 4;
  constexpr bool kPair = N % 4 >= 2;
  constexpr bool kSingle = N % 2 == 1;
  constexpr std::size_t kPairAt = 4 * kQuads;
  constexpr std::size_t kSingleAt = N - 1;
  __m256d quad[kQuads > 0 ? kQuads : 1];
  for (std::size_t q = 0; q < kQuads; ++q) quad[q] = _mm256_setzero_pd();
  __m128d pair = _mm_setzero_pd();
  double single = 0.0;
  for (std::size_t j = 0; j < N; ++j, m += N) {
    const double bj = b[j];
    const __m256d b4 = _mm256_set1_pd(bj);
    for (std::size_t q = 0; q < kQuads; ++q) quad[q] = _mm256_add_pd(quad[q], _mm256_mul_pd(_mm256_loadu_pd(m + 4 * q), b4));
    if constexpr (kPair) pair = _mm_add_pd(pair, _mm_mul_pd(_mm_loadu_pd(m + kPairAt), _mm_set1_pd(bj)));
    if constexpr (kSingle) single += m[kSingleAt] * bj;
  }
  for (std::size_t q = 0; q < kQuads; ++q) _mm256_storeu_pd(x + 4 * q, quad[q]);
  if constexpr (kPair) _mm_storeu_pd(x + kPairAt, pair);
  if constexpr (kSingle) x[kSingleAt] = single;
}
#endif

// Whether denseProductAvx2 may run on this CPU.
inline bool denseProductAvx2Supported() {
#ifdef PESIM_DENSE_PRODUCT_AVX2
  return __builtin_cpu_supports("avx2");
#else
  return false;
#endif
}

}  // namespace pesim

// AVX2 + FMA helpers shared by the FFT kernels: two interleaved complex numbers (re, im, re, im)
// per 256-bit register. Kernels using them carry PESIM_AVX2 (a per-function target attribute), so
// the build stays portable and callers choose them at run time from the CPU flags.
#pragma once

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define PESIM_FFT_X86 1
#include <immintrin.h>
#define PESIM_AVX2 __attribute__((target("avx2,fma")))
#endif

namespace pesim::analysis::detail {

bool cpuHasAvx2Fma();

#ifdef PESIM_FFT_X86

// (a.re w.re − a.im w.im, a.re w.im + a.im w.re) in both halves.
PESIM_AVX2 inline __m256d cmul(__m256d a, __m256d w) {
  const __m256d wr = _mm256_movedup_pd(w);
  const __m256d wi = _mm256_permute_pd(w, 0xF);
  return _mm256_fmaddsub_pd(a, wr, _mm256_mul_pd(_mm256_permute_pd(a, 0x5), wi));
}

PESIM_AVX2 inline __m256d timesMinusI(__m256d a) {
  return _mm256_xor_pd(_mm256_permute_pd(a, 0x5), _mm256_set_pd(-0.0, 0.0, -0.0, 0.0));
}

// (conj a, conj b) of (a, b).
PESIM_AVX2 inline __m256d conjugate(__m256d a) { return _mm256_xor_pd(a, _mm256_set_pd(-0.0, 0.0, -0.0, 0.0)); }

// (b, a) of (a, b).
PESIM_AVX2 inline __m256d swapHalves(__m256d a) { return _mm256_permute2f128_pd(a, a, 1); }

#endif  // PESIM_FFT_X86

}  // namespace pesim::analysis::detail

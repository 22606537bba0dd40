// finishRealSpectrum (see fft_real_split.hpp). For the pairs (k, h − k), k = 1..h/2
// (Sorensen et al., IEEE Trans. ASSP 35(6) 1987; Van Loan 1992, §4.4), w = e^{−2πi/2h}:
//   E = (Z[k] + conj Z[h−k]) / 2,  O = −i·(Z[k] − conj Z[h−k]) / 2,
//   X[k] = E + w^k·O,  X[h−k] = conj(E − w^k·O),  X[0] = Re Z0 + Im Z0,  X[h] = Re Z0 − Im Z0.
// The AVX2 kernel takes k, k+1 and their mirrors h−k, h−k−1 per step; the pass is bound by memory,
// so vectors halve its time against the scalar loop.
#include "analysis/fft_real_split.hpp"

#include "analysis/fft_simd.hpp"

namespace pesim::analysis::detail {

namespace {

void splitPairScalar(Cx* z, std::size_t h, std::size_t k, Cx w) {
  const Cx zk = z[k], zr = z[h - k];
  const Cx even{0.5 * (zk.re + zr.re), 0.5 * (zk.im - zr.im)};
  const Cx odd{0.5 * (zk.im + zr.im), -0.5 * (zk.re - zr.re)};
  const Cx wo{w.re * odd.re - w.im * odd.im, w.re * odd.im + w.im * odd.re};
  z[k] = {even.re + wo.re, even.im + wo.im};
  z[h - k] = {even.re - wo.re, wo.im - even.im};
}

#ifdef PESIM_FFT_X86
// Pairs k = first, first + 2, ... while k + 1 < h/2 (so {k, k+1} and {h−k−1, h−k} are disjoint);
// returns the first k left for the scalar loop.
PESIM_AVX2 std::size_t splitPairsAvx2(Cx* z, std::size_t h, const Cx* roots, std::size_t first) {
  double* data = reinterpret_cast<double*>(z);
  const double* w = reinterpret_cast<const double*>(roots);
  const __m256d half = _mm256_set1_pd(0.5);
  std::size_t k = first;
  for (; k + 1 < h / 2; k += 2) {
    double* front = data + 2 * k;            // Z[k], Z[k+1]
    double* back = data + 2 * (h - k - 1);   // Z[h−k−1], Z[h−k]
    const __m256d a = _mm256_loadu_pd(front);
    const __m256d b = conjugate(swapHalves(_mm256_loadu_pd(back)));  // conj Z[h−k], conj Z[h−k−1]
    const __m256d even = _mm256_mul_pd(half, _mm256_add_pd(a, b));
    const __m256d odd = _mm256_mul_pd(half, timesMinusI(_mm256_sub_pd(a, b)));
    const __m256d wo = cmul(odd, _mm256_loadu_pd(w + 2 * k));
    _mm256_storeu_pd(front, _mm256_add_pd(even, wo));
    _mm256_storeu_pd(back, swapHalves(conjugate(_mm256_sub_pd(even, wo))));
  }
  return k;
}
#endif

}  // namespace

void finishRealSpectrum(Cx* z, std::size_t h, const UnitRoots& roots, bool avx2) {
  const Cx z0 = z[0];
  z[0] = {z0.re + z0.im, 0.0};
  z[h] = {z0.re - z0.im, 0.0};
  std::size_t k = 1;
#ifdef PESIM_FFT_X86
  if (avx2) k = splitPairsAvx2(z, h, roots.quarterTable(), k);
#else
  static_cast<void>(avx2);
#endif
  for (; k <= h / 2; ++k) splitPairScalar(z, h, k, roots.quarter(k));
}

}  // namespace pesim::analysis::detail

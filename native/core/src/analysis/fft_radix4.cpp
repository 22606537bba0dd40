// Depth-first radix-4 decimation-in-time FFT with AVX2+FMA and scalar kernels (see fft_radix4.hpp).
//
// One combination stage of size s = 4q over a block whose four quarters already hold the
// length-q DFTs F0, F2, F1, F3 (bit-reversed order of the residues 0, 2, 1, 3), for j < q:
//   u0 = F0[j], u1 = w^j F1[j], u2 = w^2j F2[j], u3 = w^3j F3[j],   w = e^{-2 pi i / s}
//   X[j] = u0+u1+u2+u3, X[j+q] = u0−i·u1−u2+i·u3, X[j+2q] = u0−u1+u2−u3, X[j+3q] = u0+i·u1−u2−i·u3.
// The AVX2 kernels hold two interleaved complex numbers per register (j and j+1), so every stage
// after the first has q ≥ 2; the first stage (radix 4 or 2, no twiddles) works inside a register.
#include "analysis/fft_radix4.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "analysis/fft_simd.hpp"

namespace pesim::analysis::detail {

namespace {

constexpr double kPi = 3.14159265358979323846;
// Blocks of up to 2^12 points (64 KiB) are transformed breadth first, inside the L1/L2 cache.
constexpr unsigned kLeafLog = 12;

inline Cx mul(Cx a, Cx b) { return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }
inline Cx add(Cx a, Cx b) { return {a.re + b.re, a.im + b.im}; }
inline Cx sub(Cx a, Cx b) { return {a.re - b.re, a.im - b.im}; }
inline Cx minusI(Cx a) { return {a.im, -a.re}; }

// ---- scalar kernels -------------------------------------------------------------------------

inline void butterfly(Cx* x, std::size_t q, std::size_t j, Cx w1, Cx w2, Cx w3) {
  const Cx u0 = x[j], u2 = mul(x[j + q], w2), u1 = mul(x[j + 2 * q], w1), u3 = mul(x[j + 3 * q], w3);
  const Cx t0 = add(u0, u2), t1 = sub(u0, u2), t2 = add(u1, u3), t3 = minusI(sub(u1, u3));
  x[j] = add(t0, t2);
  x[j + q] = add(t1, t3);
  x[j + 2 * q] = sub(t0, t2);
  x[j + 3 * q] = sub(t1, t3);
}

// tw: per pair of j, [w1 w1' w2 w2' w3 w3'].
void combineFullScalar(Cx* x, std::size_t q, const Cx* tw, std::size_t jBegin, std::size_t jEnd) {
  for (std::size_t j = jBegin; j < jEnd; ++j) {
    const Cx* w = tw + 6 * (j / 2) + (j % 2);
    butterfly(x, q, j, w[0], w[2], w[4]);
  }
}

void combineW1Scalar(Cx* x, std::size_t q, const Cx* w1, std::size_t jBegin, std::size_t jEnd) {
  for (std::size_t j = jBegin; j < jEnd; ++j) {
    const Cx w2 = mul(w1[j], w1[j]);
    butterfly(x, q, j, w1[j], w2, mul(w2, w1[j]));
  }
}

void firstStageScalar(Cx* x, std::size_t len, bool radix2) {
  if (radix2) {
    for (std::size_t i = 0; i < len; i += 2) {
      const Cx a = x[i], b = x[i + 1];
      x[i] = add(a, b);
      x[i + 1] = sub(a, b);
    }
    return;
  }
  const Cx one{1.0, 0.0};
  for (std::size_t i = 0; i < len; i += 4) butterfly(x + i, 1, 0, one, one, one);
}

// ---- AVX2 + FMA kernels (two complex numbers per register) -----------------------------------
#ifdef PESIM_FFT_X86

// A twiddle pair (w, w') split once into its duplicated real and imaginary parts, so a loop that
// applies it to many butterflies does not repeat the shuffles of cmul().
struct SplitTwiddle {
  __m256d re;
  __m256d im;
};

PESIM_AVX2 inline SplitTwiddle split(__m256d w) { return {_mm256_movedup_pd(w), _mm256_permute_pd(w, 0xF)}; }

PESIM_AVX2 inline __m256d cmulSplit(__m256d a, SplitTwiddle w) {
  return _mm256_fmaddsub_pd(a, w.re, _mm256_mul_pd(_mm256_permute_pd(a, 0x5), w.im));
}

PESIM_AVX2 inline void butterflyAvx2(double* x, std::size_t q, std::size_t j, SplitTwiddle w1, SplitTwiddle w2,
                                     SplitTwiddle w3) {
  double* p0 = x + 2 * j;
  double* p1 = p0 + 2 * q;
  double* p2 = p1 + 2 * q;
  double* p3 = p2 + 2 * q;
  const __m256d u0 = _mm256_loadu_pd(p0);
  const __m256d u2 = cmulSplit(_mm256_loadu_pd(p1), w2);
  const __m256d u1 = cmulSplit(_mm256_loadu_pd(p2), w1);
  const __m256d u3 = cmulSplit(_mm256_loadu_pd(p3), w3);
  const __m256d t0 = _mm256_add_pd(u0, u2), t1 = _mm256_sub_pd(u0, u2);
  const __m256d t2 = _mm256_add_pd(u1, u3), t3 = timesMinusI(_mm256_sub_pd(u1, u3));
  _mm256_storeu_pd(p0, _mm256_add_pd(t0, t2));
  _mm256_storeu_pd(p1, _mm256_add_pd(t1, t3));
  _mm256_storeu_pd(p2, _mm256_sub_pd(t0, t2));
  _mm256_storeu_pd(p3, _mm256_sub_pd(t1, t3));
}

// One stage of size s = 4q over all groups of a leaf block of len points, twiddle pair outermost:
// each pair is loaded and split once for every group (len / s of them) it serves.
PESIM_AVX2 void leafStageAvx2(Cx* data, std::size_t len, std::size_t q, const Cx* tw) {
  double* x = reinterpret_cast<double*>(data);
  const double* w = reinterpret_cast<const double*>(tw);
  for (std::size_t j = 0; j < q; j += 2, w += 12) {
    const SplitTwiddle w1 = split(_mm256_loadu_pd(w)), w2 = split(_mm256_loadu_pd(w + 4)),
                       w3 = split(_mm256_loadu_pd(w + 8));
    for (std::size_t g = 0; g < len; g += 4 * q) butterflyAvx2(x + 2 * g, q, j, w1, w2, w3);
  }
}

PESIM_AVX2 void combineW1Avx2(Cx* data, std::size_t q, const Cx* tw, std::size_t jBegin, std::size_t jEnd) {
  double* x = reinterpret_cast<double*>(data);
  const double* w = reinterpret_cast<const double*>(tw);
  for (std::size_t j = jBegin; j < jEnd; j += 2) {
    const __m256d w1 = _mm256_loadu_pd(w + 2 * j);
    const __m256d w2 = cmul(w1, w1);
    butterflyAvx2(x, q, j, split(w1), split(w2), split(cmul(w2, w1)));
  }
}

// A whole leaf block of 2^lg points (lg ≥ 1), breadth first.
PESIM_AVX2 void leafAvx2(Cx* data, unsigned lg, const Cx* small, const std::size_t* offset) {
  double* x = reinterpret_cast<double*>(data);
  const std::size_t len = std::size_t{1} << lg;
  const __m256d plusMinus = _mm256_set_pd(-1.0, -1.0, 1.0, 1.0);
  unsigned stage;
  if (lg % 2 == 1) {
    for (std::size_t i = 0; i < len; i += 2) {  // (c0, c1) → (c0 + c1, c0 − c1)
      const __m256d v = _mm256_loadu_pd(x + 2 * i);
      _mm256_storeu_pd(x + 2 * i, _mm256_fmadd_pd(v, plusMinus, _mm256_permute2f128_pd(v, v, 1)));
    }
    stage = 3;
  } else {
    const __m256d signLast = _mm256_set_pd(-0.0, 0.0, 0.0, 0.0);
    for (std::size_t i = 0; i < len; i += 4) {
      const __m256d v0 = _mm256_loadu_pd(x + 2 * i), v1 = _mm256_loadu_pd(x + 2 * i + 4);
      const __m256d t01 = _mm256_fmadd_pd(v0, plusMinus, _mm256_permute2f128_pd(v0, v0, 1));  // (t0, t1)
      const __m256d td = _mm256_fmadd_pd(v1, plusMinus, _mm256_permute2f128_pd(v1, v1, 1));   // (t2, d)
      const __m256d t23 = _mm256_blend_pd(td, _mm256_xor_pd(_mm256_permute_pd(td, 0x5), signLast), 0xC);  // (t2, −i d)
      _mm256_storeu_pd(x + 2 * i, _mm256_add_pd(t01, t23));
      _mm256_storeu_pd(x + 2 * i + 4, _mm256_sub_pd(t01, t23));
    }
    stage = 4;
  }
  for (; stage <= lg; stage += 2) {
    const std::size_t s = std::size_t{1} << stage, q = s / 4;
    leafStageAvx2(data, len, q, small + offset[stage]);
  }
}

#endif  // PESIM_FFT_X86

std::uint32_t reverse32(std::uint32_t v) {
  v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
  v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
  v = ((v >> 4) & 0x0F0F0F0Fu) | ((v & 0x0F0F0F0Fu) << 4);
  v = ((v >> 8) & 0x00FF00FFu) | ((v & 0x00FF00FFu) << 8);
  return (v >> 16) | (v << 16);
}

// Cache hints; no-ops where the compiler has no such builtin.
inline void prefetchForRead(const char* address) {
#if defined(__GNUC__)
  __builtin_prefetch(address, 0, 3);
#else
  static_cast<void>(address);
#endif
}

inline void prefetchForWrite(char* address) {
#if defined(__GNUC__)
  __builtin_prefetch(address, 1, 3);
#else
  static_cast<void>(address);
#endif
}

inline std::size_t reverseBits(std::size_t v, unsigned width) {
  return width == 0 ? 0 : reverse32(static_cast<std::uint32_t>(v)) >> (32 - width);
}

}  // namespace

bool cpuHasAvx2Fma() {
#ifdef PESIM_FFT_X86
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

// ---- UnitRoots ------------------------------------------------------------------------------

UnitRoots::UnitRoots(std::size_t n) : n_(n), table_(n / 4 + 1) {
  if (n < 4 || (n & (n - 1)) != 0) throw std::invalid_argument("UnitRoots: order must be a power of two ≥ 4");
  const std::size_t eighth = n / 8;
  const double unit = 2.0 * kPi / static_cast<double>(n);
  // Exact on [0, n/8]; the rest of the quarter by e^{-i(pi/2 − a)} = (sin a, −cos a).
  for (std::size_t k = 0; k <= eighth; ++k) {
    const double a = unit * static_cast<double>(k);
    table_[k] = {std::cos(a), -std::sin(a)};
  }
  for (std::size_t k = eighth + 1; k <= n / 4; ++k) {
    const Cx m = table_[n / 4 - k];
    table_[k] = {-m.im, -m.re};
  }
}

Cx UnitRoots::at(std::size_t k) const {
  k &= n_ - 1;
  const std::size_t quarter = n_ / 4;
  const Cx r = table_[k % quarter];
  switch (k / quarter) {
    case 0: return r;
    case 1: return {r.im, -r.re};    // · (−i)
    case 2: return {-r.re, -r.im};   // · (−1)
    default: return {-r.im, r.re};   // · (+i)
  }
}

// ---- DitPlan --------------------------------------------------------------------------------

DitPlan::DitPlan(std::size_t h, const UnitRoots& roots, bool allowSimd)
    : h_(h), log2h_(0), avx2_(allowSimd && cpuHasAvx2Fma()) {
  if (h == 0 || (h & (h - 1)) != 0 || roots.order() % h != 0) throw std::invalid_argument("DitPlan: bad size");
  while ((std::size_t{1} << log2h_) < h) ++log2h_;
  offset_.assign(log2h_ + 1, 0);
  const std::size_t n = roots.order();
  for (unsigned lg = (log2h_ % 2 == 1) ? 3 : 4; lg <= log2h_; lg += 2) {
    const std::size_t s = std::size_t{1} << lg, q = s / 4, step = n / s;
    if (lg <= kLeafLog) {
      offset_[lg] = small_.size();
      for (std::size_t j = 0; j < q; j += 2) {
        for (std::size_t m = 1; m <= 3; ++m) {
          small_.push_back(roots.at(m * j * step));
          small_.push_back(roots.at(m * (j + 1) * step));
        }
      }
    } else {
      offset_[lg] = large_.size();
      for (std::size_t j = 0; j < q; ++j) large_.push_back(roots.quarter(j * step));
    }
  }
}

void DitPlan::leaf(Cx* x, unsigned lg) const {
  if (lg == 0) return;
#ifdef PESIM_FFT_X86
  if (avx2_) {
    leafAvx2(x, lg, small_.data(), offset_.data());
    return;
  }
#endif
  const std::size_t len = std::size_t{1} << lg;
  firstStageScalar(x, len, lg % 2 == 1);
  for (unsigned stage = (lg % 2 == 1) ? 3 : 4; stage <= lg; stage += 2) {
    const std::size_t s = std::size_t{1} << stage;
    for (std::size_t g = 0; g < len; g += s) combineFullScalar(x + g, s / 4, small_.data() + offset_[stage], 0, s / 4);
  }
}

void DitPlan::combine(Cx* x, unsigned lg, std::size_t jBegin, std::size_t jEnd) const {
  const std::size_t q = std::size_t{1} << (lg - 2);
  const Cx* tw = large_.data() + offset_[lg];
#ifdef PESIM_FFT_X86
  if (avx2_) {
    combineW1Avx2(x, q, tw, jBegin, jEnd);
    return;
  }
#endif
  combineW1Scalar(x, q, tw, jBegin, jEnd);
}

void DitPlan::recurse(Cx* x, unsigned lg) const {
  if (lg <= kLeafLog) {
    leaf(x, lg);
    return;
  }
  const std::size_t q = std::size_t{1} << (lg - 2);
  for (std::size_t r = 0; r < 4; ++r) recurse(x + r * q, lg - 2);
  combine(x, lg, 0, q);
}

void DitPlan::run(Cx* data, unsigned threads) const {
  if (threads < 2 || log2h_ <= kLeafLog + 2) {
    recurse(data, log2h_);
    return;
  }
  // Two threads: two quarters each, then half of the last stage's j range each.
  const unsigned lg = log2h_;
  const std::size_t q = h_ / 4;
  std::thread helper([&] {
    recurse(data, lg - 2);
    recurse(data + q, lg - 2);
  });
  recurse(data + 2 * q, lg - 2);
  recurse(data + 3 * q, lg - 2);
  helper.join();
  std::thread second([&] { combine(data, lg, 0, q / 2); });
  combine(data, lg, q / 2, q);
  second.join();
}

// ---- input permutation ----------------------------------------------------------------------

// Through a 16 × 16 tile buffer (4 KiB, stays in L1): 16 source rows of 16 contiguous pairs are
// read whole, then 16 destination rows of 16 contiguous entries are written whole. Rows lie a
// power of two apart, so without the buffer they would evict one another from the cache. Each
// row is only four cache lines long, too short for the hardware prefetcher, so the rows of the
// tile two ahead are prefetched by hand (for reading and, on the destination, for writing); the
// analysis section of `npm run bench` compares the tile sizes.
void bitReverseGather(const double* pairs, Cx* dst, unsigned bits) {
  constexpr unsigned t = 4;
  if (bits < 2 * t + 1) {
    const std::size_t n = std::size_t{1} << bits;
    for (std::size_t i = 0; i < n; ++i) dst[reverseBits(i, bits)] = {pairs[2 * i], pairs[2 * i + 1]};
    return;
  }
  constexpr std::size_t tile = std::size_t{1} << t;
  constexpr std::size_t rowBytes = tile * sizeof(Cx);
  constexpr std::size_t lookAhead = 2;
  std::size_t rev[tile];
  for (std::size_t c = 0; c < tile; ++c) rev[c] = reverseBits(c, t);
  alignas(64) Cx buffer[tile][tile];
  const Cx* src = reinterpret_cast<const Cx*>(pairs);  // (re, im) pairs have Cx's layout
  const unsigned middle = bits - 2 * t, high = bits - t;
  const std::size_t tiles = std::size_t{1} << middle;
  // Index i = a·2^high + b·2^t + c goes to rev(c)·2^high + rev(b)·2^t + rev(a).
  for (std::size_t b = 0; b < tiles; ++b) {
    const std::size_t rb = reverseBits(b, middle) << t;
    const std::size_t ahead = (b + lookAhead) & (tiles - 1);
    const std::size_t rAhead = reverseBits(ahead, middle) << t;
    for (std::size_t a = 0; a < tile; ++a) {
      const char* nextRow = reinterpret_cast<const char*>(src + ((a << high) | (ahead << t)));
      char* nextDst = reinterpret_cast<char*>(dst + ((a << high) | rAhead));
      for (std::size_t line = 0; line < rowBytes; line += 64) {
        prefetchForRead(nextRow + line);
        prefetchForWrite(nextDst + line);
      }
      const Cx* row = src + ((a << high) | (b << t));
      const std::size_t ra = rev[a];
      for (std::size_t c = 0; c < tile; ++c) buffer[rev[c]][ra] = row[c];
    }
    for (std::size_t rc = 0; rc < tile; ++rc) std::memcpy(dst + ((rc << high) | rb), buffer[rc], sizeof(buffer[rc]));
  }
}

}  // namespace pesim::analysis::detail

// Fourier transforms of real data (see fft.hpp).
//
// Power-of-two fast path, RealPow2Fft (n = 2h real samples → bins 0..h):
//  1. Real-input split (Sorensen, Jones, Heideman & Burrus, "Real-valued fast Fourier transform
//     algorithms", IEEE Trans. ASSP 35(6), 1987; Van Loan, "Computational Frameworks for the Fast
//     Fourier Transform", SIAM 1992, §4.4): z[j] = x[2j] + i·x[2j+1] is one complex sequence of
//     length h; with Z = DFT_h(z), X[k] = E_k + w^k O_k for E_k = (Z[k] + conj Z[h−k]) / 2,
//     O_k = (Z[k] − conj Z[h−k]) / 2i, w = e^{−2πi/n}, and X[h−k] = conj(E_k − w^k O_k), so one
//     pass over the pairs (k, h − k) finishes the job in place (fft_real_split.cpp).
//  2. The input permutation: z is gathered straight from x into the output buffer in bit-reversed
//     order, through a 16 × 16 tile buffer (Van Loan §1.9 on bit reversal; the tile keeps rows
//     that lie a power of two apart from evicting one another), rows prefetched two tiles ahead.
//  3. Z by an in-place radix-4 decimation in time (Van Loan §2.3 radix-4 Cooley–Tukey; one
//     radix-2 stage first when log2 h is odd), bit-reversed in, natural order out, depth first
//     (the recursive, cache-oblivious order of Frigo & Johnson's FFTW: blocks of ≤ 2^12 points are
//     finished inside the L1/L2 cache before the larger stages touch them). Kernels: AVX2 + FMA
//     with two complex numbers per register, chosen at run time from the CPU flags (the build
//     stays portable), and the same arithmetic in scalar C++ (fft_radix4.cpp).
//  4. Plans (twiddles: exact sin/cos on an eighth of the circle, the rest by symmetry) are built
//     once per size and kept by the caller (SpectrumPlans, pesim/spectrum.hpp); a plan is
//     immutable, so threads share it, and the output buffer doubles as the work area.
// Other lengths: Eigen's kissfft (mixed radix, small prime factors) or Bluestein's chirp-z over
// the older Pow2Fft (radix-4 DIF/DIT with strided twiddles), both allocating per call.
#include "analysis/fft.hpp"

#include "analysis/fft_real_split.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <unsupported/Eigen/FFT>

namespace pesim::analysis::detail {

namespace {

constexpr double kPi = 3.14159265358979323846;

// Written out: std::complex multiplication checks for NaN/inf (no -ffast-math here) and is slow.
inline Cx mul(Cx a, Cx b) { return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }
inline Cx mulConj(Cx a, Cx b) { return {a.re * b.re + a.im * b.im, a.im * b.re - a.re * b.im}; }
inline Cx add(Cx a, Cx b) { return {a.re + b.re, a.im + b.im}; }
inline Cx sub(Cx a, Cx b) { return {a.re - b.re, a.im - b.im}; }

std::uint32_t reverse32(std::uint32_t v) {
  v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
  v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
  v = ((v >> 4) & 0x0F0F0F0Fu) | ((v & 0x0F0F0F0Fu) << 4);
  v = ((v >> 8) & 0x00FF00FFu) | ((v & 0x00FF00FFu) << 8);
  return (v >> 16) | (v << 16);
}

// table[k] = e^{-2 pi i k / n} for k < count: exact sin/cos every 64 entries, a rotation by the
// unit step in between (error a few ulp), because sin/cos per entry dominated the plan time.
std::vector<Cx> makeTwiddles(std::size_t n, std::size_t count) {
  std::vector<Cx> table(count);
  const double unit = -2.0 * kPi / static_cast<double>(n);
  const Cx step{std::cos(unit), std::sin(unit)};
  for (std::size_t k = 0; k < count; ++k) {
    if (k % 64 == 0) {
      const double angle = unit * static_cast<double>(k);
      table[k] = {std::cos(angle), std::sin(angle)};
    } else {
      table[k] = mul(table[k - 1], step);
    }
  }
  return table;
}

std::size_t nextPowerOfTwo(std::size_t n) {
  std::size_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

// Bluestein: the length-m DFT of z (complex) through power-of-two transforms of length ≥ 2m − 1.
std::vector<Cx> bluestein(const std::vector<Cx>& z) {
  const std::size_t m = z.size();
  const std::size_t len = nextPowerOfTwo(2 * m - 1);
  Pow2Fft fft(len);
  std::vector<Cx> chirp(m);  // e^{-i pi j^2 / m}, with j^2 reduced mod 2m exactly in integers
  for (std::size_t j = 0; j < m; ++j) {
    const std::uint64_t r = (static_cast<std::uint64_t>(j) * j) % (2 * static_cast<std::uint64_t>(m));
    const double angle = kPi * static_cast<double>(r) / static_cast<double>(m);
    chirp[j] = {std::cos(angle), -std::sin(angle)};
  }
  std::vector<Cx> a(len, Cx{0.0, 0.0});
  std::vector<Cx> b(len, Cx{0.0, 0.0});
  for (std::size_t j = 0; j < m; ++j) a[j] = mul(z[j], chirp[j]);
  b[0] = {chirp[0].re, -chirp[0].im};
  for (std::size_t j = 1; j < m; ++j) b[j] = b[len - j] = Cx{chirp[j].re, -chirp[j].im};
  fft.forwardToBitReversed(a.data());
  fft.forwardToBitReversed(b.data());
  for (std::size_t k = 0; k < len; ++k) a[k] = mul(a[k], b[k]);  // same order on both sides
  b = std::vector<Cx>();
  fft.inverseFromBitReversed(a.data());
  std::vector<Cx> out(m);
  const double scale = 1.0 / static_cast<double>(len);
  for (std::size_t k = 0; k < m; ++k) {
    const Cx p = mul(a[k], chirp[k]);
    out[k] = {p.re * scale, p.im * scale};
  }
  return out;
}

// Bins 0..n/2 of a real sequence of even length n from the length-n/2 DFT of z[j] = x[2j] + i x[2j+1].
template <typename ZAt, typename Twiddle>
void splitRealSpectrum(std::size_t n, ZAt zAt, Twiddle twiddle, std::complex<double>* out) {
  const std::size_t h = n / 2;
  for (std::size_t k = 0; k <= h; ++k) {
    const Cx zk = zAt(k == h ? 0 : k);
    const Cx zr = zAt(k == 0 ? 0 : h - k);
    const Cx zc{zr.re, -zr.im};
    const Cx even{0.5 * (zk.re + zc.re), 0.5 * (zk.im + zc.im)};
    const Cx d = sub(zk, zc);
    const Cx odd{0.5 * d.im, -0.5 * d.re};  // (zk − zc) / 2i
    const Cx x = add(even, mul(twiddle(k), odd));
    out[k] = {x.re, x.im};
  }
}

}  // namespace

bool isPowerOfTwo(std::size_t n) { return n != 0 && (n & (n - 1)) == 0; }

std::size_t largestPrimeFactor(std::size_t n) {
  std::size_t largest = 1;
  for (std::size_t p = 2; p * p <= n; ++p) {
    while (n % p == 0) {
      largest = p;
      n /= p;
    }
  }
  return n > 1 ? n : largest;
}

Pow2Fft::Pow2Fft(std::size_t n) : n_(n), log2n_(0) {
  if (!isPowerOfTwo(n) || n > (std::size_t{1} << 31)) throw std::invalid_argument("Pow2Fft: size must be a power of two");
  while ((std::size_t{1} << log2n_) < n) ++log2n_;
  twiddle_ = makeTwiddles(n, n >= 4 ? 3 * n / 4 : 1);
}

std::size_t Pow2Fft::bitReverse(std::size_t k) const {
  return log2n_ == 0 ? 0 : reverse32(static_cast<std::uint32_t>(k)) >> (32 - log2n_);
}

void Pow2Fft::forwardToBitReversed(Cx* data) const { dif(data, n_); }
void Pow2Fft::inverseFromBitReversed(Cx* data) const { dit(data, n_); }

// One radix-4 stage over a block of s, then the four quarters (placed in bit-reversed order of
// their residue: r = 0, 2, 1, 3) recursively.
void Pow2Fft::dif(Cx* x, std::size_t s) const {
  if (s == 1) return;
  if (s == 2) {
    const Cx a = x[0], b = x[1];
    x[0] = add(a, b);
    x[1] = sub(a, b);
    return;
  }
  const std::size_t q = s / 4, stride = n_ / s;
  const Cx* tw = twiddle_.data();
  for (std::size_t j = 0; j < q; ++j) {
    const Cx a0 = x[j], a1 = x[j + q], a2 = x[j + 2 * q], a3 = x[j + 3 * q];
    const Cx t0 = add(a0, a2), t1 = sub(a0, a2), t2 = add(a1, a3), d = sub(a1, a3);
    const Cx t3{d.im, -d.re};  // −i (a1 − a3)
    x[j] = add(t0, t2);
    if (j == 0) {
      x[j + q] = sub(t0, t2);
      x[j + 2 * q] = add(t1, t3);
      x[j + 3 * q] = sub(t1, t3);
    } else {
      x[j + q] = mul(sub(t0, t2), tw[2 * j * stride]);
      x[j + 2 * q] = mul(add(t1, t3), tw[j * stride]);
      x[j + 3 * q] = mul(sub(t1, t3), tw[3 * j * stride]);
    }
  }
  if (q == 1) return;
  dif(x, q);
  dif(x + q, q);
  dif(x + 2 * q, q);
  dif(x + 3 * q, q);
}

// The transpose of dif() with conjugate twiddles: quarters first, then the radix-4 combination.
void Pow2Fft::dit(Cx* x, std::size_t s) const {
  if (s == 1) return;
  if (s == 2) {
    const Cx a = x[0], b = x[1];
    x[0] = add(a, b);
    x[1] = sub(a, b);
    return;
  }
  const std::size_t q = s / 4, stride = n_ / s;
  if (q > 1) {
    dit(x, q);
    dit(x + q, q);
    dit(x + 2 * q, q);
    dit(x + 3 * q, q);
  }
  const Cx* tw = twiddle_.data();
  for (std::size_t j = 0; j < q; ++j) {
    Cx u0 = x[j], u1 = x[j + 2 * q], u2 = x[j + q], u3 = x[j + 3 * q];
    if (j != 0) {
      u1 = mulConj(u1, tw[j * stride]);
      u2 = mulConj(u2, tw[2 * j * stride]);
      u3 = mulConj(u3, tw[3 * j * stride]);
    }
    const Cx t0 = add(u0, u2), t1 = sub(u0, u2), t2 = add(u1, u3), d = sub(u1, u3);
    const Cx t3{-d.im, d.re};  // +i (u1 − u3)
    x[j] = add(t0, t2);
    x[j + q] = add(t1, t3);
    x[j + 2 * q] = sub(t0, t2);
    x[j + 3 * q] = sub(t1, t3);
  }
}

RealPow2Fft::RealPow2Fft(std::size_t n, bool allowSimd)
    : n_(n), log2h_(0), roots_(n >= 4 ? n : 4), half_(n >= 2 ? n / 2 : 1, roots_, allowSimd) {
  if (n < 2 || !isPowerOfTwo(n)) throw std::invalid_argument("RealPow2Fft: size must be a power of two ≥ 2");
  while ((std::size_t{1} << log2h_) < n / 2) ++log2h_;
}

void RealPow2Fft::forward(const double* x, std::complex<double>* out, unsigned threads) const {
  const std::size_t h = n_ / 2;
  // z[j] = x[2j] + i x[2j+1], bit-reversed into out (std::complex<double> is layout-compatible
  // with Cx), transformed there, then split into X in place, pairs (k, h − k) together.
  Cx* z = reinterpret_cast<Cx*>(out);
  bitReverseGather(x, z, log2h_);
  half_.run(z, threads);
  finishRealSpectrum(z, h, roots_, half_.usesAvx2());
}

void realDftInto(const double* x, std::size_t n, std::complex<double>* out, const RealPow2Fft* plan, unsigned threads) {
  if (n >= 2 && isPowerOfTwo(n)) {
    if (plan != nullptr && plan->size() == n) {
      plan->forward(x, out, threads);
    } else {
      RealPow2Fft(n).forward(x, out, threads);
    }
    return;
  }
  const std::vector<std::complex<double>> bins = realDft(x, n);
  std::copy(bins.begin(), bins.end(), out);
}

std::vector<std::complex<double>> realDft(const double* x, std::size_t n) {
  std::vector<std::complex<double>> out(n / 2 + 1);
  if (n == 1) {
    out[0] = x[0];
  } else if (isPowerOfTwo(n)) {
    RealPow2Fft(n).forward(x, out.data());
  } else if (largestPrimeFactor(n) <= 61) {
    // Mixed radix: kissfft's butterflies for 2, 3, 4, 5 and a generic O(p) one for the rest.
    Eigen::FFT<double> fft;
    fft.SetFlag(Eigen::FFT<double>::HalfSpectrum);
    fft.fwd(out.data(), x, static_cast<Eigen::Index>(n));
  } else if (n % 2 == 0) {
    std::vector<Cx> z(n / 2);
    for (std::size_t j = 0; j < n / 2; ++j) z[j] = {x[2 * j], x[2 * j + 1]};
    const std::vector<Cx> spectrum = bluestein(z);
    const double step = -2.0 * kPi / static_cast<double>(n);
    splitRealSpectrum(
        n, [&](std::size_t k) { return spectrum[k]; },
        [&](std::size_t k) { return Cx{std::cos(step * static_cast<double>(k)), std::sin(step * static_cast<double>(k))}; },
        out.data());
  } else {
    std::vector<Cx> z(n);
    for (std::size_t j = 0; j < n; ++j) z[j] = {x[j], 0.0};
    const std::vector<Cx> spectrum = bluestein(z);
    for (std::size_t k = 0; k <= n / 2; ++k) out[k] = {spectrum[k].re, spectrum[k].im};
  }
  return out;
}

}  // namespace pesim::analysis::detail

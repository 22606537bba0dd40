// Sine and cosine (sine.hpp). Method (Muller, "Elementary Functions", 3rd ed., ch. 11 and 5):
// - reduction x = k·π/2 + r, |r| ≤ π/4, with π/2 = C1 + C2 + C3 (three doubles): r1 = x − k·C1 in
//   one fused multiply-add (exact product, one rounding; exact when it cancels), then r1 − k·C2 as
//   a rounded r and, in rLow, its rounding error, that of k·C2 and k·C3 (Fast2Sum, FMA products);
// - the Taylor series of sin and cos on |r| ≤ π/4 through r¹⁷ and r¹⁸ (truncation < 1e-19
//   relative), evaluated by Estrin's scheme in z = r² (four independent pairs, then z² and z⁴),
//   which shortens the chain of dependent operations against Horner's eight steps;
// - the tail: sin(r + rLow) ≈ sin r + rLow·cos r, cos(r + rLow) ≈ cos r − rLow·sin r.
// k is rounded with the 1.5·2⁵² shift (round to nearest even for |v| < 2⁵¹), so the code needs
// no SSE4.1 rounding instruction.
#include "math/sine.hpp"

#include <cmath>

#if defined(__GNUC__) && defined(__x86_64__)
#define PESIM_SINE_TARGET __attribute__((target("fma")))
#define PESIM_SINE_DISPATCH 1
#else
#define PESIM_SINE_TARGET
#endif

namespace pesim::math {

namespace {

constexpr double kTwoOverPi = 0x1.45f306dc9c883p-1;
constexpr double kHalfPiHigh = 0x1.921fb54442d18p+0;   // π/2 rounded to double
constexpr double kHalfPiLow = 0x1.1a62633145c07p-54;   // π/2 − kHalfPiHigh, rounded
constexpr double kHalfPiTail = -0x1.f1976b7ed8fbcp-110; // π/2 − kHalfPiHigh − kHalfPiLow, rounded
constexpr double kLargestReduced = 1e5;
constexpr double kRoundShift = 0x1.8p52;

PESIM_SINE_TARGET inline double fma(double a, double b, double c) { return __builtin_fma(a, b, c); }

// r + r·z·(−1/3! + z/5! − z²/7! + … + z⁷/17!)
PESIM_SINE_TARGET inline double sinSeries(double r, double z) {
  const double z2 = z * z;
  const double z4 = z2 * z2;
  const double a = fma(z, 1.0 / 120.0, -1.0 / 6.0);
  const double b = fma(z, 1.0 / 362880.0, -1.0 / 5040.0);
  const double c = fma(z, 1.0 / 6227020800.0, -1.0 / 39916800.0);
  const double d = fma(z, 1.0 / 355687428096000.0, -1.0 / 1307674368000.0);
  const double p = fma(z4, fma(z2, d, c), fma(z2, b, a));
  return fma(r * z, p, r);
}

// 1 − z/2 + z²·(1/4! − z/6! + … − z⁷/18!), with 1 − z/2 as a rounded value and its exact error
// (Fast2Sum, |1| ≥ |z/2|), so the leading terms lose no bits.
PESIM_SINE_TARGET inline double cosSeries(double z) {
  const double z2 = z * z;
  const double z4 = z2 * z2;
  const double a = fma(z, -1.0 / 720.0, 1.0 / 24.0);
  const double b = fma(z, -1.0 / 3628800.0, 1.0 / 40320.0);
  const double c = fma(z, -1.0 / 87178291200.0, 1.0 / 479001600.0);
  const double d = fma(z, -1.0 / 6402373705728000.0, 1.0 / 20922789888000.0);
  const double p = fma(z4, fma(z2, d, c), fma(z2, b, a));
  const double half = 0.5 * z;
  const double high = 1.0 - half;
  const double low = (1.0 - high) - half;
  return high + fma(z2, p, low);
}

// sin(x + quarterTurns·π/2) for |x| < kLargestReduced.
PESIM_SINE_TARGET double sinShifted(double x, long quarterTurns) {
  const double k = fma(x, kTwoOverPi, kRoundShift) - kRoundShift;
  const double r1 = fma(-k, kHalfPiHigh, x);  // exact when it cancels (x next to k·π/2)
  const double t = k * kHalfPiLow;
  const double tLow = fma(k, kHalfPiLow, -t);  // the product's rounding error, exactly
  const double r = r1 - t;
  // Fast2Sum's error of r1 − t (|t| < 2⁻³⁷ is below |r1| whenever the difference is inexact), less
  // the parts of k·π/2 that t leaves out.
  const double rLow = (((r1 - r) - t) - tLow) - k * kHalfPiTail;
  const double z = r * r;
  const long quadrant = (static_cast<long>(k) + quarterTurns) & 3;
  const double value = (quadrant & 1) != 0 ? fma(-r, rLow, cosSeries(z)) : fma(rLow, 1.0 - 0.5 * z, sinSeries(r, z));
  return (quadrant & 2) != 0 ? -value : value;
}

bool reduced(double x) {
#ifdef PESIM_SINE_DISPATCH
  if (!__builtin_cpu_supports("fma")) return false;
#endif
  return std::fabs(x) < kLargestReduced;
}

}  // namespace

double sin(double x) {
  if (!reduced(x)) return std::sin(x);
  if (x == 0.0) return x;  // keeps the sign of −0 (the reduction's sums would give +0)
  return sinShifted(x, 0);
}

double cos(double x) {
  if (!reduced(x)) return std::cos(x);
  return sinShifted(x, 1);
}

}  // namespace pesim::math

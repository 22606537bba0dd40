// Whether the sum of a solution's entries is finite: the time loop's test for a singular or nearly
// singular system, whose solution shows infinite or NaN entries (or entries so large that their sum
// overflows). Runs after every solve, so the common case avoids the chain of dependent additions.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__GNUC__) && defined(__x86_64__)
#define PESIM_FINITE_SUM_AVX2 1
#include <immintrin.h>
#endif

namespace pesim {

namespace detail {

constexpr std::uint64_t kFiniteMagnitude = ~(std::uint64_t{1} << 63);

// Whether every entry's magnitude is below the double with bits `safe` (see finiteSum): the OR of
// (safe − 1) − |bits| keeps its top bit clear exactly when each does.
inline bool entriesBelow(const double* x, std::size_t n, std::uint64_t safe) {
  std::uint64_t failed = 0;
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t bits;
    std::memcpy(&bits, &x[i], sizeof bits);
    failed |= (safe - 1) - (bits & kFiniteMagnitude);
  }
  return (failed >> 63) == 0;
}

#ifdef PESIM_FINITE_SUM_AVX2
// entriesBelow four entries at a time (AVX2: a third of the SSE2 loop's instructions for the dozen
// unknowns of a converter); the top bits of the four ORs are read with one movemask. The same
// answer. Call only where the CPU supports AVX2.
__attribute__((target("avx2"))) inline bool entriesBelowAvx2(const double* x, std::size_t n, std::uint64_t safe) {
  const __m256i magnitude = _mm256_set1_epi64x(static_cast<long long>(kFiniteMagnitude));
  const __m256i bound = _mm256_set1_epi64x(static_cast<long long>(safe - 1));
  __m256i failed = _mm256_setzero_si256();
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const __m256i bits = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + i));
    failed = _mm256_or_si256(failed, _mm256_sub_epi64(bound, _mm256_and_si256(bits, magnitude)));
  }
  return _mm256_movemask_pd(_mm256_castsi256_pd(failed)) == 0 && entriesBelow(x + i, n - i, safe);
}
#endif

}  // namespace detail

// isfinite(x[0] + x[1] + … + x[n−1]). Entries all below 1e300 in magnitude (NaN and infinity are
// not) cannot overflow a sum of fewer than 1e8 of them, so the sum is formed only for a solution
// that fails that test. The test compares the magnitudes' bit patterns as integers (for
// non-negative doubles their order is the numbers' order, NaN above infinity above 1e300):
// m < safe exactly when safe − 1 − m keeps its top bit clear, and the OR of those differences over
// all entries has it clear exactly when every entry passes. Integer subtractions and ORs without
// a branch per entry: the compiler vectorises the loop (SSE2), or four entries at a time with AVX2.
inline bool finiteSum(const double* x, std::size_t n) {
  constexpr double kSafe = 1e300;
  std::uint64_t safe;
  std::memcpy(&safe, &kSafe, sizeof safe);
#ifdef PESIM_FINITE_SUM_AVX2
  const bool below = __builtin_cpu_supports("avx2") ? detail::entriesBelowAvx2(x, n, safe) : detail::entriesBelow(x, n, safe);
#else
  const bool below = detail::entriesBelow(x, n, safe);
#endif
  if (n < 100000000 && below) return true;
  double sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) sum += x[i];
  return std::isfinite(sum);
}

}  // namespace pesim

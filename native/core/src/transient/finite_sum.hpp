// Whether the sum of a solution's entries is finite: the time loop's test for a singular or nearly
// singular system, whose solution shows infinite or NaN entries (or entries so large that their sum
// overflows). Runs after every solve, so the common case avoids the chain of dependent additions.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace pesim {

// isfinite(x[0] + x[1] + … + x[n−1]). Entries all below 1e300 in magnitude (NaN and infinity are
// not) cannot overflow a sum of fewer than 1e8 of them, so the sum is formed only for a solution
// that fails that test. The test compares the magnitudes' bit patterns as integers (for
// non-negative doubles their order is the numbers' order, NaN above infinity above 1e300):
// m < safe exactly when safe − 1 − m keeps its top bit clear, and the OR of those differences over
// all entries has it clear exactly when every entry passes. Integer subtractions and ORs without
// a branch per entry: the compiler vectorises the loop (SSE2).
inline bool finiteSum(const double* x, std::size_t n) {
  constexpr double kSafe = 1e300;
  std::uint64_t safe;
  std::memcpy(&safe, &kSafe, sizeof safe);
  constexpr std::uint64_t kMagnitude = ~(std::uint64_t{1} << 63);
  std::uint64_t failed = 0;
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t bits;
    std::memcpy(&bits, &x[i], sizeof bits);
    failed |= (safe - 1) - (bits & kMagnitude);
  }
  if (n < 100000000 && (failed >> 63) == 0) return true;
  double sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) sum += x[i];
  return std::isfinite(sum);
}

}  // namespace pesim

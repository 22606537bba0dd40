// The refinement's residual b − A·x (mna/residual_rows.hpp): its portable and AVX2 forms against
// the residual formed slot by slot into an array (the order that fixes the engine's results), bit
// for bit, for sizes around the AVX2 form's groups of four rows, rows of different lengths,
// repeated slots of one entry, and values whose rounding shows any change of order (−0, very
// different scales, infinities).
#include <cmath>
#include <limits>
#include <random>

#include "harness.hpp"
#include "mna/residual_rows.hpp"

using namespace pesim;
using namespace pesim::test;

namespace {

// Equal bits, or both NaN (a NaN's payload depends on which operand the compiler puts first).
bool sameResult(double a, double b) { return (std::isnan(a) && std::isnan(b)) || sameBits(a, b); }

bool cpuHasAvx2() {
#if defined(__GNUC__) && defined(__x86_64__)
  return __builtin_cpu_supports("avx2");
#else
  return false;
#endif
}

}  // namespace

TEST(residual_rows_match_the_slot_order_residual_bit_for_bit) {
  std::mt19937 random(11);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  const double inf = std::numeric_limits<double>::infinity();
  for (int n : {1, 2, 3, 4, 5, 7, 8, 9, 12, 31, 33}) {
    for (int variant = 0; variant < 4; ++variant) {
      // Slots out of row order, several per entry, rows from one term to many.
      std::vector<std::pair<int, int>> entries;
      for (int i = n - 1; i >= 0; --i) entries.push_back({i, i});
      for (int k = 0; k < 3 * n; ++k) {
        const int i = static_cast<int>(random() % static_cast<unsigned>(n));
        const int j = static_cast<int>(random() % static_cast<unsigned>(n));
        entries.push_back({i, j});
        if (k % 5 == 0) entries.push_back({i, j});
      }
      for (int k = 0; k < n; ++k) entries.push_back({0, k});  // one long row
      std::vector<double> values(entries.size());
      for (std::size_t s = 0; s < values.size(); ++s) {
        values[s] = uniform(random) * (entries[s].first % 3 == 0 ? 1e6 : 1.0);
        if (s % 7 == 3) values[s] = -0.0;
      }
      std::vector<double> b(static_cast<std::size_t>(n)), x(static_cast<std::size_t>(n));
      for (double& v : b) v = uniform(random) * 1e3;
      for (double& v : x) v = uniform(random);
      if (variant == 1) {
        // Residuals of −0: b = −0 and every term +0 (x = 0, so −0 − (+0) must stay −0).
        for (double& v : b) v = -0.0;
        for (double& v : x) v = 0.0;
      } else if (variant == 2) {
        x[static_cast<std::size_t>(n - 1)] = inf;
        b[0] = -inf;
      } else if (variant == 3) {
        for (std::size_t i = 0; i < x.size(); i += 2) x[i] = -0.0;
      }
      std::vector<double> expected = b;
      for (std::size_t s = 0; s < entries.size(); ++s) {
        expected[static_cast<std::size_t>(entries[s].first)] -=
            values[s] * x[static_cast<std::size_t>(entries[s].second)];
      }
      for (bool avx2 : {false, true}) {
        if (avx2 && !cpuHasAvx2()) continue;
        ResidualRows rows(n, entries, values, avx2);
        CHECK(!rows.empty());
        for (int repeat = 0; repeat < 2; ++repeat) {  // the kept scratch must not leak into a later call
          const double* r = rows.residual(b.data(), x.data());
          bool same = true;
          for (int i = 0; i < n; ++i) same = same && sameResult(r[i], expected[static_cast<std::size_t>(i)]);
          CHECK(same);
        }
      }
    }
  }
}

TEST(residual_rows_of_an_empty_matrix_are_empty) {
  CHECK(ResidualRows().empty());
}

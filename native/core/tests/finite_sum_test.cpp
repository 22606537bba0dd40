// The time loop's singular-solution test (transient/finite_sum.hpp) against its definition, the
// finiteness of the plain sum, on the values around its integer comparison's bound.
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "harness.hpp"
#include "transient/finite_sum.hpp"

using namespace pesim;

namespace {

bool sumIsFinite(const std::vector<double>& x) {
  double sum = 0.0;
  for (double v : x) sum += v;
  return std::isfinite(sum);
}

}  // namespace

TEST(finite_sum_test_matches_the_finiteness_of_the_sum) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double big = std::numeric_limits<double>::max();
  const std::vector<double> special = {0.0, -0.0, 1.0, -3.5, 1e-310, -1e-310, 1e300, -1e300, std::nextafter(1e300, 0.0),
                                       -std::nextafter(1e300, 0.0), std::nextafter(1e300, inf), big, -big, inf, -inf,
                                       nan, -nan, 1e308, -1e308};
  std::mt19937 random(17);
  std::uniform_int_distribution<std::size_t> pick(0, special.size() - 1);
  std::uniform_int_distribution<int> length(0, 40);
  long mismatches = 0, nonFinite = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    std::vector<double> x(static_cast<std::size_t>(length(random)));
    // Mostly ordinary entries with a few special ones, as solutions are.
    for (double& v : x) v = random() % 4 == 0 ? special[pick(random)] : std::ldexp(static_cast<double>(random()) - 2e9, -20);
    const bool expected = sumIsFinite(x);
    nonFinite += !expected;
    mismatches += finiteSum(x.data(), x.size()) != expected;
  }
  CHECK(mismatches == 0);
  CHECK(nonFinite > 1000);  // both answers were tested
  // Each special value alone and in pairs (1e308 + 1e308 overflows; 1e300 takes the sum's path).
  for (double a : special) {
    for (double b : special) {
      std::vector<double> x = {a, 2.0, b};
      CHECK(finiteSum(x.data(), x.size()) == sumIsFinite(x));
    }
  }
}

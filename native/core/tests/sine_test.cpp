// The time loop's sine and cosine (math/sine.hpp) against long-double sinl/cosl: at most 1.5 units
// in the last place over the reduced range, on random arguments, next to the multiples of π/2
// (where the reduction cancels) and at the special values, which take the C library's path.
#include <cmath>
#include <limits>
#include <random>

#include "harness.hpp"
#include "math/sine.hpp"

namespace {

constexpr long double kPiLong = 3.141592653589793238462643383279502884L;

// |value − exact| in units of the last place of the exact value rounded to double.
double ulpError(double value, long double exact) {
  const double rounded = static_cast<double>(exact);
  const double ulp = std::nextafter(std::fabs(rounded), std::numeric_limits<double>::infinity()) - std::fabs(rounded);
  return static_cast<double>(std::fabs(static_cast<long double>(value) - exact)) / ulp;
}

struct Worst {
  double sin = 0.0, cos = 0.0;
  void add(double x) {
    sin = std::fmax(sin, ulpError(pesim::math::sin(x), sinl(static_cast<long double>(x))));
    cos = std::fmax(cos, ulpError(pesim::math::cos(x), cosl(static_cast<long double>(x))));
  }
};

}  // namespace

TEST(sine_within_one_and_a_half_ulp_on_random_arguments) {
  std::mt19937_64 random(5);
  for (double span : {1.0, 10.0, 1000.0, 99999.0}) {
    std::uniform_real_distribution<double> pick(-span, span);
    Worst worst;
    for (int i = 0; i < 200000; ++i) worst.add(pick(random));
    CHECK(worst.sin <= 1.5);
    CHECK(worst.cos <= 1.5);
  }
}

TEST(sine_within_one_and_a_half_ulp_next_to_multiples_of_half_pi) {
  Worst worst;
  for (int k = -4000; k <= 4000; ++k) {
    double x = static_cast<double>(static_cast<long double>(k) * kPiLong / 2.0L);
    for (int step = 0; step < 8; ++step) x = std::nextafter(x, -1e300);
    for (int step = 0; step < 16; ++step, x = std::nextafter(x, 1e300)) worst.add(x);
  }
  CHECK(worst.sin <= 1.5);
  CHECK(worst.cos <= 1.5);
}

TEST(sine_of_special_and_large_arguments_as_the_c_library) {
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(std::isnan(pesim::math::sin(std::nan(""))));
  CHECK(std::isnan(pesim::math::cos(inf)));
  CHECK(std::isnan(pesim::math::sin(-inf)));
  CHECK(pesim::math::sin(0.0) == 0.0 && !std::signbit(pesim::math::sin(0.0)));
  CHECK(pesim::math::sin(-0.0) == 0.0 && std::signbit(pesim::math::sin(-0.0)));
  CHECK(pesim::math::cos(-0.0) == 1.0);
  for (double x : {1e5, -1e5, 3e7, 1e300}) {
    CHECK(pesim::math::sin(x) == std::sin(x));
    CHECK(pesim::math::cos(x) == std::cos(x));
  }
  // Exact values of the reduction's quadrants.
  CHECK(pesim::math::sin(1e-300) == 1e-300);
  CHECK_NEAR(pesim::math::sin(static_cast<double>(kPiLong / 6.0L)), 0.5, 3e-16);
  CHECK_NEAR(pesim::math::cos(static_cast<double>(kPiLong / 3.0L)), 0.5, 3e-16);
}

// The small dense solve's product in AVX2 registers against the portable loop, bit for bit, for
// every fixed size (mna/dense_product.hpp), on values of very different magnitudes and signs, as
// the inverses of MNA matrices have.
#include <cmath>
#include <random>
#include <utility>
#include <vector>

#include "harness.hpp"
#include "mna/dense_product.hpp"

using namespace pesim;
using pesim::test::sameBits;

namespace {

// Mismatching entries of the two products over `trials` random matrices and vectors of size N.
template <std::size_t N>
long mismatches(std::mt19937& random, int trials) {
  long count = 0;
#ifdef PESIM_DENSE_PRODUCT_AVX2
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-12, 12);
  auto draw = [&] { return std::ldexp(mantissa(random), exponent(random)); };
  std::vector<double> m(N * N), b(N), portable(N), avx2(N);
  for (int trial = 0; trial < trials; ++trial) {
    for (double& v : m) v = draw();
    for (double& v : b) v = draw();
    denseProductPortable<N>(m.data(), b.data(), portable.data());
    denseProductAvx2<N>(m.data(), b.data(), avx2.data());
    for (std::size_t i = 0; i < N; ++i) count += !sameBits(portable[i], avx2[i]);
  }
#else
  (void)random;
  (void)trials;
#endif
  return count;
}

template <std::size_t... N>
long mismatchesForSizes(std::mt19937& random, std::index_sequence<N...>) {
  return (mismatches<N + 1>(random, 2000) + ...);
}

}  // namespace

TEST(dense_product_in_avx2_registers_matches_the_portable_loop_bit_for_bit) {
  if (!denseProductAvx2Supported()) return;  // nothing to compare on this CPU
  std::mt19937 random(2024);
  CHECK(mismatchesForSizes(random, std::make_index_sequence<16>()) == 0);
}

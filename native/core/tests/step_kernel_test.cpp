// The pieces of the time loop that were made faster without changing a result (the AVX-512
// product of larger systems: within a dot product's error bound): the dense solve of small
// systems (against Eigen's LU), the PULSE period reduction without a division per step
// (against the division, bit for bit), the devirtualised element lists (order and dispatch), and
// the meters read straight from the solution (against the element's own current).
#include <cmath>
#include <limits>
#include <random>

#include <Eigen/Dense>

#include "builders.hpp"
#include "circuit/params.hpp"
#include "elements/waveform.hpp"
#include "harness.hpp"
#include "mna/factorization.hpp"
#include "transient/typed_list.hpp"

using namespace pesim;
using namespace pesim::test;

namespace {

// A full n×n pattern whose slot s is entry (s / n, s % n).
Pattern fullPattern(int n) {
  Pattern pattern(n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) pattern.entry(i, j);
  }
  return pattern;
}

// SPICE PULSE with the period reduced by a division, as the engine computed it before.
double referencePulse(double t, double v1, double v2, double td, double tr, double tf, double pw, double per) {
  if (t < td) return v1;
  double local = t - td;
  if (per > 0.0) local -= per * std::floor(local / per);
  if (local < tr) return v1 + (v2 - v1) * (tr > 0.0 ? local / tr : 1.0);
  local -= tr;
  if (local <= pw) return v2;
  local -= pw;
  if (local < tf) return v2 + (v1 - v2) * local / tf;
  return v1;
}

}  // namespace

TEST(small_dense_solves_match_eigen_for_every_size) {
  std::mt19937 random(7);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  // Sizes with a compile-time solve (1..8) and the general one after them.
  for (int n = 1; n <= 12; ++n) {
    Eigen::MatrixXd a(n, n);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) a(i, j) = uniform(random) + (i == j ? 4.0 : 0.0);
    }
    // Entries of very different scales, as in MNA matrices (equilibration handles them).
    a.row(0) *= 1e6;
    a.col(n - 1) *= 1e-4;
    Pattern pattern = fullPattern(n);
    std::vector<double> values(static_cast<std::size_t>(n * n));
    for (int s = 0; s < n * n; ++s) values[static_cast<std::size_t>(s)] = a(s / n, s % n);
    auto lu = Factorizer(pattern, true).factorize(values);
    CHECK(lu != nullptr);
    if (!lu) continue;
    Eigen::VectorXd b(n);
    for (int i = 0; i < n; ++i) b(i) = uniform(random) * 10.0;
    Eigen::VectorXd expected = a.partialPivLu().solve(b);
    Eigen::VectorXd x(n);
    lu->solve(b.data(), x.data());
    CHECK((x - expected).norm() <= 1e-12 * expected.norm());
    // The in-place solve gives the same numbers bit for bit.
    Eigen::VectorXd inPlace = b;
    lu->solve(inPlace);
    for (int i = 0; i < n; ++i) CHECK(sameBits(inPlace(i), x(i)));
  }
}

TEST(dense_and_sparse_raw_solves_agree) {
  const int n = 6;
  Eigen::MatrixXd a = Eigen::MatrixXd::Identity(n, n) * 3.0;
  for (int i = 0; i + 1 < n; ++i) a(i, i + 1) = a(i + 1, i) = -1.0;
  Pattern pattern = fullPattern(n);
  std::vector<double> values(static_cast<std::size_t>(n * n));
  for (int s = 0; s < n * n; ++s) values[static_cast<std::size_t>(s)] = a(s / n, s % n);
  auto dense = Factorizer(pattern, true).factorize(values);
  auto sparse = Factorizer(pattern, false).factorize(values);
  CHECK(dense && sparse);
  if (!dense || !sparse) return;
  Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(n, 1.0, 6.0);
  Eigen::VectorXd x1(n), x2(n);
  dense->solve(b.data(), x1.data());
  sparse->solve(b.data(), x2.data());
  CHECK((x1 - x2).norm() <= 1e-13 * x1.norm());
  CHECK((a * x1 - b).norm() <= 1e-13 * b.norm());
}

TEST(pulse_without_a_division_per_step_matches_the_division_bit_for_bit) {
  ParameterSet set;
  set.strings["waveform"] = "pulse";
  const double v1 = -0.5, v2 = 1.25, td = 3e-6, tr = 1e-9, tf = 2e-9, pw = 25e-6, per = 50e-6;
  set.numbers = {{"v1", v1}, {"v2", v2}, {"delay", td}, {"rise", tr}, {"fall", tf}, {"width", pw}, {"period", per}};
  Waveform w = Waveform::fromParams(Params("V.1", set), -1);
  long mismatches = 0;
  auto check = [&](double t) {
    if (!sameBits(w.value(t, nullptr), referencePulse(t, v1, v2, td, tr, tf, pw, per))) ++mismatches;
  };
  // A fixed-step run over 40 periods, with time from the step index as the engine computes it.
  for (long n = 0; n <= 40000; ++n) check(static_cast<double>(n) * 5e-8);
  // The edges of many periods and their neighbouring doubles, forwards and backwards in time.
  for (int k = 0; k < 200; ++k) {
    const double edge = td + k * per;
    for (double t : {edge, std::nextafter(edge, 0.0), std::nextafter(edge, 1.0), edge + tr, edge + tr + pw,
                     edge + tr + pw + tf, edge - 1e-15, edge + 1e-15}) {
      check(t);
    }
  }
  for (int k = 199; k >= 0; --k) check(td + k * per + 0.5 * per);
  // Random times, far beyond 2^20 periods too (no remembered floor there).
  std::mt19937 random(11);
  std::uniform_real_distribution<double> near(0.0, 1e-2), far(50.0, 1e3);
  for (int i = 0; i < 20000; ++i) check(near(random));
  for (int i = 0; i < 2000; ++i) check(far(random));
  CHECK(mismatches == 0);
}

namespace {

struct Shape {
  virtual ~Shape() = default;
  virtual int kind() const { return 0; }
};
struct Square final : Shape {
  int kind() const override { return 1; }
  int squareOnly() const { return 10; }
};
struct Circle final : Shape {
  int kind() const override { return 2; }
  int circleOnly() const { return 20; }
};
struct Triangle : Shape {
  int kind() const override { return 3; }
};

}  // namespace

TEST(typed_list_keeps_the_order_and_calls_the_concrete_type) {
  Square square;
  Circle circle;
  Triangle triangle;
  TypedList<Shape, Square, Circle> list;
  for (Shape* s : std::vector<Shape*>{&circle, &triangle, &square, &circle}) list.add(s);
  std::vector<int> seen;
  list.forEach([&](auto* shape) {
    using T = std::remove_pointer_t<decltype(shape)>;
    if constexpr (std::is_same_v<T, Square>) seen.push_back(shape->squareOnly());
    else if constexpr (std::is_same_v<T, Circle>) seen.push_back(shape->circleOnly());
    else seen.push_back(shape->kind());  // an unlisted type, through the base class
  });
  CHECK((seen == std::vector<int>{20, 3, 10, 20}));
  CHECK(list.size() == 4);
  CHECK(list[1] == &triangle);
  int visited = 0;
  list.visit(2, [&](auto* shape) { visited = shape->kind(); });
  CHECK(visited == 1);
}

TEST(typed_list_by_type_visits_each_element_once_with_its_position) {
  Square square1, square2;
  Circle circle;
  Triangle triangle;
  TypedList<Shape, Square, Circle> list;
  for (Shape* s : std::vector<Shape*>{&circle, &square1, &triangle, &square2}) list.add(s);
  CHECK(!list.allListed());
  // Squares in list order, then circles, then the unlisted types; each with its list position.
  std::vector<std::pair<std::size_t, int>> seen;
  list.forEachByType([&](std::size_t i, auto* shape) {
    using T = std::remove_pointer_t<decltype(shape)>;
    if constexpr (std::is_same_v<T, Square>) seen.push_back({i, shape->squareOnly()});
    else if constexpr (std::is_same_v<T, Circle>) seen.push_back({i, shape->circleOnly()});
    else seen.push_back({i, shape->kind()});
    CHECK(list[i] == shape);
  });
  CHECK((seen == std::vector<std::pair<std::size_t, int>>{{1, 10}, {3, 10}, {0, 20}, {2, 3}}));
  TypedList<Shape, Square, Circle> listed;
  listed.add(&circle);
  listed.add(&square1);
  CHECK(listed.allListed());
}

TEST(meters_read_from_the_solution_equal_the_element_currents) {
  // A buck: a source-driven gate node (its source current is 0), a branch-current source and
  // inductor, a capacitor and a resistor (computed currents), and a voltmeter with the reference as
  // plus.
  Netlist n;
  n.elements = {element("V.1", "V", {"in", "0"}, {{"value", 10.0}}, {{"waveform", "dc"}}),
                element("V.G", "V", {"g", "0"}, {{"v1", 0.0}, {"v2", 1.0}, {"width", 5e-6}, {"period", 1e-5}},
                        {{"waveform", "pulse"}}),
                element("S.1", "VSW", {"in", "a", "g", "0"}, {{"ron", 0.1}, {"roff", 1e6}, {"vt", 0.5}}),
                element("D.1", "D", {"0", "a"}, {{"vf", 0.7}, {"ron", 0.01}, {"roff", 1e6}}),
                element("L.1", "L", {"a", "b"}, {{"L", 1e-4}}),
                element("C.1", "C", {"b", "0"}, {{"C", 1e-6}}),
                element("R.1", "R", {"b", "0"}, {{"R", 10.0}})};
  n.blocks = {block("AMP.V", "AMP", {}, {"iv"}, {}, {{"element", "V.1"}}),
              block("AMP.G", "AMP", {}, {"ig"}, {}, {{"element", "V.G"}}),
              block("AMP.L", "AMP", {}, {"il"}, {}, {{"element", "L.1"}}),
              block("AMP.C", "AMP", {}, {"ic"}, {}, {{"element", "C.1"}}),
              block("AMP.R", "AMP", {}, {"ir"}, {}, {{"element", "R.1"}}),
              voltmeter("VOLT.B", "vb", "b", "0"),
              voltmeter("VOLT.N", "vn", "0", "b"),
              block("AMP.S", "AMP", {}, {"is"}, {}, {{"element", "S.1"}}),
              block("AMP.D", "AMP", {}, {"id"}, {}, {{"element", "D.1"}}),
              block("SCOPE.1", "SCOPE", {"iv", "ig", "il", "ic", "ir", "vb", "vn", "is", "id"}, {})};
  n.settings.tEnd = 1e-4;
  n.settings.dt = 1e-7;
  n.settings.method = Method::Trapezoidal;
  Result r = simulate(n, RunControl{});
  const auto& iv = channel(r, "SCOPE.1.ch1").values;
  const auto& ig = channel(r, "SCOPE.1.ch2").values;
  const auto& il = channel(r, "SCOPE.1.ch3").values;
  const auto& ic = channel(r, "SCOPE.1.ch4").values;
  const auto& ir = channel(r, "SCOPE.1.ch5").values;
  const auto& vb = channel(r, "SCOPE.1.ch6").values;
  const auto& vn = channel(r, "SCOPE.1.ch7").values;
  const auto& is = channel(r, "SCOPE.1.ch8").values;
  const auto& id = channel(r, "SCOPE.1.ch9").values;
  double worstKcl = 0.0;
  bool exact = true;
  for (std::size_t k = 0; k < vb.size(); ++k) {
    exact = exact && ig[k] == 0.0 && sameBits(vn[k], 0.0 - vb[k]) && sameBits(ir[k], 0.1 * vb[k]);
    // Node in: the source delivers the switch current (negative through V.1 from + to −); node a:
    // switch and diode feed the inductor; node b: the inductor current splits into C and R.
    worstKcl = std::max(worstKcl, std::abs(iv[k] + is[k]));
    worstKcl = std::max(worstKcl, std::abs(is[k] + id[k] - il[k]));
    if (k > 0) worstKcl = std::max(worstKcl, std::abs(il[k] - ic[k] - ir[k]));
  }
  CHECK(exact);
  CHECK(worstKcl < 1e-9);
  CHECK(measurement(r, "SCOPE.1.ch6.max") > 1.0);
}

namespace {

// A well-conditioned n×n MNA-like matrix (a dominant diagonal, rows of very different scales) as
// slot values of fullPattern(n).
std::vector<double> randomSystem(int n, std::mt19937& random) {
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<double> values(static_cast<std::size_t>(n * n));
  for (int s = 0; s < n * n; ++s) {
    const int i = s / n, j = s % n;
    values[static_cast<std::size_t>(s)] = (uniform(random) + (i == j ? 2.0 * n : 0.0)) * (i % 3 == 0 ? 1e5 : 1.0);
  }
  return values;
}

}  // namespace

TEST(dense_products_of_every_width_match_the_column_order_sum) {
  // Sizes above the compile-time ones: the AVX2 product in blocks of 32, 16 and 4 rows (and the
  // padded rows of a size that is no multiple of 4) must give x_i = 0.0 + Σ_j M(i, j)·b_j summed in
  // column order, a multiplication and an addition each rounded, bit for bit. On a CPU with
  // AVX-512 the product sums even and odd columns apart with fused multiply-adds: there x_i must
  // be within the error bound of a dot product, n·u·Σ_j |M(i, j)·b_j| (Higham §3.1), of the exact
  // sum (long double), and differ from the column-order sum somewhere (the other path ran).
  const bool avx512 = __builtin_cpu_supports("avx512f");
  std::mt19937 random(23);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (int n : {17, 20, 31, 32, 33, 47, 48, 63, 64, 70}) {
    auto lu = Factorizer(fullPattern(n), true).factorize(randomSystem(n, random));
    CHECK(lu != nullptr);
    if (!lu) continue;
    // Column j of M = A⁻¹ is the solve of e_j (every other product is an exact 0).
    std::vector<double> m(static_cast<std::size_t>(n * n));
    std::vector<double> e(static_cast<std::size_t>(n), 0.0), column(static_cast<std::size_t>(n));
    for (int j = 0; j < n; ++j) {
      e[static_cast<std::size_t>(j)] = 1.0;
      lu->solve(e.data(), column.data());
      e[static_cast<std::size_t>(j)] = 0.0;
      for (int i = 0; i < n; ++i) m[static_cast<std::size_t>(j * n + i)] = column[static_cast<std::size_t>(i)];
    }
    // x with four guard values after its n: the product writes x straight (no padded copy) and
    // must leave whatever follows it alone.
    std::vector<double> b(static_cast<std::size_t>(n)), x(static_cast<std::size_t>(n) + 4, -7.5);
    for (double& v : b) v = uniform(random) * 100.0;
    lu->solve(b.data(), x.data());
    bool same = true, withinBound = true;
    for (int i = 0; i < n; ++i) {
      double sum = 0.0, magnitude = 0.0;
      long double exact = 0.0L;
      for (int j = 0; j < n; ++j) {
        const double term = m[static_cast<std::size_t>(j * n + i)] * b[static_cast<std::size_t>(j)];
        sum += term;
        magnitude += std::fabs(term);
        exact += static_cast<long double>(m[static_cast<std::size_t>(j * n + i)]) * b[static_cast<std::size_t>(j)];
      }
      same = same && sameBits(sum, x[static_cast<std::size_t>(i)]);
      const double bound = n * std::numeric_limits<double>::epsilon() / 2.0 * magnitude;
      withinBound = withinBound && std::fabs(static_cast<long double>(x[static_cast<std::size_t>(i)]) - exact) <= bound;
    }
    CHECK(avx512 ? !same : same);
    CHECK(withinBound);
    for (int i = n; i < n + 4; ++i) CHECK(x[static_cast<std::size_t>(i)] == -7.5);
  }
}

TEST(refinement_by_rows_matches_the_residual_in_slot_order_bit_for_bit) {
  // The residual b − A·x formed slot by slot (each row's terms in slot order, into an array) and by
  // rows (the engine's way: each row in a register, rows sorted by length) must be the same, so the
  // refined solution is too. The pattern has rows of different lengths and slots out of row order.
  std::mt19937 random(5);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (int n : {5, 12, 31}) {
    Pattern pattern(n);
    for (int i = n - 1; i >= 0; --i) pattern.entry(i, i);
    for (int k = 0; k < 3 * n; ++k) {
      const int i = static_cast<int>(random() % static_cast<unsigned>(n));
      const int j = static_cast<int>(random() % static_cast<unsigned>(n));
      pattern.entry(i, j);
    }
    const auto& entries = pattern.entries();
    std::vector<double> values(entries.size());
    for (std::size_t s = 0; s < entries.size(); ++s) {
      values[s] = uniform(random) + (entries[s].first == entries[s].second ? 4.0 * n : 0.0);
      if (entries[s].first % 2 == 0) values[s] *= 1e6;  // rows of very different scales
    }
    auto lu = Factorizer(pattern, true).factorize(values);
    CHECK(lu != nullptr);
    if (!lu) continue;
    lu->keepForRefinement(n, entries, values);
    CHECK(lu->refines());
    std::vector<double> b(static_cast<std::size_t>(n));
    for (double& v : b) v = uniform(random) * 1e3;
    std::vector<double> x(static_cast<std::size_t>(n)), expected(static_cast<std::size_t>(n));
    lu->solve(b.data(), x.data());
    expected = x;
    lu->refine(b.data(), x.data());
    std::vector<double> residual(static_cast<std::size_t>(n)), correction(static_cast<std::size_t>(n));
    for (int pass = 0; pass < 2; ++pass) {
      residual = b;
      for (std::size_t s = 0; s < entries.size(); ++s) {
        residual[static_cast<std::size_t>(entries[s].first)] -= values[s] * expected[static_cast<std::size_t>(entries[s].second)];
      }
      lu->solve(residual.data(), correction.data());
      for (int i = 0; i < n; ++i) expected[static_cast<std::size_t>(i)] += correction[static_cast<std::size_t>(i)];
    }
    bool same = true;
    for (int i = 0; i < n; ++i) same = same && sameBits(x[static_cast<std::size_t>(i)], expected[static_cast<std::size_t>(i)]);
    CHECK(same);
  }
}

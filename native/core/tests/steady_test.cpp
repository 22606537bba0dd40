// The periodic steady-state analysis (steady/): the settled period of a buck converter against the
// last period of a long transient run (fast and full Jacobian), no Newton step for a circuit
// settled in its warm-up, GCR keeping its directions, the period found from the sources, and the
// refusals.
#include <algorithm>
#include <cmath>

#include "builders.hpp"
#include "harness.hpp"
#include "pesim/errors.hpp"
#include "steady/gcr.hpp"
#include "steady/period.hpp"

using namespace pesim;
using namespace pesim::test;

namespace {

Netlist buck(double tEnd, Method method) {
  Netlist n = buckConverter(tEnd, method);
  n.settings.maxPoints = 100000000;
  return n;
}

// Largest difference between the steady period and the last period of the transient, over the
// channel's full scale.
double periodMismatch(const Result& steady, const Result& transient, const std::string& key) {
  const auto& s = channel(steady, key).values;
  const auto& t = channel(transient, key).values;
  if (s.size() < 2 || t.size() < s.size()) return INFINITY;
  const std::size_t offset = t.size() - s.size();
  double fullScale = 0.0, worst = 0.0;
  for (double v : s) fullScale = std::max(fullScale, std::fabs(v));
  for (std::size_t i = 0; i < s.size(); ++i) worst = std::max(worst, std::fabs(s[i] - t[offset + i]));
  return worst / fullScale;
}

void checkBuck(Method method) {
  Result transient = simulate(buck(40e-3, method), RunControl{});  // 800 periods: settled far below 1e-6
  Result steady = steadyState(buck(40e-3, method), SteadyOptions{}, RunControl{});
  CHECK(steady.steady.has_value());
  CHECK(steady.steady->converged);
  CHECK(steady.steady->method == "shooting");
  CHECK(steady.steady->stepsPerPeriod == 500);
  CHECK_NEAR(steady.steady->period, 50e-6, 1e-15);
  CHECK(steady.steady->error <= 1e-9);
  CHECK(steady.steady->periods < 40);  // the transient needs hundreds of periods
  CHECK(steady.points == 501);
  CHECK_NEAR(steady.time.back(), 50e-6, 1e-12);
  CHECK(periodMismatch(steady, transient, "SCOPE.1.ch1") < 1e-4);
  CHECK(periodMismatch(steady, transient, "SCOPE.1.ch2") < 1e-4);
  CHECK_NEAR(measurement(steady, "SCOPE.1.ch1.avg"), measurement(transient, "SCOPE.1.ch1.avg"), 2e-3);
}

}  // namespace

TEST(steady_fast_and_full_jacobian_give_the_same_period) {
  SteadyOptions full;
  full.jacobian = SteadyJacobian::Full;
  SteadyOptions coarse;
  coarse.perturbation = 1e-3;
  const Result a = steadyState(buck(40e-3, Method::Trapezoidal), SteadyOptions{}, RunControl{});
  const Result b = steadyState(buck(40e-3, Method::Trapezoidal), full, RunControl{});
  const Result c = steadyState(buck(40e-3, Method::Trapezoidal), coarse, RunControl{});
  for (const Result* r : {&a, &b, &c}) {
    CHECK(r->steady->converged);
    CHECK(r->steady->iterations > 0);
  }
  // The fast Jacobian keeps the products: never more periods than new ones at every step.
  CHECK(a.steady->periods <= b.steady->periods);
  CHECK(periodMismatch(a, b, "SCOPE.1.ch1") < 1e-8);
  CHECK(periodMismatch(c, b, "SCOPE.1.ch2") < 1e-8);
}

TEST(steady_needs_no_newton_step_after_a_settling_warm_up) {
  SteadyOptions options;
  options.initPeriods = 3000;  // 150 ms: the buck has settled far below the tolerance
  options.tolerance = 1e-6;
  const Result r = steadyState(buck(1e-3, Method::Trapezoidal), options, RunControl{});
  CHECK(r.steady->converged);
  CHECK(r.steady->iterations == 0);
  CHECK(r.steady->periods == 3001);  // the warm-up and the recorded period that repeated its start
  CHECK(r.steady->error <= 1e-6);
  CHECK(r.points == 501);
  CHECK_NEAR(r.steady->periodStart, 3000 * 50e-6, 1e-12);
}

TEST(steady_gcr_keeps_its_directions_for_the_next_right_hand_side) {
  // A = [[4, 1, 0], [0, 3, 1], [1, 0, 2]]
  auto apply = [](const std::vector<double>& v) {
    return std::vector<double>{4 * v[0] + v[1], 3 * v[1] + v[2], v[0] + 2 * v[2]};
  };
  Gcr gcr;
  const GcrResult first = gcr.solve(apply, {1.0, 2.0, 3.0}, 1e-14, 0.0, 10);
  CHECK(first.products == 3);
  const std::vector<double> ax = apply(first.x);
  CHECK_NEAR(ax[0], 1.0, 1e-12);
  CHECK_NEAR(ax[1], 2.0, 1e-12);
  CHECK_NEAR(ax[2], 3.0, 1e-12);
  // The three directions span the space: another right-hand side needs no product.
  const GcrResult second = gcr.solve(apply, {-1.0, 0.5, 2.0}, 1e-14, 0.0, 10);
  CHECK(second.products == 0);
  CHECK(second.residual < 1e-12);
  gcr.forget();
  CHECK(gcr.directions() == 0);
  CHECK(gcr.solve(apply, {-1.0, 0.5, 2.0}, 1e-14, 0.0, 10).products == 3);
}

TEST(steady_buck_matches_the_settled_transient_backward_euler) { checkBuck(Method::BackwardEuler); }
TEST(steady_buck_matches_the_settled_transient_trapezoidal) { checkBuck(Method::Trapezoidal); }

TEST(steady_common_period_of_sources) {
  CHECK_NEAR(commonPeriod(20e-3, 100e-6), 20e-3, 1e-15);
  CHECK_NEAR(commonPeriod(1.0 / 3e3, 1.0 / 2e3), 1e-3, 1e-15);
  CHECK(commonPeriod(1.0, std::sqrt(2.0)) == 0.0);
}

TEST(steady_period_is_a_whole_number_of_steps) {
  // 35 kHz at 100 ns: 285.714… steps; 7 periods are 2000 steps.
  Netlist n = buck(1e-3, Method::BackwardEuler);
  n.blocks[0].params.numbers["frequency"] = 35e3;
  Result r = steadyState(n, SteadyOptions{}, RunControl{});
  CHECK(r.steady->stepsPerPeriod == 2000);
  CHECK(r.steady->converged);
}

TEST(steady_refuses_circuits_without_a_periodic_source) {
  Netlist n = buck(1e-3, Method::BackwardEuler);
  n.blocks[0] = block("SIGNAL.1", "CONST", {}, {"g"}, {{"value", 1.0}});
  bool refused = false;
  try {
    steadyState(n, SteadyOptions{}, RunControl{});
  } catch (const Error& e) {
    refused = e.code() == ErrorCode::SteadyStateUnsupported &&
              std::string(e.what()).find("no periodic source") != std::string::npos;
  }
  CHECK(refused);
  // With a period given, the DC steady state is found.
  SteadyOptions given;
  given.period = 10e-6;
  Result r = steadyState(n, given, RunControl{});
  CHECK(r.steady->converged);
  CHECK_NEAR(measurement(r, "SCOPE.1.ch1.avg"), 48.0 * 5.0 / 5.01, 0.05);
}

TEST(steady_refuses_a_random_source) {
  Netlist n = buck(1e-3, Method::BackwardEuler);
  n.blocks.push_back(block("RANDOM.1", "RANDOM", {}, {"noise"}));
  bool refused = false;
  try {
    steadyState(n, SteadyOptions{}, RunControl{});
  } catch (const Error& e) {
    refused = e.code() == ErrorCode::SteadyStateUnsupported && std::string(e.what()).find("RANDOM.1") != std::string::npos;
  }
  CHECK(refused);
}

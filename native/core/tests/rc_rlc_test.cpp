// Analytic checks of the integration methods: RC charging and series RLC ringing.
#include <cmath>
#include <limits>

#include "builders.hpp"
#include "harness.hpp"

using namespace pesim;
using namespace pesim::test;

namespace {

// V 1 V step into R = 1 kΩ, C = 1 µF (tau = 1 ms), 5 ms at dt = 10 µs; vC = 1 − exp(−t/tau).
Netlist rcNetlist(Method method, double dt) {
  Netlist n;
  n.elements = {element("V.1", "V", {"in", "0"}, {{"value", 1.0}}, {{"waveform", "dc"}}),
                element("R.1", "R", {"in", "out"}, {{"R", 1000.0}}),
                element("C.1", "C", {"out", "0"}, {{"C", 1e-6}})};
  n.blocks = {voltmeter("VOLT.1", "vc", "out", "0"), block("SCOPE.1", "SCOPE", {"vc"}, {})};
  n.settings.tEnd = 5e-3;
  n.settings.dt = dt;
  n.settings.method = method;
  return n;
}

// Largest deviation of a recorded channel from the closed form. A channel that is empty, shorter
// than the run or out of step with the time axis counts as infinitely wrong, so that a recorder
// that drops samples fails the checks instead of passing them with an error of 0.
template <typename Exact>
double maxError(const Result& r, const std::string& key, Exact exact) {
  const auto& v = channel(r, key).values;
  const double endTime = r.time.empty() ? 0.0 : r.time.back();
  if (v.size() < 2 || v.size() != r.time.size() || endTime <= 0.0) return std::numeric_limits<double>::infinity();
  double worst = 0.0;
  for (std::size_t i = 0; i < v.size(); ++i) worst = std::max(worst, std::abs(v[i] - exact(r.time[i])));
  return worst;
}

double maxRcError(Method method, double dt) {
  Result r = simulate(rcNetlist(method, dt), RunControl{});
  CHECK_NEAR(r.time.back(), 5e-3, 1e-12);
  return maxError(r, "SCOPE.1.ch1", [](double t) { return 1.0 - std::exp(-t / 1e-3); });
}

}  // namespace

TEST(rc_step_backward_euler) { CHECK(maxRcError(Method::BackwardEuler, 1e-5) < 5e-3); }
TEST(rc_step_trapezoidal) { CHECK(maxRcError(Method::Trapezoidal, 1e-5) < 1e-4); }
TEST(rc_step_gear) { CHECK(maxRcError(Method::Gear, 1e-5) < 2e-4); }

TEST(rc_order_of_accuracy) {
  // Halving dt divides the error by 2^order.
  double be = std::log2(maxRcError(Method::BackwardEuler, 2e-5) / maxRcError(Method::BackwardEuler, 1e-5));
  double tr = std::log2(maxRcError(Method::Trapezoidal, 2e-5) / maxRcError(Method::Trapezoidal, 1e-5));
  CHECK_NEAR(be, 1.0, 0.15);
  CHECK_NEAR(tr, 2.0, 0.3);
}

TEST(series_rlc_ringing_trapezoidal) {
  // 1 V step, R = 1 Ω, L = 1 mH, C = 10 µF: alpha = R/2L = 500 /s, w0 = 1/sqrt(LC) = 10 000 rad/s.
  Netlist n;
  n.elements = {element("V.1", "V", {"in", "0"}, {{"value", 1.0}}, {{"waveform", "dc"}}),
                element("R.1", "R", {"in", "a"}, {{"R", 1.0}}),
                element("L.1", "L", {"a", "b"}, {{"L", 1e-3}}),
                element("C.1", "C", {"b", "0"}, {{"C", 1e-5}})};
  n.blocks = {voltmeter("VOLT.1", "vc", "b", "0"), block("SCOPE.1", "SCOPE", {"vc"}, {})};
  n.settings.tEnd = 2e-3;
  n.settings.dt = 1e-7;
  n.settings.method = Method::Trapezoidal;
  Result r = simulate(n, RunControl{});
  const double alpha = 500.0, w0 = 1e4, wd = std::sqrt(w0 * w0 - alpha * alpha);
  CHECK_NEAR(r.time.back(), 2e-3, 1e-12);
  const double worst = maxError(r, "SCOPE.1.ch1", [&](double t) {
    return 1.0 - std::exp(-alpha * t) * (std::cos(wd * t) + alpha / wd * std::sin(wd * t));
  });
  CHECK(worst < 1e-4);
}

// Analytic checks of the integration methods: RC charging and series RLC ringing.
#include <cmath>

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

double maxRcError(Method method, double dt) {
  Result r = simulate(rcNetlist(method, dt), RunControl{});
  const auto& v = channel(r, "SCOPE.1.ch1").values;
  double worst = 0.0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    worst = std::max(worst, std::abs(v[i] - (1.0 - std::exp(-r.time[i] / 1e-3))));
  }
  return worst;
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
  const auto& v = channel(r, "SCOPE.1.ch1").values;
  double worst = 0.0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    double t = r.time[i];
    double exact = 1.0 - std::exp(-alpha * t) * (std::cos(wd * t) + alpha / wd * std::sin(wd * t));
    worst = std::max(worst, std::abs(v[i] - exact));
  }
  CHECK(worst < 1e-4);
}

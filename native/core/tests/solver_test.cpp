// The two LU paths agree, and the factorisation cache reuses one factorisation per switch state.
#include <cmath>

#include "builders.hpp"
#include "harness.hpp"

using namespace pesim;
using namespace pesim::test;

namespace {

// Buck: 48 V, S.1 gated at 20 kHz duty 0.5, free-wheeling diode, L 100 µH, C 100 µF, 5 Ω.
Netlist buck(int denseLimit) {
  Netlist n;
  n.elements = {element("V.1", "V", {"in", "0"}, {{"value", 48.0}}, {{"waveform", "dc"}}),
                element("S.1", "S", {"in", "sw"}),
                element("D.1", "D", {"0", "sw"}),
                element("L.1", "L", {"sw", "out"}, {{"L", 100e-6}}),
                element("C.1", "C", {"out", "0"}, {{"C", 100e-6}}),
                element("R.1", "R", {"out", "0"}, {{"R", 5.0}})};
  n.blocks = {block("SIGNAL.1", "SIGNAL", {}, {"g"}, {{"frequency", 20e3}, {"duty", 0.5}}, {{"waveform", "rectangle"}}),
              block("GATE.1", "GATE", {"g"}, {}, {}, {{"target", "S.1"}}),
              voltmeter("VOLT.1", "vout", "out", "0"),
              block("SCOPE.1", "SCOPE", {"vout"}, {})};
  n.settings.tEnd = 2e-3;
  n.settings.dt = 1e-7;
  n.settings.method = Method::Trapezoidal;
  n.settings.denseLimit = denseLimit;
  return n;
}

}  // namespace

TEST(sparse_and_dense_lu_agree) {
  Result dense = simulate(buck(0), RunControl{});
  Result sparse = simulate(buck(1), RunControl{});
  CHECK(dense.stats.dense);
  CHECK(!sparse.stats.dense);
  const auto& a = channel(dense, "SCOPE.1.ch1").values;
  const auto& b = channel(sparse, "SCOPE.1.ch1").values;
  CHECK(a.size() == b.size());
  double worst = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
  CHECK(worst < 1e-9);
}

TEST(factorisations_are_cached_per_switch_state) {
  Result r = simulate(buck(0), RunControl{});
  // 40 switching periods, two states each, each used with the method and with the damping step.
  CHECK(r.stats.factorizations <= 10);
  CHECK(r.stats.cacheHits + r.stats.factorizations >= r.stats.steps);
  CHECK(r.stats.switchingEvents >= 80);
}

TEST(decimation_respects_the_point_budget) {
  Netlist n = buck(0);
  n.settings.maxPoints = 1000;
  Result r = simulate(n, RunControl{});
  CHECK(r.time.size() <= 1000);
  CHECK(r.time.size() >= 900);
  CHECK_NEAR(r.time.back(), 2e-3, 1e-12);
  CHECK_NEAR(r.time.front(), 0.0, 0.0);
}

// Exact timing places the signal sources' switching edges at their true times between steps
// (transient/edge_locator).
// A 1 A source is steered by two complementary switches into a capacitor or to ground: with
// backward Euler the capacitor integrates the piecewise-constant current exactly, so its final
// voltage is the total on-time of the gate divided by C, exactly when the edges are exact.
#include <cmath>

#include "builders.hpp"
#include "harness.hpp"

using namespace pesim;
using namespace pesim::test;

namespace {

// Gate signal `g` (with its complement through NOT) steers 1 A into C = 1 mF; 35 kHz at dt = 1 µs
// puts the edges between the steps (a period is 28.57 steps).
Netlist steering(std::vector<BlockSpec> gate, Timing timing) {
  Netlist n;
  n.elements = {element("I.1", "I", {"0", "a"}, {{"value", 1.0}}, {{"waveform", "dc"}}),
                element("S.1", "S", {"a", "b"}, {{"ron", 1e-6}, {"roff", 1e9}}),
                element("S.2", "S", {"a", "0"}, {{"ron", 1e-6}, {"roff", 1e9}}),
                element("C.1", "C", {"b", "0"}, {{"C", 1e-3}})};
  n.blocks = std::move(gate);
  n.blocks.push_back(block("NOT.1", "NOT", {"g"}, {"ng"}));
  n.blocks.push_back(block("GATE.1", "GATE", {"g"}, {}, {}, {{"target", "S.1"}}));
  n.blocks.push_back(block("GATE.2", "GATE", {"ng"}, {}, {}, {{"target", "S.2"}}));
  n.blocks.push_back(voltmeter("VOLT.1", "vc", "b", "0"));
  n.blocks.push_back(block("SCOPE.1", "SCOPE", {"vc"}, {}));
  n.settings.tEnd = 1e-3;  // 35 periods
  n.settings.dt = 1e-6;
  n.settings.timing = timing;
  return n;
}

double finalVoltage(const Netlist& n) {
  Result r = simulate(n, RunControl{});
  return std::abs(channel(r, "SCOPE.1.ch1").values.back());
}

BlockSpec rectangle(double duty, double phase = 0.0) {
  return block("SIGNAL.1", "SIGNAL", {}, {"g"}, {{"frequency", 35e3}, {"duty", duty}, {"phase", phase}},
               {{"waveform", "rectangle"}});
}

}  // namespace

TEST(exact_timing_switches_a_rectangle_at_its_true_edges) {
  // 35 periods of 0.7/35 kHz on: 0.7 ms of 1 A into 1 mF.
  CHECK_NEAR(finalVoltage(steering({rectangle(0.7)}, Timing::Exact)), 0.7, 1e-9);
  CHECK_NEAR(finalVoltage(steering({rectangle(0.3, 90.0)}, Timing::Exact)), 0.3, 1e-9);
}

TEST(exact_timing_follows_source_edges_through_logic_blocks) {
  // AND of two 0.7 rectangles, the second 90° later (on for f in [0, 0.45) and [0.75, 1)): on for
  // 45 % of each period, both edges of the result between steps.
  std::vector<BlockSpec> both = {
      block("SIGNAL.1", "SIGNAL", {}, {"a"}, {{"frequency", 35e3}, {"duty", 0.7}}, {{"waveform", "rectangle"}}),
      block("SIGNAL.2", "SIGNAL", {}, {"b"}, {{"frequency", 35e3}, {"duty", 0.7}, {"phase", 90.0}},
            {{"waveform", "rectangle"}}),
      block("AND.1", "AND", {"a", "b"}, {"g"})};
  CHECK_NEAR(finalVoltage(steering(both, Timing::Exact)), 0.45, 1e-9);
}

TEST(exact_timing_keeps_carrier_crossings_on_the_steps) {
  // Triangle against 0.4: its crossings are continuous, not source jumps: they act on the first
  // step after them, so each on-time is a whole number of steps.
  std::vector<BlockSpec> pwm = {
      block("SIGNAL.1", "SIGNAL", {}, {"carrier"}, {{"frequency", 35e3}}, {{"waveform", "triangle"}}),
      block("CONST.1", "CONST", {}, {"ref"}, {{"value", 0.4}}),
      block("GT.1", "GT", {"carrier", "ref"}, {"g"})};
  const double onTime = finalVoltage(steering(pwm, Timing::Exact)) * 1e-3;  // C = 1 mF, 1 A
  CHECK_NEAR(onTime / 1e-6, std::round(onTime / 1e-6), 1e-6);
}

TEST(gecko_timing_keeps_its_stepped_edges) {
  // GeckoCIRCUITS rounds each flank up to whole steps (stepped_wave): not the exact on-time.
  CHECK(std::abs(finalVoltage(steering({rectangle(0.7)}, Timing::Gecko)) - 0.7) > 1e-3);
}

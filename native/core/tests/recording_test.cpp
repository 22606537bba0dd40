// Recording into caller storage (RunControl::sampleStorage) gives the samples of the ordinary
// recording, and a PULSE source that only drives a VSW control is kept out of the unknowns without
// changing the waveforms (Circuit::findDrivenNodes), on the dense and the sparse LU path.
#include <cmath>
#include <vector>

#include "builders.hpp"
#include "harness.hpp"

using namespace pesim;
using namespace pesim::test;

namespace {

// Buck with the switch controlled by a PULSE source across its control terminals; `loadGate`
// adds 1 GΩ at the gate node, which keeps that node and the source current as unknowns.
Netlist pulseBuck(bool loadGate, int denseLimit) {
  Netlist n;
  n.elements = {element("V1", "V", {"in", "0"}, {{"value", 48.0}}, {{"waveform", "dc"}}),
                element("VG", "V", {"g", "0"},
                        {{"v1", 0.0}, {"v2", 1.0}, {"rise", 1e-9}, {"fall", 1e-9}, {"width", 25e-6}, {"period", 50e-6}},
                        {{"waveform", "pulse"}}),
                element("S1", "VSW", {"in", "sw", "g", "0"}, {{"vt", 0.5}}),
                element("D1", "D", {"0", "sw"}),
                element("L1", "L", {"sw", "out"}, {{"L", 100e-6}}),
                element("C1", "C", {"out", "0"}, {{"C", 100e-6}}),
                element("R1", "R", {"out", "0"}, {{"R", 5.0}})};
  if (loadGate) n.elements.push_back(element("RG", "R", {"g", "0"}, {{"R", 1e9}}));
  n.blocks = {voltmeter("VOUT", "vout", "out", "0"), voltmeter("VGATE", "vg", "g", "0"),
              block("IVG", "AMP", {}, {"ig"}, {}, {{"element", "VG"}}),
              block("SCOPE.1", "SCOPE", {"vout", "vg", "ig"}, {})};
  n.settings.tEnd = 1e-3;
  n.settings.dt = 1e-7;
  n.settings.method = Method::Trapezoidal;
  n.settings.denseLimit = denseLimit;
  return n;
}

double worstDifference(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = a.size() == b.size() ? 0.0 : INFINITY;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
  return worst;
}

}  // namespace

TEST(caller_storage_receives_the_recorded_samples) {
  Result own = simulate(pulseBuck(false, 0), RunControl{});
  std::vector<std::vector<double>> arrays;
  RunControl control;
  control.sampleStorage = [&arrays](std::size_t array, std::size_t points) {
    if (arrays.size() <= array) arrays.resize(array + 1);
    arrays[array].assign(points, -1.0);
    return arrays[array].data();
  };
  Result stored = simulate(pulseBuck(false, 0), control);
  CHECK(stored.time.empty());
  CHECK(stored.channels.size() == 3);
  CHECK(stored.points == own.time.size());
  CHECK(own.points == own.time.size());
  CHECK(arrays.size() == 4);
  CHECK(worstDifference(arrays[0], own.time) == 0.0);
  for (std::size_t c = 0; c < 3; ++c) {
    CHECK(stored.channels[c].values.empty());
    CHECK(worstDifference(arrays[c + 1], own.channels[c].values) == 0.0);
  }
  CHECK_NEAR(measurement(stored, "SCOPE.1.ch1.avg"), measurement(own, "SCOPE.1.ch1.avg"), 0.0);
}

TEST(a_source_driving_only_a_switch_control_is_no_unknown) {
  for (int denseLimit : {0, 1}) {
    Result driven = simulate(pulseBuck(false, denseLimit), RunControl{});
    Result loaded = simulate(pulseBuck(true, denseLimit), RunControl{});
    CHECK(driven.stats.unknowns == 5);
    CHECK(loaded.stats.unknowns == 7);
    CHECK(driven.stats.switchingEvents == loaded.stats.switchingEvents);
    const auto& vout = channel(driven, "SCOPE.1.ch1").values;
    CHECK(worstDifference(vout, channel(loaded, "SCOPE.1.ch1").values) < 1e-9 * 48.0);
    CHECK(worstDifference(channel(driven, "SCOPE.1.ch2").values, channel(loaded, "SCOPE.1.ch2").values) < 1e-9);
    double high = 0.0;
    for (double v : channel(driven, "SCOPE.1.ch2").values) high += v > 0.5 ? 1.0 : 0.0;
    CHECK_NEAR(high / static_cast<double>(vout.size()), 0.5, 0.01);
    for (double i : channel(driven, "SCOPE.1.ch3").values) CHECK(i == 0.0);
    CHECK_NEAR(vout.back(), channel(loaded, "SCOPE.1.ch1").values.back(), 1e-9);
  }
}

TEST(a_window_bound_written_from_a_sample_time_selects_that_sample) {
  // 011's window starts at 1.600000000000001e-5 s, GeckoCIRCUITS' time of sample 1600 at dt = 10 ns,
  // a hair above pesim's 1600·dt: the sample belongs to the window. Two millionths of a step later
  // it does not.
  auto firstInWindow = [](double from) {
    Netlist n;
    n.elements = {element("V.1", "V", {"a", "0"}, {{"value", 1.0}}, {{"waveform", "dc"}}),
                  element("R.1", "R", {"a", "0"}, {{"R", 1.0}})};
    n.blocks = {block("TIME.1", "TIME", {}, {"t"}), block("SCOPE.1", "SCOPE", {"t"}, {})};
    n.settings.tEnd = 2e-5;
    n.settings.dt = 1e-8;
    n.settings.measureFrom = from;
    return measurement(simulate(n, RunControl{}), "SCOPE.1.ch1.min");
  };
  CHECK_NEAR(firstInWindow(1.600000000000001e-5), 1.6e-5, 1e-18);
  CHECK_NEAR(firstInWindow(1.6e-5 + 2e-6 * 1e-8), 1.601e-5, 1e-18);
}

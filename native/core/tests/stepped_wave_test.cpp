// GeckoCIRCUITS' stepped rectangle and triangle (control/stepped_wave.hpp) and the run setting
// that selects them (Settings::timing). The rectangle's expected pattern is what GeckoCIRCUITS
// itself recorded for its boost example (corpus 081: 35 kHz, d = 0.7, dt = 1 µs).
#include <cmath>
#include <string>

#include "builders.hpp"
#include "control/stepped_wave.hpp"
#include "harness.hpp"

using namespace pesim;
using namespace pesim::test;

namespace {

// The outputs of the first `steps` steps after the start, as a string of 0/1 (rectangle) values.
std::string pattern(SteppedWave wave, int steps, double dt) {
  wave.start();
  std::string out;
  for (int i = 0; i < steps; ++i) out += wave.step(dt) > 0.5 ? '1' : '0';
  return out;
}

double average(const std::vector<double>& v, std::size_t from) {
  double sum = 0.0;
  for (std::size_t i = from; i < v.size(); ++i) sum += v[i];
  return sum / static_cast<double>(v.size() - from);
}

}  // namespace

TEST(stepped_rectangle_rounds_each_flank_up_to_whole_steps) {
  // 4·f·dt = 0.14 per step: 15 steps per flank, a period of 30 steps (not 28.57), 20 of them on.
  SteppedWave wave(SteppedWave::Kind::Rectangle, 1.0, 35e3, 0.0, 0.0, 0.7);
  std::string expected;
  for (int period = 0; period < 4; ++period) expected += std::string(20, '1') + std::string(10, '0');
  CHECK(pattern(wave, 120, 1e-6) == expected);
}

TEST(stepped_rectangle_phase_delays_the_pulse) {
  // φ = 90° delays the pulse by a quarter period (about 7.5 of the 30 steps); it starts at the origin for φ = 0.
  SteppedWave shifted(SteppedWave::Kind::Rectangle, 1.0, 35e3, 0.0, 90.0, 0.5);
  std::string p = pattern(shifted, 60, 1e-6);
  std::size_t firstOn = p.find('1');
  CHECK(firstOn >= 7 && firstOn <= 8);
  CHECK(p.substr(firstOn, 15) == std::string(15, '1'));
}

TEST(stepped_triangle_clamps_at_its_peaks_with_offset) {
  // Amplitude 2, offset 1, 10 kHz, d = 0.5, dt = 15 µs: a flank moves 2·A·f·dt/d = 1.2 per step, so
  // from 0 (φ = 0) the wave goes 1.2, then clamps at 2, falls 0.8, −0.4, −1.6 and clamps at −2.
  SteppedWave wave(SteppedWave::Kind::Triangle, 2.0, 10e3, 1.0, 0.0, 0.5);
  wave.start();
  double peak = -1e9, trough = 1e9;
  for (int i = 0; i < 100; ++i) {
    double y = wave.step(15e-6);
    peak = std::max(peak, y);
    trough = std::min(trough, y);
  }
  CHECK_NEAR(peak, 3.0, 1e-12);
  CHECK_NEAR(trough, -1.0, 1e-12);
}

TEST(timing_setting_selects_stepped_or_exact_sources) {
  // The same 35 kHz, d = 0.7 rectangle at dt = 1 µs averages 2/3 when stepped as GeckoCIRCUITS
  // steps it and 0.7 (to within a step per 28.6-step period) when sampled from its definition.
  auto run = [](Timing timing) {
    Netlist n;
    n.elements = {element("V.1", "V", {"a", "0"}, {{"value", 1.0}}, {{"waveform", "dc"}}),
                  element("R.1", "R", {"a", "0"}, {{"R", 1.0}})};
    n.blocks = {block("SIGNAL.1", "SIGNAL", {}, {"g"}, {{"frequency", 35e3}, {"duty", 0.7}},
                      {{"waveform", "rectangle"}}),
                block("SCOPE.1", "SCOPE", {"g"}, {})};
    n.settings.tEnd = 30e-3;
    n.settings.dt = 1e-6;
    n.settings.timing = timing;
    return simulate(n, RunControl{});
  };
  Result gecko = run(Timing::Gecko);
  Result exact = run(Timing::Exact);
  CHECK_NEAR(average(channel(gecko, "SCOPE.1.ch1").values, 0), 2.0 / 3.0, 1e-3);
  CHECK_NEAR(average(channel(exact, "SCOPE.1.ch1").values, 0), 0.7, 5e-3);
}

TEST(stepped_source_restarts_at_its_second_step_when_asked) {
  // GeckoCIRCUITS starts a source with external parameters again at t = dt: from its second step on
  // it repeats the plain source's sequence one step later.
  auto run = [](double restart) {
    Netlist n;
    n.elements = {element("V.1", "V", {"a", "0"}, {{"value", 1.0}}, {{"waveform", "dc"}}),
                  element("R.1", "R", {"a", "0"}, {{"R", 1.0}})};
    n.blocks = {block("SIGNAL.1", "SIGNAL", {}, {"g"},
                      {{"frequency", 35e3}, {"duty", 0.7}, {"restartAtSecondStep", restart}}, {{"waveform", "rectangle"}}),
                block("SCOPE.1", "SCOPE", {"g"}, {})};
    n.settings.tEnd = 200e-6;
    n.settings.dt = 1e-6;
    n.settings.timing = Timing::Gecko;
    return channel(simulate(n, RunControl{}), "SCOPE.1.ch1").values;
  };
  std::vector<double> plain = run(0.0), restarted = run(1.0);
  CHECK(plain.size() == restarted.size());
  bool shifted = true;
  for (std::size_t i = 1; i < plain.size(); ++i) shifted = shifted && restarted[i] == plain[i - 1];
  CHECK(shifted);
  CHECK(plain[20] != plain[19]);  // the pattern has edges to shift (20 on, 10 off)
}

TEST(signal_controlled_sources_follow_the_control_two_steps_behind_with_gecko_timing) {
  // GeckoCIRCUITS hands control values to signal-controlled sources between a step's solve and its
  // control calculation (SimulationsKern.dataTransferLK_Control); pesim's exact timing one step behind.
  auto run = [](Timing timing) {
    Netlist n;
    n.elements = {element("V.1", "V", {"a", "0"}, {}, {{"waveform", "signal"}, {"signal", "t"}}),
                  element("R.1", "R", {"a", "0"}, {{"R", 1.0}})};
    n.blocks = {block("TIME.1", "TIME", {}, {"t"}), voltmeter("VOLT.1", "v", "a", "0"),
                block("SCOPE.1", "SCOPE", {"t", "v"}, {})};
    n.settings.tEnd = 1e-3;
    n.settings.dt = 1e-4;
    n.settings.timing = timing;
    return simulate(n, RunControl{});
  };
  Result gecko = run(Timing::Gecko), exact = run(Timing::Exact);
  const auto& gt = channel(gecko, "SCOPE.1.ch1").values;
  const auto& gv = channel(gecko, "SCOPE.1.ch2").values;
  const auto& et = channel(exact, "SCOPE.1.ch1").values;
  const auto& ev = channel(exact, "SCOPE.1.ch2").values;
  for (std::size_t i = 2; i < gv.size(); ++i) CHECK_NEAR(gv[i], gt[i - 2], 1e-12);
  for (std::size_t i = 1; i < ev.size(); ++i) CHECK_NEAR(ev[i], et[i - 1], 1e-12);
}

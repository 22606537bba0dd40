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
    return runBlocks({block("SIGNAL.1", "SIGNAL", {}, {"g"}, {{"frequency", 35e3}, {"duty", 0.7}}, {{"waveform", "rectangle"}})},
                     {"g"}, 30e-3, 1e-6, kDefaultSeed, timing);
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
    BlockSpec source = block("SIGNAL.1", "SIGNAL", {}, {"g"},
                             {{"frequency", 35e3}, {"duty", 0.7}, {"restartAtSecondStep", restart}}, {{"waveform", "rectangle"}});
    return channel(runBlocks({source}, {"g"}, 200e-6, 1e-6, kDefaultSeed, Timing::Gecko), "SCOPE.1.ch1").values;
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

TEST(gecko_timing_takes_its_first_step_at_t0) {
  // GeckoCIRCUITS' first step is at t = 0 from the initial conditions and is kept
  // (SimulationsKern.runSimulation): an RC discharge (v0 = 1 V, RC = 1 ms, dt = 0.1 ms, backward
  // Euler: v ← v/1.1 per step) records 1/1.1 at t = 0 and 1/1.1^(n+1) at t = n·dt. Exact timing
  // records the initial voltage at t = 0 and 1/1.1^n at t = n·dt.
  auto run = [](Timing timing) {
    Netlist n;
    n.elements = {element("C.1", "C", {"a", "0"}, {{"C", 1e-3}, {"v0", 1.0}}),
                  element("R.1", "R", {"a", "0"}, {{"R", 1.0}})};
    n.blocks = {voltmeter("VOLT.1", "v", "a", "0"), block("SCOPE.1", "SCOPE", {"v"}, {})};
    n.settings.tEnd = 1e-3;
    n.settings.dt = 1e-4;
    n.settings.timing = timing;
    return simulate(n, RunControl{});
  };
  const Result geckoRun = run(Timing::Gecko);
  const Result exactRun = run(Timing::Exact);
  const std::vector<double>& gecko = channel(geckoRun, "SCOPE.1.ch1").values;
  const std::vector<double>& exact = channel(exactRun, "SCOPE.1.ch1").values;
  for (std::size_t k = 0; k < 5; ++k) {
    CHECK_NEAR(gecko[k], std::pow(1.1, -static_cast<double>(k + 1)), 1e-12);
    if (k > 0) CHECK_NEAR(exact[k], std::pow(1.1, -static_cast<double>(k)), 1e-12);
  }
  CHECK_NEAR(exact[0], 1.0, 1e-3);
}

TEST(gecko_timing_integrates_the_first_control_step_from_zero) {
  // GeckoCIRCUITS' control step at t = 0 is a step like the others, its PI, INT and PT1 memories
  // starting from a previous input of 0 (PICalculator, IntegratorCalculation, PT1Calculator). A
  // constant 1 into a PI (kp 0, ki 1000) and a PT1 (T 1 ms, gain 2) at dt = 0.1 ms: GeckoCIRCUITS
  // records 0.05 and 2/21 at t = 0, then 0.15 and (2·2 + 19·2/21)/21; exact timing starts them in
  // equilibrium with the input (0 at t = 0, then 0.1 and 4/21).
  auto run = [](Timing timing) {
    return runBlocks({block("CONST.1", "CONST", {}, {"one"}, {{"value", 1.0}}),
                      block("PI.1", "PI", {"one"}, {"pi"}, {{"kp", 0.0}, {"ki", 1000.0}}),
                      block("PT1.1", "PT1", {"one"}, {"pt"}, {{"T", 1e-3}, {"gain", 2.0}})},
                     {"pi", "pt"}, 1e-3, 1e-4, kDefaultSeed, timing);
  };
  const Result gecko = run(Timing::Gecko);
  const Result exact = run(Timing::Exact);
  const auto& pi = channel(gecko, "SCOPE.1.ch1").values;
  const auto& pt = channel(gecko, "SCOPE.1.ch2").values;
  CHECK_NEAR(pi[0], 0.05, 1e-12);
  CHECK_NEAR(pi[1], 0.15, 1e-12);
  CHECK_NEAR(pt[0], 2.0 / 21.0, 1e-12);
  CHECK_NEAR(pt[1], (4.0 + 19.0 * 2.0 / 21.0) / 21.0, 1e-12);
  CHECK_NEAR(channel(exact, "SCOPE.1.ch1").values[0], 0.0, 1e-12);
  CHECK_NEAR(channel(exact, "SCOPE.1.ch1").values[1], 0.1, 1e-12);
  CHECK_NEAR(channel(exact, "SCOPE.1.ch2").values[1], 4.0 / 21.0, 1e-12);
}

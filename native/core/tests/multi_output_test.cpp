// Multi-output control blocks driven directly (no circuit): Park transforms against the textbook
// values, the thyristor firing pulses against hand-computed instants, and the output-count checks
// of the control system.
#include <cmath>
#include <string>
#include <vector>

#include "builders.hpp"
#include "control/multi_output.hpp"
#include "harness.hpp"
#include "pesim/errors.hpp"

namespace {

using pesim::test::block;

constexpr double kPi = 3.14159265358979323846;

// Runs one evaluation of `b` with inputs in signals[0..n) and outputs after them.
std::vector<double> evaluateOnce(pesim::Block& b, std::vector<double> inputs, std::size_t outputs, double t = 0.0) {
  std::vector<double> signals = inputs;
  signals.resize(inputs.size() + outputs, 0.0);
  pesim::ControlContext ctx;
  ctx.t = t;
  ctx.signals = signals.data();
  b.evaluate(ctx);
  return std::vector<double>(signals.begin() + static_cast<long>(inputs.size()), signals.end());
}

std::vector<int> range(int from, int count) {
  std::vector<int> v;
  for (int i = 0; i < count; ++i) v.push_back(from + i);
  return v;
}

pesim::BlockPtr make(const std::string& type, int inputs, int outputs, std::map<std::string, double> numbers = {}) {
  pesim::BlockSpec spec = block("B", type, {}, {}, std::move(numbers));
  pesim::Params p(spec.name, spec.params);
  return pesim::makeMultiOutputBlock(type, spec.name, p, range(0, inputs), range(inputs, outputs));
}

}  // namespace

TEST(abcdq_of_a_balanced_set_is_its_amplitude_on_d) {
  auto park = make("ABCDQ", 4, 2);
  // a = 1, b = c = −0.5 (θ = 0): d = 1, q = 0; at θ = π/2: d = 0, q = −1 (GeckoCIRCUITS' sign of q).
  auto at0 = evaluateOnce(*park, {1.0, -0.5, -0.5, 0.0}, 2);
  CHECK_NEAR(at0[0], 1.0, 1e-12);
  CHECK_NEAR(at0[1], 0.0, 1e-12);
  auto at90 = evaluateOnce(*park, {1.0, -0.5, -0.5, kPi / 2}, 2);
  CHECK_NEAR(at90[0], 0.0, 1e-12);
  CHECK_NEAR(at90[1], -1.0, 1e-12);
  // X·cos(φ − k·2π/3) at θ = φ − 0.4: d = X·cos 0.4, q = X·sin 0.4.
  const double x = 230.0, phi = 1.1;
  auto shifted = evaluateOnce(*park, {x * std::cos(phi), x * std::cos(phi - 2 * kPi / 3), x * std::cos(phi + 2 * kPi / 3), phi - 0.4}, 2);
  CHECK_NEAR(shifted[0], x * std::cos(0.4), 1e-9);
  CHECK_NEAR(shifted[1], x * std::sin(0.4), 1e-9);
}

TEST(dqabc_gives_three_phases_and_inverts_abcdq) {
  auto inverse = make("DQABC", 3, 3);
  // d = 2, q = 0.5, θ = 0.3: a = 2·cos 0.3 − 0.5·sin 0.3, c = 2·cos(0.3 + 2π/3) − 0.5·sin(0.3 + 2π/3).
  auto abc = evaluateOnce(*inverse, {2.0, 0.5, 0.3}, 3);
  const double a = 2 * std::cos(0.3) - 0.5 * std::sin(0.3);
  const double c = 2 * std::cos(0.3 + 2 * kPi / 3) - 0.5 * std::sin(0.3 + 2 * kPi / 3);
  CHECK_NEAR(abc[0], a, 1e-12);
  CHECK_NEAR(abc[1], -(a + c), 1e-12);
  CHECK_NEAR(abc[2], c, 1e-12);
  auto dq = evaluateOnce(*make("ABCDQ", 4, 2), {abc[0], abc[1], abc[2], 0.3}, 2);
  CHECK_NEAR(dq[0], 2.0, 1e-12);
  CHECK_NEAR(dq[1], 0.5, 1e-12);
}

// Sync = sin(2π·50·(t − 1.05 ms)) sampled every 0.1 ms: rising crossings are seen at 1.1 ms, 21.1 ms,
// 41.1 ms. With alpha = 6.9° and phaseShift 30°, a·T = 36.9/360·20 ms = 2.05 ms after a crossing:
// after the crossing at 21.1 ms gate A1 fires at 23.15 ms, B3 at +T/6 (26.4833), A2 at +T/3
// (29.8167), B1 at +T/2 (33.15), A3 at +2T/3 (36.4833), B2 at +5T/6 (39.8167), each for 1 ms: on at
// the first step after the start, off at the first step after the end.
TEST(thyristor_control_fires_six_gates_a_sixth_of_a_period_apart) {
  auto control = make("THYRISTOR_CONTROL", 2, 6, {{"onTime", 1e-3}});
  const double dt = 1e-4;
  std::vector<double> signals(8, 0.0);
  pesim::ControlContext ctx;
  ctx.dt = dt;
  ctx.signals = signals.data();
  std::vector<std::vector<int>> onSteps(6);
  for (int k = 0; k <= 450; ++k) {
    ctx.t = k * dt;
    ctx.initial = k == 0;
    signals[0] = 6.9;
    signals[1] = std::sin(2 * kPi * 50 * (ctx.t - 1.05e-3));
    control->evaluate(ctx);
    for (int g = 0; g < 6; ++g) {
      if (signals[2 + g] == 1.0) onSteps[g].push_back(k);
      else CHECK(signals[2 + g] == 0.0);
    }
    if (k == 1) {
      for (int g = 0; g < 6; ++g) CHECK(signals[2 + g] == 1.0);  // the start pulse [1e-20 s, 1 ms]
    }
  }
  // Gate order A1, A2, A3, B1, B2, B3; first on step after 21.1 ms (k = 211).
  const int firstOn[6] = {232, 299, 365, 332, 399, 265};
  for (int g = 0; g < 6; ++g) {
    std::vector<int> second;
    for (int k : onSteps[g]) {
      if (k > 211 && k < 411) second.push_back(k);
    }
    CHECK(second.size() == 10);
    if (!second.empty()) {
      CHECK(second.front() == firstOn[g]);
      CHECK(second.back() == firstOn[g] + 9);
    }
  }
}

TEST(multi_output_blocks_check_their_terminal_counts) {
  pesim::BlockSpec spec = block("T", "THYRISTOR_CONTROL", {}, {});
  pesim::Params p(spec.name, spec.params);
  CHECK(pesim::multiOutputCount("THYRISTOR_CONTROL", p) == 6);
  CHECK(pesim::multiOutputCount("ABCDQ", p) == 2);
  CHECK(pesim::multiOutputCount("DQABC", p) == 3);
  CHECK(pesim::multiOutputCount("SPARSEMATRIX", p) == 9);
  CHECK(pesim::multiOutputCount("GAIN", p) == -1);
  bool rejected = false;
  try {
    pesim::makeMultiOutputBlock("ABCDQ", "T", p, range(0, 3), range(3, 2));
  } catch (const pesim::Error& e) {
    rejected = std::string(e.what()).find("takes 4 inputs, got 3") != std::string::npos;
  }
  CHECK(rejected);
}

// One pulse period of 40 µs (the initial period: the carrier stays 0) sampled every 1 µs, i.e. at
// x = 25·k of the 1000-point period. ur = 10, us = −5, ut = −7.93: input sector 1, da = −ut/ur =
// 0.793, D = int(396.5) = 396: s1+ on, s2− on for 396 ≤ x < 604, s3− on outside it. Output angle
// phi2 = 2 rad (fL = 0): sin φ = 0.909, sin(φ − 2π/3) = −0.094, sin(φ − 4π/3) = −0.815 → output
// sector 1; k = 5/(√3·10²), φ' = 2 − π/2, ua = k·cos(φ' + π/6), ub = k·sin φ', x1 = −2·ut = 15.86,
// x2 = −2·us = 10: d1 = 0.26527, d2 = 0.19053, d3 = 0.25681, d5 = 0.16726; pair A = [int(132.6),
// int(416.4)) = [132, 416), pair B = [int(227.9), int(356.3)) = [227, 356), each mirrored about 500.
// Sector 1: sA on, sB on during A, sC on during B.
TEST(sparse_matrix_modulator_switches_on_the_hand_computed_edges) {
  auto modulator = make("SPARSEMATRIX", 8, 9);
  std::vector<double> signals(17, 0.0);
  pesim::ControlContext ctx;
  ctx.dt = 1e-6;
  ctx.signals = signals.data();
  const double inputs[8] = {0.0, 10.0, -5.0, -7.93, 10.0, 5.0, 0.0, 2.0};
  auto within = [](double x, int a, int b) { return (x >= a && x < b) || (x >= 1000 - b && x < 1000 - a); };
  for (int k = 0; k < 40; ++k) {
    ctx.t = k * ctx.dt;
    ctx.initial = k == 0;
    for (int i = 0; i < 8; ++i) signals[static_cast<std::size_t>(i)] = inputs[i];
    modulator->evaluate(ctx);
    const double x = 25.0 * k;
    const bool centre = x >= 396 && x < 604;
    const double expected[9] = {1, 0, 0, 0, centre ? 1.0 : 0.0, centre ? 0.0 : 1.0, 1,
                                within(x, 132, 416) ? 1.0 : 0.0, within(x, 227, 356) ? 1.0 : 0.0};
    for (int j = 0; j < 9; ++j) {
      if (signals[static_cast<std::size_t>(8 + j)] != expected[j]) {
        pesim::test::fail(__FILE__, __LINE__, "step " + std::to_string(k) + " output " + std::to_string(j));
      }
    }
  }
  // A carrier maximum (0 → 1 → 0.5) starts a new period at step 41 with the measured length
  // Tp = 41 µs: x = 1000·j/41 after j further steps, s2− on from x ≥ 396 (j = 17, x = 414.6).
  for (int k = 40; k <= 41 + 17; ++k) {
    ctx.t = k * ctx.dt;
    for (int i = 0; i < 8; ++i) signals[static_cast<std::size_t>(i)] = inputs[i];
    signals[0] = k == 40 ? 1.0 : (k == 41 ? 0.5 : 0.0);
    modulator->evaluate(ctx);
    if (k == 41 + 16) CHECK(signals[12] == 0.0);  // x = 390.2
    if (k == 41 + 17) CHECK(signals[12] == 1.0);  // x = 414.6
  }
}

// Hand-computed checks of the control blocks INT with reset, COUNTER, SAMPLEHOLD, PD, HYS with a
// live width, the asymmetric triangle, PWL and RANDOM. Each netlist has a trivial circuit (a
// source into a resistor) and scopes the blocks' outputs at every step.
#include <cmath>

#include "builders.hpp"
#include "pesim/errors.hpp"
#include "harness.hpp"

using namespace pesim;
using namespace pesim::test;

namespace {

constexpr double kDt = 1e-5;

BlockSpec signal(std::string name, std::string out, std::map<std::string, double> numbers, std::string waveform) {
  return block(std::move(name), "SIGNAL", {}, {std::move(out)}, std::move(numbers), {{"waveform", std::move(waveform)}});
}

BlockSpec constant(std::string name, double value) {
  std::string out = name;
  return block(std::move(name), "CONST", {}, {std::move(out)}, {{"value", value}});
}

Result run(std::vector<BlockSpec> blocks, std::vector<std::string> scoped, double tEnd, double dt = kDt,
           std::uint64_t seed = kDefaultSeed) {
  return runBlocks(std::move(blocks), std::move(scoped), tEnd, dt, seed);
}

// Scope channel `ch` (1-based) at the recorded time nearest to t.
double at(const Result& r, int ch, double t) {
  const auto& values = channel(r, "SCOPE.1.ch" + std::to_string(ch)).values;
  std::size_t best = 0;
  for (std::size_t i = 0; i < r.time.size(); ++i) {
    if (std::abs(r.time[i] - t) < std::abs(r.time[best] - t)) best = i;
  }
  return values[best];
}

}  // namespace

TEST(int_reset_holds_initial_value_then_integrates) {
  // x = 1, reset while t < 2.05 ms. First integrating step (t = 2.1 ms) adds dt·(1 + 0)/2, every
  // later one dt: y(5 ms) = 0.5·dt + 2.9 ms = 2.95e-3. The clamped copy stops at max = 2e-3.
  Result r = run({constant("one", 1.0), block("TIME.1", "TIME", {}, {"t"}), constant("until", 2.05e-3),
                  block("LT.1", "LT", {"t", "until"}, {"reset"}),
                  block("INT.1", "INT", {"one", "reset"}, {"y"}, {{"gain", 1.0}, {"y0", 0.0}}),
                  block("INT.2", "INT", {"one", "reset"}, {"yc"}, {{"gain", 1.0}, {"y0", 0.0}, {"max", 2e-3}})},
                 {"y", "yc"}, 6e-3, 1e-4);
  CHECK_NEAR(at(r, 1, 1e-3), 0.0, 1e-12);
  CHECK_NEAR(at(r, 1, 2.1e-3), 0.5e-4, 1e-12);
  CHECK_NEAR(at(r, 1, 5e-3), 2.95e-3, 1e-12);
  CHECK_NEAR(at(r, 2, 5e-3), 2e-3, 1e-12);
}

TEST(int_reset_to_y0_repeats) {
  // gain 2, y0 = 1, x = 1; reset pulses 0.5 ms wide every 2 ms (rectangle 500 Hz, duty 0.25,
  // shifted so that it is high in [1.5, 2) ms of each period). At 3.2 ms: reset ended at 2 ms, the
  // first step after it adds 2·dt·(1 + 0)/2, then 2·dt per step: y = 1 + 2·(3.2 − 2.0) ms ± dt
  // (the reset's last step, at 2 ms, sits on the rectangle's edge).
  Result r = run({constant("one", 1.0),
                  signal("RST", "reset", {{"frequency", 500.0}, {"duty", 0.25}, {"phase", -270.0}}, "rectangle"),
                  block("INT.1", "INT", {"one", "reset"}, {"y"}, {{"gain", 2.0}, {"y0", 1.0}})},
                 {"y", "reset"}, 4e-3);
  CHECK_NEAR(at(r, 2, 1.7e-3), 1.0, 1e-12);
  CHECK_NEAR(at(r, 1, 1.7e-3), 1.0, 1e-12);
  CHECK_NEAR(at(r, 1, 3.2e-3), 1.0 + 2.0 * 1.2e-3, 2.0 * kDt);
  CHECK_NEAR(at(r, 1, 1.2e-3), 1.0 + 2.0 * 1.2e-3, 1e-9);  // no reset yet: x(0) = 1 enters the first step
}

TEST(counter_counts_rising_edges_until_reset) {
  // Clock 1 kHz, high in the first half of each period: edges at 0, 1, ..., 5 ms → 6 at 5.25 ms.
  // Reset high in (7.2, 7.3) ms; edges at 8 and 9 ms → 2 at 9.25 ms.
  Result r = run({signal("CLK", "clk", {{"frequency", 1000.0}}, "rectangle"), block("TIME.1", "TIME", {}, {"t"}),
                  constant("a", 7.2e-3), constant("b", 7.3e-3), block("GT.1", "GT", {"t", "a"}, {"after"}),
                  block("LT.1", "LT", {"t", "b"}, {"before"}), block("AND.1", "AND", {"after", "before"}, {"reset"}),
                  block("COUNTER.1", "COUNTER", {"clk", "reset"}, {"n"}), block("COUNTER.2", "COUNTER", {"clk"}, {"m"})},
                 {"n", "m"}, 9.5e-3);
  CHECK_NEAR(at(r, 1, 5.25e-3), 6.0, 0.0);
  CHECK_NEAR(at(r, 1, 7.25e-3), 0.0, 0.0);
  CHECK_NEAR(at(r, 1, 9.25e-3), 2.0, 0.0);
  CHECK_NEAR(at(r, 2, 9.25e-3), 10.0, 0.0);
}

TEST(sample_hold_takes_input_while_clock_high) {
  // x = t; clock high for f < 0.11 of each 1 ms period: the last sample of [2, 2.11) ms at dt = 20 µs
  // is t = 2.10 ms, held until 3 ms.
  Result r = run({block("TIME.1", "TIME", {}, {"t"}), signal("CLK", "clk", {{"frequency", 1000.0}, {"duty", 0.11}}, "rectangle"),
                  block("SH.1", "SAMPLEHOLD", {"t", "clk"}, {"y"})},
                 {"y"}, 3.5e-3, 2e-5);
  CHECK_NEAR(at(r, 1, 2.06e-3), 2.06e-3, 1e-12);
  CHECK_NEAR(at(r, 1, 2.5e-3), 2.10e-3, 1e-12);
  CHECK_NEAR(at(r, 1, 2.98e-3), 2.10e-3, 1e-12);
}

TEST(pd_is_the_backward_difference) {
  // x = 3·t, gain 2: y = 2·3 = 6 after the first step; 0 at t = 0.
  Result r = run({block("TIME.1", "TIME", {}, {"t"}), block("GAIN.1", "GAIN", {"t"}, {"x"}, {{"k", 3.0}}),
                  block("PD.1", "PD", {"x"}, {"y"}, {{"gain", 2.0}})},
                 {"y"}, 1e-3);
  CHECK_NEAR(at(r, 1, 0.0), 0.0, 1e-12);
  CHECK_NEAR(at(r, 1, 0.5e-3), 6.0, 1e-6);
}

TEST(hysteresis_width_from_live_input) {
  // x = sin(2π·50 t); width h = 0.9 for t mod 10 ms < 5 ms, else 0.1. At 2 ms x = 0.588 < 0.9: still
  // low; at 4 ms x = 0.951 > 0.9: high; at 12 ms x = −0.588 > −0.9: stays high; at 16 ms
  // x = −0.951 < −0.1: low. (A constant width 0.1 would switch at 2 ms and 12 ms.)
  Result r = run({signal("X", "x", {{"frequency", 50.0}}, "sine"),
                  signal("H", "h", {{"frequency", 100.0}, {"amplitude", 0.8}, {"offset", 0.1}}, "rectangle"),
                  block("HYS.1", "HYS", {"x", "h"}, {"y"}, {{"high", 1.0}, {"low", -1.0}})},
                 {"y"}, 17e-3);
  CHECK_NEAR(at(r, 1, 2e-3), -1.0, 0.0);
  CHECK_NEAR(at(r, 1, 4e-3), 1.0, 0.0);
  CHECK_NEAR(at(r, 1, 12e-3), 1.0, 0.0);
  CHECK_NEAR(at(r, 1, 16e-3), -1.0, 0.0);
}

TEST(triangle_with_duty) {
  // duty 0.25, amplitude 2, offset 1, 100 Hz: u = frac(100 t); −1 + 8u for u < 0.25, else
  // 1 − 2(u − 0.25)/0.75. u = 0.125 → 0 → y = 1; u = 0.5 → 1/3 → y = 5/3. Duty 1 (sawtooth −1 + 2u):
  // u = 0.75 → 0.5 → y = 2.
  Result r = run({signal("TRI", "tri", {{"frequency", 100.0}, {"amplitude", 2.0}, {"offset", 1.0}, {"duty", 0.25}}, "triangle"),
                  signal("SAW", "saw", {{"frequency", 100.0}, {"amplitude", 2.0}, {"offset", 1.0}, {"duty", 1.0}}, "triangle")},
                 {"tri", "saw"}, 10e-3);
  CHECK_NEAR(at(r, 1, 1.25e-3), 1.0, 1e-9);
  CHECK_NEAR(at(r, 1, 5e-3), 5.0 / 3.0, 1e-9);
  CHECK_NEAR(at(r, 1, 2.5e-3), 3.0, 1e-9);
  CHECK_NEAR(at(r, 2, 7.5e-3), 2.0, 1e-9);
}

TEST(pwl_interpolates_and_repeats) {
  // (0, 0), (1 ms, 2), (3 ms, −2): at 0.5 ms 1, at 2 ms 0; period 3 ms: 3.5 ms → 1, 5 ms → 0.
  // Without repeat: −2 after 3 ms.
  BlockSpec repeated = block("PWL.1", "PWL", {}, {"y"});
  repeated.params.arrays["times"] = {0.0, 1e-3, 3e-3};
  repeated.params.arrays["values"] = {0.0, 2.0, -2.0};
  BlockSpec once = repeated;
  once.name = "PWL.2";
  once.outputs = {"z"};
  once.params.numbers["repeat"] = 0.0;
  Result r = run({repeated, once}, {"y", "z"}, 6e-3);
  CHECK_NEAR(at(r, 1, 0.5e-3), 1.0, 1e-9);
  CHECK_NEAR(at(r, 1, 2e-3), 0.0, 1e-9);
  CHECK_NEAR(at(r, 1, 3.5e-3), 1.0, 1e-9);
  CHECK_NEAR(at(r, 1, 5e-3), 0.0, 1e-9);
  CHECK_NEAR(at(r, 2, 5e-3), -2.0, 0.0);
}

TEST(pwl_rejects_unordered_times) {
  BlockSpec bad = block("PWL.1", "PWL", {}, {"y"});
  bad.params.arrays["times"] = {0.0, 2e-3, 1e-3};
  bad.params.arrays["values"] = {0.0, 1.0, 2.0};
  bool threw = false;
  try {
    run({bad}, {"y"}, 1e-3);
  } catch (const Error& e) {
    threw = std::string(e.what()).find("strictly increasing") != std::string::npos;
  }
  CHECK(threw);
}

TEST(random_walk_is_seeded) {
  auto walk = [](std::uint64_t seed) {
    Result r = run({block("RND.1", "RANDOM", {}, {"y"})}, {"y"}, 1e-2, kDt, seed);
    return channel(r, "SCOPE.1.ch1").values;
  };
  std::vector<double> a = walk(7), b = walk(7), c = walk(8);
  CHECK(a == b);
  CHECK(a != c);
  // Increments uniform in [−1, 1): their mean over 1000 steps is within 4σ = 4/√3/√1000 of 0.
  double sum = 0.0;
  bool bounded = a[0] == 0.0;
  for (std::size_t i = 1; i < a.size(); ++i) {
    double step = a[i] - a[i - 1];
    bounded = bounded && step >= -1.0 && step <= 1.0;
    sum += step;
  }
  CHECK(bounded);
  CHECK(std::abs(sum / static_cast<double>(a.size() - 1)) < 0.08);
}

// Analytic checks of the control blocks taken over from GeckoCIRCUITS: POW (java.lang.Math.pow), the
// undamped PT2 (its exact discrete solution and the continuous step response) and TF (transfer
// functions against PT1 and against analytic step responses), with the refusals of bad parameters.
#include <algorithm>
#include <cmath>
#include <string>

#include "builders.hpp"
#include "harness.hpp"
#include "pesim/errors.hpp"

using namespace pesim;
using namespace pesim::test;

namespace {

BlockSpec constant(std::string name, double value) {
  std::string out = name;
  return block(std::move(name), "CONST", {}, {std::move(out)}, {{"value", value}});
}

BlockSpec transferFunction(std::string name, std::string in, std::string out, std::vector<double> num,
                           std::vector<double> den) {
  BlockSpec b = block(std::move(name), "TF", {std::move(in)}, {std::move(out)});
  b.params.arrays["num"] = std::move(num);
  b.params.arrays["den"] = std::move(den);
  return b;
}

Result run(std::vector<BlockSpec> blocks, std::vector<std::string> scoped, double tEnd, double dt) {
  return runBlocks(std::move(blocks), std::move(scoped), tEnd, dt);
}

const std::vector<double>& scope(const Result& r, int ch) {
  return channel(r, "SCOPE.1.ch" + std::to_string(ch)).values;
}

// The message of the error `fn` throws, or "" when it does not throw.
template <typename Fn>
std::string errorOf(Fn fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST(pow_follows_java_math_pow) {
  Result r = run({constant("two", 2.0), constant("half", 0.5), constant("minus8", -8.0), constant("third", 1.0 / 3.0),
                  constant("three", 3.0), constant("one", 1.0), constant("minus1", -1.0),
                  block("SQRT.1", "SQRT", {"minus1"}, {"nan"}),
                  block("POW.1", "POW", {"two", "half"}, {"p1"}), block("POW.2", "POW", {"minus8", "third"}, {"p2"}),
                  block("POW.3", "POW", {"minus8", "three"}, {"p3"}), block("POW.4", "POW", {"one", "nan"}, {"p4"})},
                 {"p1", "p2", "p3", "p4"}, 1e-4, 1e-5);
  CHECK_NEAR(scope(r, 1).back(), std::sqrt(2.0), 1e-15);
  CHECK(std::isnan(scope(r, 2).back()));       // a negative base with a non-integer exponent
  CHECK_NEAR(scope(r, 3).back(), -512.0, 0.0);  // an integer exponent keeps the sign
  CHECK(std::isnan(scope(r, 4).back()));       // Java: 1^NaN is NaN (C's pow gives 1)
  std::string error = errorOf([] { run({constant("one", 1.0), block("POW.1", "POW", {"one"}, {"p"})}, {"p"}, 1e-4, 1e-5); });
  CHECK(contains(error, "POW.1: a POW block takes 2 input(s), got 1"));
}

TEST(pt2_step_response_is_the_undamped_oscillation) {
  // T²·y'' + y = g·x for a unit step: y = g·(1 − cos(t/T)). The central-difference recursion has
  // the exact solution y(n) = g·(1 − cos(nθ) + tan(θ/2)·sin(nθ)) with cos θ = 1 − dt²/(2T²).
  const double T = 1e-4, g = 2.0, dt = 1e-6;
  Result r = run({constant("one", 1.0), block("PT2.1", "PT2", {"one"}, {"y"}, {{"T", T}, {"gain", g}})}, {"y"}, 1e-3, dt);
  const auto& y = scope(r, 1);
  const double theta = std::acos(1.0 - dt * dt / (2.0 * T * T));
  double worst = 0.0;
  for (std::size_t i = 0; i < r.time.size(); ++i) {
    double n = std::round(r.time[i] / dt);
    double discrete = g * (1.0 - std::cos(n * theta) + std::tan(theta / 2.0) * std::sin(n * theta));
    CHECK_NEAR(y[i], discrete, 1e-9);
    worst = std::max(worst, std::abs(y[i] - g * (1.0 - std::cos(r.time[i] / T))));
  }
  CHECK(worst < 0.03 * g);  // one step of lag at dt/T = 1 %: |Δy| ≤ g·dt/T·|sin| + O((dt/T)²)
  CHECK_NEAR(y.front(), 0.0, 0.0);
  double peak = *std::max_element(y.begin(), y.end());
  CHECK_NEAR(peak, 2.0 * g, 0.01 * g);  // undamped: overshoots to twice the final value
}

TEST(pt2_refuses_a_time_step_of_twice_t) {
  std::string error = errorOf([] {
    run({constant("one", 1.0), block("PT2.1", "PT2", {"one"}, {"y"}, {{"T", 1e-5}})}, {"y"}, 1e-4, 2e-5);
  });
  CHECK(contains(error, "PT2.1: parameter 'T' must be more than half the time step"));
  error = errorOf([] { run({constant("one", 1.0), block("PT2.1", "PT2", {"one"}, {"y"}, {{"T", -1.0}})}, {"y"}, 1e-4, 1e-5); });
  CHECK(contains(error, "PT2.1: parameter 'T'"));
}

TEST(tf_of_first_order_equals_pt1) {
  // G(s) = g / (1 + sT): the same Tustin recursion as PT1, for a rectangle input.
  const double T = 2e-4, g = 3.0;
  BlockSpec square = block("SIG.1", "SIGNAL", {}, {"x"}, {{"frequency", 2000.0}, {"amplitude", 1.0}}, {{"waveform", "rectangle"}});
  Result r = run({square, transferFunction("TF.1", "x", "tf", {g}, {1.0, T}),
                  block("PT1.1", "PT1", {"x"}, {"pt1"}, {{"T", T}, {"gain", g}})},
                 {"tf", "pt1"}, 2e-3, 1e-6);
  for (std::size_t i = 0; i < r.time.size(); ++i) CHECK_NEAR(scope(r, 1)[i], scope(r, 2)[i], 1e-12);
}

TEST(tf_second_order_step_response) {
  // G(s) = ω² / (s² + 2ζω·s + ω²) (coefficients of s⁰, s¹, s², scaled by 5 to check the
  // normalisation): y = 1 − e^(−ζωt)·(cos ω_d t + ζ/√(1 − ζ²)·sin ω_d t).
  const double w = 2.0 * M_PI * 1000.0, zeta = 0.3, wd = w * std::sqrt(1.0 - zeta * zeta);
  Result r = run({constant("one", 1.0), transferFunction("TF.1", "one", "y", {5 * w * w, 0.0, 0.0}, {5 * w * w, 5 * 2 * zeta * w, 5.0})},
                 {"y"}, 3e-3, 1e-6);
  for (std::size_t i = 0; i < r.time.size(); i += 50) {
    double t = r.time[i];
    double exact = 1.0 - std::exp(-zeta * w * t) * (std::cos(wd * t) + zeta / std::sqrt(1.0 - zeta * zeta) * std::sin(wd * t));
    CHECK_NEAR(scope(r, 1)[i], exact, 2e-4);
  }
}

TEST(tf_frequency_response_at_resonance) {
  // G(s) = ω0² / (s² + 2ζω0·s + ω0²) driven at ω0: |G| = 1/(2ζ), phase −90°. After the transient
  // (e^(−ζω0·t) < 1e-13 at 10 ms), y = −cos(ω0·t)/(2ζ) up to the Tustin frequency warping.
  const double f = 1000.0, w = 2.0 * M_PI * f, zeta = 0.5, dt = 1e-6;
  BlockSpec sine = block("SIG.1", "SIGNAL", {}, {"x"}, {{"frequency", f}, {"amplitude", 1.0}}, {{"waveform", "sine"}});
  Result r = run({sine, transferFunction("TF.1", "x", "y", {w * w}, {w * w, 2.0 * zeta * w, 1.0})}, {"y"}, 12e-3, dt);
  double peak = 0.0;
  for (std::size_t i = 0; i < r.time.size(); ++i) {
    if (r.time[i] < 10e-3) continue;
    peak = std::max(peak, std::abs(scope(r, 1)[i]));
    CHECK_NEAR(scope(r, 1)[i], -std::cos(w * r.time[i]) / (2.0 * zeta), 1e-4);
  }
  CHECK_NEAR(peak, 1.0 / (2.0 * zeta), 1e-4);
}

TEST(tf_lead_lag_has_direct_feedthrough) {
  // G(s) = (1 + s·T1) / (1 + s·T2): y(0) = T1/T2, then y = 1 + (T1/T2 − 1)·e^(−t/T2).
  const double t1 = 3e-4, t2 = 1e-4;
  Result r = run({constant("one", 1.0), transferFunction("TF.1", "one", "y", {1.0, t1}, {1.0, t2})}, {"y"}, 1e-3, 1e-6);
  CHECK_NEAR(scope(r, 1).front(), t1 / t2, 1e-12);
  for (std::size_t i = 1; i < r.time.size(); i += 20) {
    CHECK_NEAR(scope(r, 1)[i], 1.0 + (t1 / t2 - 1.0) * std::exp(-r.time[i] / t2), 2e-3 * std::exp(-r.time[i] / t2) + 1e-9);
  }
}

TEST(tf_numerator_above_the_denominator_differentiates_the_input) {
  // Input u = t (TIME). T·s: y = T·(u(n) − u(n−1))/dt = T. (1 + sT)²/(1 + sT) = 1 + sT after the
  // division: y = t + T. 1 + T²·s² for u = t²: y = t² + 2T² (the second difference of t² is 2dt²).
  const double T = 1e-4, dt = 1e-6;
  Result r = run({block("TIME.1", "TIME", {}, {"t"}), block("MUL.1", "MUL", {"t", "t"}, {"t2"}),
                  transferFunction("TF.1", "t", "d1", {0.0, T}, {1.0}),
                  transferFunction("TF.2", "t", "lead", {1.0, 2.0 * T, T * T}, {1.0, T}),
                  transferFunction("TF.3", "t2", "d2", {1.0, 0.0, T * T}, {2.0}),
                  transferFunction("TF.4", "t2", "d2b", {2.0, 0.0, 2.0 * T * T}, {2.0})},
                 {"d1", "lead", "d2", "d2b"}, 1e-4, dt);
  CHECK_NEAR(scope(r, 1).front(), 0.0, 0.0);  // no derivative at the start: the history is the first input
  for (std::size_t i = 2; i < r.time.size(); ++i) {
    double t = r.time[i];
    CHECK_NEAR(scope(r, 1)[i], T, 1e-12);
    CHECK_NEAR(scope(r, 2)[i], t + T, 1e-12);
    CHECK_NEAR(scope(r, 3)[i], (t * t + 2.0 * T * T) / 2.0, 1e-12);
    CHECK_NEAR(scope(r, 4)[i], t * t + 2.0 * T * T, 1e-12);
  }
}

TEST(tf_refuses_a_numerator_three_degrees_up_and_an_empty_denominator) {
  std::string error = errorOf([] {
    run({constant("one", 1.0), transferFunction("TF.1", "one", "y", {0.0, 0.0, 0.0, 1.0, 0.0}, {1.0})}, {"y"}, 1e-4, 1e-5);
  });
  CHECK(contains(error, "TF.1: parameter 'num' must be of degree at most that of 'den' + 2 (2), got degree 3"));
  error = errorOf([] { run({constant("one", 1.0), transferFunction("TF.1", "one", "y", {1.0}, {0.0, 0.0})}, {"y"}, 1e-4, 1e-5); });
  CHECK(contains(error, "TF.1: parameter 'den' must be a list of coefficients"));
  error = errorOf([] {
    run({constant("one", 1.0), block("TF.1", "TF", {"one"}, {"y"})}, {"y"}, 1e-4, 1e-5);
  });
  CHECK(contains(error, "TF.1: missing parameter 'num'"));
}

// The step-wise run (pesim/step_session.hpp): stepping in pieces gives simulate()'s result bit for
// bit (exact and GeckoCIRCUITS timing, with a pre-simulation), a rebuild with the same values
// changes nothing, and a rebuild with another resistance takes effect from the next step (an RC
// charge against its backward-Euler recursion).
#include <cmath>
#include <string>

#include "builders.hpp"
#include "harness.hpp"
#include "pesim/errors.hpp"
#include "pesim/step_session.hpp"

using namespace pesim;
using namespace pesim::test;

namespace {

// The buck of builders.hpp, 1000 steps.
Netlist buck(Timing timing, double tPre) {
  Netlist n = buckConverter(100e-6, Method::Trapezoidal);
  n.settings.timing = timing;
  n.settings.tPre = tPre;
  return n;
}

// 1 V through R into C (0 V at the start), backward Euler; SCOPE.1 = [v(C)].
Netlist rc(double r) {
  Netlist n;
  n.elements = {element("V.1", "V", {"in", "0"}, {{"value", 1.0}}, {{"waveform", "dc"}}),
                element("R.1", "R", {"in", "out"}, {{"R", r}}),
                element("C.1", "C", {"out", "0"}, {{"C", 1e-6}})};
  n.blocks = {voltmeter("VOLT.1", "v", "out", "0"), block("SCOPE.1", "SCOPE", {"v"}, {})};
  n.settings.tEnd = 1e-3;
  n.settings.dt = 1e-6;
  n.settings.method = Method::BackwardEuler;
  return n;
}

bool sameResult(const Result& a, const Result& b) {
  if (a.time != b.time || a.channels.size() != b.channels.size() || a.measurements.size() != b.measurements.size()) return false;
  for (std::size_t c = 0; c < a.channels.size(); ++c) {
    if (a.channels[c].values != b.channels[c].values) return false;
  }
  for (std::size_t m = 0; m < a.measurements.size(); ++m) {
    if (a.measurements[m].key != b.measurements[m].key || a.measurements[m].value != b.measurements[m].value) return false;
  }
  return true;
}

void checkPieces(Timing timing, double tPre) {
  const Netlist n = buck(timing, tPre);
  const Result whole = simulate(n, RunControl{});
  StepSession session(n);
  CHECK(session.totalSteps() == 1000);
  CHECK(session.stepsDone() == 0);
  for (int piece = 0; piece < 10; ++piece) CHECK(session.step(100) == 100);
  CHECK(session.step(5) == 0);  // none left
  const Result partial = session.partialResult();
  CHECK(session.time() == partial.time.back());  // the time of the last step, as recorded
  const Result stepped = session.finish();
  CHECK(sameResult(whole, stepped));
  CHECK(sameResult(whole, partial));
  CHECK(stepped.stats.steps == 1000);
}

}  // namespace

TEST(step_session_in_pieces_is_the_whole_run_exact_timing) { checkPieces(Timing::Exact, 0.0); }

TEST(step_session_in_pieces_is_the_whole_run_gecko_timing_with_pre_simulation) { checkPieces(Timing::Gecko, 20e-6); }

TEST(step_session_partial_result_holds_the_steps_so_far) {
  StepSession session(buck(Timing::Exact, 0.0));
  session.step(250);
  const Result partial = session.partialResult();
  CHECK(partial.time.size() == 251);
  CHECK_NEAR(partial.time.back(), 25e-6, 1e-18);
  CHECK_NEAR(session.time(), 25e-6, 1e-18);
  const Result whole = simulate(buck(Timing::Exact, 0.0), RunControl{});
  const auto& v = channel(partial, "SCOPE.1.ch1").values;
  const auto& w = channel(whole, "SCOPE.1.ch1").values;
  bool same = true;
  for (std::size_t i = 0; i < v.size(); ++i) same = same && v[i] == w[i];
  CHECK(same);
}

TEST(step_session_rebuild_with_the_same_values_changes_nothing) {
  const Netlist n = buck(Timing::Exact, 0.0);
  const Result whole = simulate(n, RunControl{});
  StepSession session(n);
  session.step(437);  // mid-period, the switch on
  session.rebuild(n);
  session.step(1000);
  const Result stepped = session.finish();
  const auto& v = channel(stepped, "SCOPE.1.ch2").values;
  const auto& w = channel(whole, "SCOPE.1.ch2").values;
  CHECK(v.size() == w.size());
  double worst = 0.0;
  for (std::size_t i = 0; i < v.size() && i < w.size(); ++i) worst = std::max(worst, std::fabs(v[i] - w[i]));
  CHECK_NEAR(worst, 0.0, 1e-12);
}

TEST(step_session_rebuild_takes_the_new_resistance_from_the_next_step) {
  StepSession session(rc(1000.0));
  session.step(300);
  session.rebuild(rc(250.0));
  session.step(1000);
  const Result r = session.finish();
  const auto& v = channel(r, "SCOPE.1.ch1").values;
  CHECK(v.size() == 1001);
  // Backward Euler: v_n = (v_(n−1) + a)/(1 + a), a = dt/(RC): a = 1e-3 for 300 steps, then 4e-3.
  double expected = 0.0, worst = 0.0;
  for (std::size_t n = 1; n < v.size(); ++n) {
    const double a = n <= 300 ? 1e-3 : 4e-3;
    expected = (expected + a) / (1.0 + a);
    worst = std::max(worst, std::fabs(v[n] - expected));
  }
  CHECK_NEAR(worst, 0.0, 1e-12);
}

TEST(step_session_refuses_a_rebuild_of_another_structure) {
  StepSession session(rc(1000.0));
  session.step(10);
  bool refused = false;
  try {
    session.rebuild(buck(Timing::Exact, 0.0));
  } catch (const Error& e) {
    refused = e.code() == ErrorCode::NetlistInvalid;
  }
  CHECK(refused);
  CHECK(session.step(10) == 10);  // the run goes on unchanged
}

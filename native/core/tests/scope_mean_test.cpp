// Mean-value scope channels (GeckoCIRCUITS' scope average signals): numbered right after their
// input, constant over the run, with GeckoCIRCUITS' averaging interval at the start of the run
// (see transient/recorder.hpp); the interval indices as GeckoCIRCUITS computed them in runs of
// its own.
#include <cmath>
#include <string>
#include <vector>

#include "builders.hpp"
#include "harness.hpp"
#include "pesim/errors.hpp"
#include "transient/phase_clock.hpp"

using namespace pesim;
using namespace pesim::test;

namespace {

// TIME into three scope inputs; means of inputs 3, 2 and 1 (in that order) over `spans`. dt is a
// power of two, so every time below is exact.
constexpr double kDt = 1.0 / 1024.0;

Result rampScope(std::vector<double> spans, double tPre = 0.0) {
  Netlist n;
  n.elements = {element("V.1", "V", {"a", "0"}, {{"value", 1.0}}, {{"waveform", "dc"}}),
                element("R.1", "R", {"a", "0"}, {{"R", 1.0}})};
  BlockSpec scope = block("SCOPE.1", "SCOPE", {"t", "t", "t"}, {});
  scope.params.arrays["meanInputs"] = {3, 2, 1};
  scope.params.arrays["meanSpans"] = std::move(spans);
  scope.params.names["channelNames"] = {"t", "<t>", "t2", "<t2>", "t3", "<t3>"};
  n.blocks = {block("TIME.1", "TIME", {}, {"t"}), scope};
  n.settings.tEnd = 200 * kDt;
  n.settings.dt = kDt;
  n.settings.tPre = tPre;
  n.settings.dtPre = kDt;
  return simulate(n, RunControl{});
}

}  // namespace

TEST(a_mean_value_channel_follows_its_input_and_holds_gecko_start_average) {
  Result r = rampScope({10 * kDt, 2 * kDt, 2 * kDt});
  CHECK(r.channels.size() == 6);
  CHECK(r.channels[1].key == "SCOPE.1.ch2");
  CHECK(r.channels[1].label == "<t>");
  CHECK(r.channels[5].index == 6);
  // Input 3, first in the list (j = 0), 10 dt: samples (0, 5], sample 1 adding nothing:
  // (2 + 3 + 4 + 5)·dt·dt / 5 dt.
  // Input 2 (j = 1), 2 dt: interval dt ± dt → samples (0, 2]: 2·dt·dt / 2 dt.
  // Input 1 (j = 2), 2 dt: interval 2 dt ± dt → samples (1, 3]: (2 + 3)·dt·dt / 2 dt.
  const double expected[] = {2.5 * kDt, kDt, 2.8 * kDt};
  for (int k = 0; k < 3; ++k) {
    const Channel& input = r.channels[static_cast<std::size_t>(2 * k)];
    const Channel& mean = r.channels[static_cast<std::size_t>(2 * k + 1)];
    CHECK_NEAR(input.values[7], 7 * kDt, 1e-15);
    CHECK(mean.values.size() == r.time.size());
    for (double v : mean.values) CHECK_NEAR(v, expected[k], 1e-15);
    for (const char* s : {".avg", ".rms", ".min", ".max"}) CHECK_NEAR(measurement(r, mean.key + s), expected[k], 1e-15);
  }
}

TEST(a_mean_value_channel_averages_the_main_run_after_a_pre_simulation) {
  Result r = rampScope({10 * kDt, 2 * kDt, 2 * kDt}, 50 * kDt);
  CHECK_NEAR(channel(r, "SCOPE.1.ch6").values[0], 2.8 * kDt, 1e-15);
}

TEST(gecko_mean_window_indices_are_those_gecko_computed) {
  // GeckoCIRCUITS' time after a 20 ms pre-calculation in steps of 50 ns (065's data start).
  CHECK(geckoClocks(1e-3, 5e-8, 0.02, 5e-8).axis.t0 == 0.020000000000060143);
  // A 10 µs mean at j = 0 in a run of 100 µs, dt = 0.1 µs: GeckoCIRCUITS averaged samples 2..49
  // from t = 0 and 2..50 after a pre-calculation of 20 µs (its accumulated time moves the
  // truncation), and ended that scope's data at samples 949 and 948.
  GeckoAxis plain = geckoClocks(1e-4, 1e-7, 0.0, 1e-7).axis;
  GeckoAxis afterPre = geckoClocks(1e-4, 1e-7, 2e-5, 1e-7).axis;
  CHECK(plain.last == 999 && afterPre.last == 999);
  MeanWindow fromZero = geckoMeanWindow(plain, 1e-5, 0);
  CHECK(fromZero.start == 0 && fromZero.stop == 49);
  MeanWindow shifted = geckoMeanWindow(afterPre, 1e-5, 0);
  CHECK(shifted.start == 0 && shifted.stop == 50);
  CHECK(geckoScopeEnd(plain, 1e-5) == 949 && geckoScopeEnd(afterPre, 1e-5) == 948);
  // 0.1 µs at j = 1: the interval (0, 1] holds only sample 1, which adds nothing (GeckoCIRCUITS: 0).
  MeanWindow one = geckoMeanWindow(plain, 1e-7, 1);
  CHECK(one.start == 0 && one.stop == 1);
  // The ends of the corpus scopes with mean-value signals (GeckoCIRCUITS' sample counts − 1):
  // 033 SCOPE.16, 067 SCOPE.6 (whose run GeckoCIRCUITS ends with a sample at tEnd), 065 SCOPE.1.
  CHECK(geckoScopeEnd(geckoClocks(0.1, 5e-7, 0.0, 5e-7).axis, 4e-5) == 199958);
  CHECK(geckoClocks(0.1, 2.5e-7, 0.0, 2.5e-7).axis.last == 400000);
  CHECK(geckoScopeEnd(geckoClocks(0.1, 2.5e-7, 0.0, 2.5e-7).axis, 6.66e-5) == 399866);
  CHECK(geckoScopeEnd(geckoClocks(0.02, 5e-8, 0.02, 5e-8).axis, 6.66e-5) == 399333);
  // Scopes without mean-value signals: GeckoCIRCUITS showed samples 0..249999 of 039 (its loop ran
  // 250001 steps; the truncation drops the last), 0..400000 of 067 SCOPE.4, 0..999 of 045.
  CHECK(geckoClocks(2.5e-9, 1e-14, 0.0, 1e-14).axis.last == 250000);
  CHECK(geckoScopeEnd(geckoClocks(2.5e-9, 1e-14, 0.0, 1e-14).axis, 0.0) == 249999);
  CHECK(geckoScopeEnd(geckoClocks(0.1, 2.5e-7, 0.0, 2.5e-7).axis, 0.0) == 400000);
  CHECK(geckoScopeEnd(geckoClocks(1e-4, 1e-7, 0.0, 1e-7).axis, 0.0) == 999);
  // A step below the rounding of the time (1.5 s + 1e-20 s == 1.5 s) stalls GeckoCIRCUITS' loop;
  // the emulation stops counting.
  CHECK(geckoClocks(1.0, 1e-20, 1.0, 0.75).axis.last == 0);
}

TEST(a_scope_with_mean_values_measures_until_its_gecko_data_end) {
  // 200 steps of dt: GeckoCIRCUITS has samples 0..199 (or 0..200); a 10 dt mean ends the scope's
  // data 5 dt before its last sample, and the window statistics of the ramp end there too.
  Result r = rampScope({10 * kDt, 2 * kDt, 2 * kDt});
  long last = geckoClocks(200 * kDt, kDt, 0.0, kDt).axis.last;
  double end = static_cast<double>(last - 5) * kDt;
  CHECK_NEAR(measurement(r, "SCOPE.1.ch1.max"), end, 1e-15);
}

TEST(a_scope_on_gecko_axis_measures_until_its_last_shown_sample) {
  // GeckoCIRCUITS' example 039 (2.5 ns at 1e-14 s): its time loop takes steps up to
  // 2.4999999999991e-9 s, but its scope axis (spacing fitted over the first 100 samples, indices
  // truncated) shows one sample fewer. With exact timing the flag does nothing: the run ends at tEnd.
  auto run = [](Timing timing) {
    Netlist n;
    n.elements = {element("V.1", "V", {"a", "0"}, {{"value", 1.0}}, {{"waveform", "dc"}}),
                  element("R.1", "R", {"a", "0"}, {{"R", 1.0}})};
    BlockSpec scope = block("SCOPE.1", "SCOPE", {"t"}, {}, {{"geckoAxis", 1.0}});
    n.blocks = {block("TIME.1", "TIME", {}, {"t"}), scope, block("SCOPE.2", "SCOPE", {"t"}, {})};
    n.settings.tEnd = 2.5e-9;
    n.settings.dt = 1e-14;
    n.settings.timing = timing;
    return simulate(n, RunControl{});
  };
  Result gecko = run(Timing::Gecko);
  CHECK_NEAR(measurement(gecko, "SCOPE.2.ch1.max"), 2.4999999999991183e-9, 1e-24);
  CHECK_NEAR(measurement(gecko, "SCOPE.1.ch1.max"), 2.4999999999991183e-9 - 1e-14, 1e-20);
  Result exact = run(Timing::Exact);
  CHECK_NEAR(measurement(exact, "SCOPE.1.ch1.max"), 2.5e-9, 1e-20);
  CHECK_NEAR(measurement(exact, "SCOPE.2.ch1.max"), 2.5e-9, 1e-20);
}

TEST(mean_inputs_must_name_distinct_scope_inputs) {
  for (std::vector<double> inputs : {std::vector<double>{4}, std::vector<double>{1, 1}, std::vector<double>{0.5}}) {
    Netlist n;
    n.elements = {element("V.1", "V", {"a", "0"}, {{"value", 1.0}}, {{"waveform", "dc"}}),
                  element("R.1", "R", {"a", "0"}, {{"R", 1.0}})};
    BlockSpec scope = block("SCOPE.1", "SCOPE", {"t", "t", "t"}, {});
    scope.params.arrays["meanInputs"] = inputs;
    scope.params.arrays["meanSpans"] = std::vector<double>(inputs.size(), 1e-3);
    n.blocks = {block("TIME.1", "TIME", {}, {"t"}), scope};
    n.settings.tEnd = 1e-2;
    n.settings.dt = 1e-3;
    bool refused = false;
    try {
      simulate(n, RunControl{});
    } catch (const Error& e) {
      refused = e.code() == ErrorCode::ParameterOutOfRange;
    }
    CHECK(refused);
  }
}

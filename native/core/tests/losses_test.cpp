// Semiconductor loss models: interpolation of measured curves in current and temperature, and the
// switching and conduction losses of a hard-switched IGBT against hand calculation.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <vector>

#include "builders.hpp"
#include "harness.hpp"
#include "elements/switching.hpp"
#include "losses/device_loss.hpp"
#include "losses/loss_table.hpp"
#include "pesim/errors.hpp"

using namespace pesim;
using namespace pesim::test;

namespace {

// Turn-on energies measured at 600 V: at 25 °C E(i) = 1, 3, 7 mJ at 0, 50, 100 A; at 125 °C
// 2, 5, 11 mJ.
LossTable switchingTable() {
  std::vector<LossCurve> curves = {{25.0, 600.0, {0.0, 50.0, 100.0}, {1e-3, 3e-3, 7e-3}},
                                   {125.0, 600.0, {0.0, 50.0, 100.0}, {2e-3, 5e-3, 11e-3}}};
  return LossTable(curves, true, "IGBT.1", "lossModels.m.turnOn");
}

}  // namespace

TEST(loss_table_at_measured_points) {
  LossTable t = switchingTable();
  CHECK_NEAR(t.lookup(25.0, 50.0) * 600.0, 3e-3, 1e-15);
  CHECK_NEAR(t.lookup(125.0, 100.0) * 600.0, 11e-3, 1e-15);
  // Below the lowest temperature: that curve (no extrapolation).
  CHECK_NEAR(t.lookup(-10.0, 0.0) * 600.0, 1e-3, 1e-15);
  // Negative current looked up at |i| (curves measured at i ≥ 0 only).
  CHECK_NEAR(t.lookup(25.0, -50.0) * 600.0, 3e-3, 1e-15);
}

TEST(loss_table_between_points) {
  LossTable t = switchingTable();
  // Between currents at a measured temperature: 25 A → (1 + 3)/2 mJ.
  CHECK_NEAR(t.lookup(25.0, 25.0) * 600.0, 2e-3, 1e-15);
  // Between temperatures at a measured current: 75 °C, 50 A → (3 + 5)/2 mJ.
  CHECK_NEAR(t.lookup(75.0, 50.0) * 600.0, 4e-3, 1e-15);
  // Both: 50 °C, 75 A: 25 °C → 5 mJ, 125 °C → 8 mJ, a quarter of the way → 5.75 mJ.
  CHECK_NEAR(t.lookup(50.0, 75.0) * 600.0, 5.75e-3, 1e-15);
  // Beyond the largest current: the last segment's line (GeckoCIRCUITS findLossValueOnCurve).
  CHECK_NEAR(t.lookup(25.0, 150.0) * 600.0, 11e-3, 1e-15);
  // Above the highest temperature: the line through the two highest curves.
  CHECK_NEAR(t.lookup(175.0, 0.0) * 600.0, 2.5e-3, 1e-15);
}

TEST(loss_table_rejects_unsorted_currents) {
  std::vector<LossCurve> curves = {{25.0, 600.0, {0.0, 50.0, 40.0}, {1e-3, 3e-3, 7e-3}}};
  bool threw = false;
  try {
    LossTable t(curves, true, "IGBT.1", "lossModels.m.turnOn");
  } catch (const Error& e) {
    threw = std::string(e.what()).find("lossModels.m.turnOn[0].i[2]") != std::string::npos;
  }
  CHECK(threw);
}

// 400 V, 40 Ω load, IGBT (vf 0, Ron 0.01 Ω) switched at 10 kHz, duty 0.5. Simple loss model
// (GeckoCIRCUITS LossCalculationSimple): E_on = kOn·|i|·|v|/uSWnorm at every turn-on, E_off the
// same with kOff at every turn-off; conduction i²·Ron while on. Window of exactly 20 periods.
TEST(simple_model_switching_loss_is_energy_times_frequency) {
  Netlist n;
  n.elements = {element("V.1", "V", {"in", "0"}, {{"value", 400.0}}, {{"waveform", "dc"}}),
                element("R.1", "R", {"in", "c"}, {{"R", 40.0}}),
                element("IGBT.1", "IGBT", {"c", "0"}, {{"vf", 0.0}, {"ron", 0.01}, {"kOn", 2e-4}, {"kOff", 3e-4}, {"uSWnorm", 400.0}})};
  BlockSpec loss = block("LOSS.1", "LOSS", {}, {"psw"});
  loss.params.strings = {{"device", "IGBT.1"}, {"part", "switching"}};
  n.blocks = {block("SIGNAL.1", "SIGNAL", {}, {"g"}, {{"frequency", 10e3}, {"duty", 0.5}}, {{"waveform", "rectangle"}}),
              block("GATE.1", "GATE", {"g"}, {}, {}, {{"target", "IGBT.1"}}), loss, block("SCOPE.1", "SCOPE", {"psw"}, {})};
  n.settings.tEnd = 10e-3;
  n.settings.dt = 1e-6;
  n.settings.measureFrom = 7.975e-3;
  n.settings.measureTo = 9.975e-3;
  Result r = simulate(n, RunControl{});
  CHECK(r.losses.size() == 1);
  const DeviceLossSummary& s = r.losses[0];
  const double iOn = 400.0 / 40.01;
  const double vOff = 400.0 * 1e7 / (1e7 + 40.0);
  const double energy = (2e-4 + 3e-4) * iOn * vOff / 400.0;  // one turn-on plus one turn-off
  CHECK(s.switchingEvents == 40);
  CHECK_NEAR(s.switchingLoss, energy * 10e3, 1e-6 * energy * 10e3);
  // Conduction i²·Ron over half of each period (the rectangle's rounding may keep the gate on for
  // one step more per period: 1 step in 50).
  CHECK_NEAR(s.conductionLoss, 0.5 * iOn * iOn * 0.01, 0.5 * iOn * iOn * 0.01 / 50.0);
  CHECK_NEAR(s.totalLoss, s.switchingLoss + s.conductionLoss, 1e-12);
  CHECK_NEAR(s.averageCurrent, 0.5 * iOn, 0.5 * iOn / 50.0);
  CHECK_NEAR(s.rmsCurrent, iOn * std::sqrt(0.5), iOn / 100.0);
  CHECK(!s.hasJunction);
  // The LOSS signal is the energy spread over the step of the event: its mean is the same.
  CHECK_NEAR(measurement(r, "SCOPE.1.ch1.avg"), s.switchingLoss, 0.05 * s.switchingLoss);
}

// The heat the loss models deliver must not depend on the measurement window. A chopper on a
// 1 kHz sine supply (so the voltage before each turn-on differs from the one after the last
// turn-off) heats a junction RC with switching losses mostly: the junction temperature at the end
// is the same number whether every step is measured or only the last millisecond, and the turn-on
// losses do count in it.
TEST(junction_heating_does_not_depend_on_the_measurement_window) {
  auto run = [](double kOn, double measureFrom) {
    Netlist n;
    n.elements = {element("V.1", "V", {"in", "0"}, {{"amplitude", 200.0}, {"offset", 250.0}, {"frequency", 1e3}}, {{"waveform", "sine"}}),
                  element("R.1", "R", {"in", "c"}, {{"R", 40.0}}),
                  element("IGBT.1", "IGBT", {"c", "0"}, {{"vf", 0.0}, {"ron", 0.01}, {"kOn", kOn}, {"kOff", 1e-4}, {"uSWnorm", 400.0}})};
    n.thermal = {element("Tamb", "TSRC", {"amb", "0"}, {{"T", 25.0}}), element("Rth", "RTH", {"j", "amb"}, {{"R", 0.5}}),
                 element("Cth", "CTH", {"j", "amb"}, {{"C", 0.01}})};
    ElementSpec pv = element("Pv", "PV", {"j", "0"});
    pv.params.strings["device"] = "IGBT.1";
    n.thermal.push_back(pv);
    BlockSpec temp = block("TEMP.1", "TEMP", {}, {"tj"});
    temp.params.names["nodes"] = {"j", "0"};
    n.blocks = {block("SIGNAL.1", "SIGNAL", {}, {"g"}, {{"frequency", 7e3}, {"duty", 0.3}}, {{"waveform", "rectangle"}}),
                block("GATE.1", "GATE", {"g"}, {}, {}, {{"target", "IGBT.1"}}), temp, block("SCOPE.1", "SCOPE", {"tj"}, {})};
    n.settings.tEnd = 10e-3;
    n.settings.dt = 1e-6;
    n.settings.measureFrom = measureFrom;
    Result r = simulate(n, RunControl{});
    return channel(r, "SCOPE.1.ch1").values.back();
  };
  const double everyStep = run(3e-4, 0.0);
  const double lastMillisecond = run(3e-4, 9e-3);
  CHECK(everyStep == lastMillisecond);
  // The turn-on losses heat the junction by several kelvin.
  CHECK(everyStep - run(0.0, 0.0) > 1.0);
}

// GeckoCIRCUITS computes the conduction loss from the device current whatever the state
// (LossCalculationSimple.calcConductionLoss): a blocking diode (vf 0.7 V, Ron 0.01 Ω, Roff 1 MΩ)
// under v = −100 V·Roff/(Roff + 10 Ω) carries its leakage as GeckoCIRCUITS reports it,
// i = (v − vf)/Roff, and shows |i|·vf + i²·Ron.
TEST(off_device_reports_its_leakage_and_its_conduction_loss) {
  Netlist n;
  n.elements = {element("V.1", "V", {"in", "0"}, {{"value", 100.0}}, {{"waveform", "dc"}}),
                element("R.1", "R", {"in", "m"}, {{"R", 10.0}}),
                element("D.1", "D", {"0", "m"}, {{"vf", 0.7}, {"ron", 0.01}, {"roff", 1e6}, {"vfOff", 1.0}})};
  BlockSpec loss = block("LOSS.1", "LOSS", {}, {"p"});
  loss.params.strings = {{"device", "D.1"}};
  n.blocks = {loss, block("AMP.1", "AMP", {}, {"i"}, {}, {{"element", "D.1"}}), block("SCOPE.1", "SCOPE", {"p", "i"}, {})};
  n.settings.tEnd = 1e-4;
  n.settings.dt = 1e-6;
  Result r = simulate(n, RunControl{});
  // GeckoCIRCUITS' off diode (vfOff): vf in series with Roff, i = (v − vf)/Roff.
  const double vm = (100.0 / 10.0 - 0.7 / 1e6) / (1.0 / 10.0 + 1.0 / 1e6);
  const double i = (-vm - 0.7) / 1e6;
  const double p = std::fabs(i) * 0.7 + i * i * 0.01;
  CHECK_NEAR(measurement(r, "SCOPE.1.ch1.min"), p, 1e-9 * p);
  CHECK_NEAR(measurement(r, "SCOPE.1.ch1.max"), p, 1e-9 * p);
  CHECK_NEAR(measurement(r, "SCOPE.1.ch2.max"), i, 1e-9 * std::fabs(i));
}

// A switching event is the current crossing 10 mA (AbstractLossCalculatorSwitch.detectTurnOn /
// detectTurnOff), not a change of state: an IGBT gated at 10 kHz in a circuit whose only source is
// 1 mV carries at most 0.1 mA and has no switching loss; at 100 V it has one event per edge.
TEST(switching_loss_events_are_current_crossings) {
  auto run = [](double volts) {
    Netlist n;
    n.elements = {element("V.1", "V", {"in", "0"}, {{"value", volts}}, {{"waveform", "dc"}}),
                  element("R.1", "R", {"in", "c"}, {{"R", 10.0}}),
                  element("IGBT.1", "IGBT", {"c", "0"}, {{"vf", 0.0}, {"ron", 0.01}, {"kOn", 2e-4}, {"kOff", 3e-4}, {"uSWnorm", 400.0}})};
    BlockSpec loss = block("LOSS.1", "LOSS", {}, {"psw"});
    loss.params.strings = {{"device", "IGBT.1"}, {"part", "switching"}};
    n.blocks = {block("SIGNAL.1", "SIGNAL", {}, {"g"}, {{"frequency", 10e3}, {"duty", 0.5}}, {{"waveform", "rectangle"}}),
                block("GATE.1", "GATE", {"g"}, {}, {}, {{"target", "IGBT.1"}}), loss, block("SCOPE.1", "SCOPE", {"psw"}, {})};
    n.settings.tEnd = 1e-3;
    n.settings.dt = 1e-6;
    n.settings.measureFrom = 0.5e-3;
    n.settings.measureTo = 1e-3;
    return simulate(n, RunControl{});
  };
  Result quiet = run(1e-3);
  CHECK(quiet.losses.size() == 1);
  CHECK(quiet.losses[0].switchingEvents == 0);
  CHECK(measurement(quiet, "SCOPE.1.ch1.max") == 0.0);
  Result loud = run(100.0);
  CHECK(loud.losses[0].switchingEvents == 10);
}

namespace {

// The detailed losses of one step as DeviceLoss computed them with a division by n (and a product
// by n) for every device, `paralleled` = 1 included: conduction, and the switching power of a
// current crossing 10 mA per device.
struct ReferenceLoss {
  double conduction, switching;
};
ReferenceLoss referenceLoss(const DetailedLossModel& m, double n, double v, double vPrev, double i, double iPrev,
                            double dt, double tj) {
  const double perDevice = i / n;
  ReferenceLoss r{n * (m.conduction.lookup(tj, perDevice) * std::fabs(perDevice)), 0.0};
  const double now = std::fabs(i) / n, before = std::fabs(iPrev) / n;
  if (before < 1e-2 && now > 1e-2) r.switching = n * (std::max(0.0, m.turnOn.lookup(tj, i / n)) * std::fabs(vPrev)) / dt;
  else if (before > 1e-2 && now < 1e-2) r.switching = n * (std::max(0.0, m.turnOff.lookup(tj, iPrev / n)) * std::fabs(v)) / dt;
  return r;
}

}  // namespace

// A single device skips the division by n = 1 (the same numbers, bit for bit); paralleled devices
// divide the current and multiply the loss.
TEST(detailed_losses_of_single_and_paralleled_devices_match_the_division_by_n) {
  std::vector<LossCurve> conduction = {{25.0, 0.0, {0.0, 10.0, 100.0}, {0.7, 1.1, 2.3}},
                                       {125.0, 0.0, {0.0, 10.0, 100.0}, {0.6, 1.2, 2.9}}};
  std::vector<LossCurve> energy = {{25.0, 600.0, {0.0, 50.0, 100.0}, {1e-3, 3e-3, 7e-3}},
                                   {125.0, 600.0, {0.0, 50.0, 100.0}, {2e-3, 5e-3, 11e-3}}};
  auto model = std::make_shared<const DetailedLossModel>(DetailedLossModel{
      LossTable(conduction, false, "D.1", "c"), LossTable(energy, true, "D.1", "on"), LossTable(energy, true, "D.1", "off")});
  const double ron = 0.013, roff = 1e6, vf = 0.71, dt = 1e-6;
  Diode diode("D.1", {0, kGround}, ron, roff, vf, true);
  long mismatches = 0, events = 0;
  for (int n : {1, 3}) {
    DeviceLoss loss(diode, model, n);
    double x[1] = {0.0}, xPrev[1] = {0.0};
    loss.start(x);
    double iPrev = (0.0 - vf) / roff;
    // Voltages across the (off) diode: leakage currents up to 50 mA, crossing 10 mA per device both ways.
    for (int k = 0; k < 400; ++k) {
      xPrev[0] = x[0];
      x[0] = 5e4 * std::sin(0.05 * k) + 0.37 * k;
      const double tj = 20.0 + 0.3 * k;
      loss.update(x, dt, tj);  // the voltage before is the previous update's (xPrev[0] in the reference)
      const double i = (x[0] - vf) / roff;
      const ReferenceLoss r = referenceLoss(*model, n, x[0], xPrev[0], i, iPrev, dt, tj);
      mismatches += !(loss.conduction() == r.conduction && std::signbit(loss.conduction()) == std::signbit(r.conduction));
      mismatches += !(loss.switching() == r.switching);
      events += r.switching != 0.0;
      iPrev = i;
    }
  }
  CHECK(mismatches == 0);
  CHECK(events > 20);  // the currents crossed 10 mA per device, for both n
}

// A lookup that starts from the segments of the previous ones (LossTable::Cursor) finds the same
// segments as the search from the start, so the same values bit for bit: currents that wander
// slowly (as a device's do), jump, leave the table on both sides, sit exactly on measured points,
// are negative (a table with negative currents too) or NaN; temperatures between, on and beyond
// the curves.
TEST(loss_table_lookups_from_a_cursor_match_the_search_bit_for_bit) {
  std::vector<LossCurve> onState = {{25.0, 0.0, {0.0, 0.0, 5.0, 10.0, 20.0, 40.0, 80.0, 160.0}, {0.0, 0.6, 0.8, 0.95, 1.1, 1.4, 1.9, 2.8}},
                                    {125.0, 0.0, {0.0, 5.0, 10.0, 30.0, 60.0, 100.0}, {0.5, 0.75, 0.9, 1.2, 1.6, 2.1}},
                                    {150.0, 0.0, {0.0, 1.0, 200.0}, {0.4, 0.7, 3.9}}};
  std::vector<LossCurve> signedCurrents = {{125.0, 0.0, {-100.0, -10.0, 0.0, 10.0, 100.0}, {-2.0, -1.0, 0.0, 1.0, 2.0}}};
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::mt19937 random(31);
  std::uniform_real_distribution<double> step(-3.0, 3.0), anywhere(-250.0, 250.0), temperature(0.0, 200.0);
  long mismatches = 0;
  for (const auto& curves : {onState, signedCurrents}) {
    LossTable table(curves, false, "D.1", "lossModels.m.conduction");
    LossTable::Cursor cursor(table);
    double i = 0.0, t = 60.0;
    for (int k = 0; k < 200000; ++k) {
      const int kind = static_cast<int>(random() % 100);
      if (kind < 80) i += step(random);
      else if (kind < 90) i = anywhere(random);
      else if (kind < 95) i = curves[random() % curves.size()].i[random() % 3 + 1];  // a measured point
      else if (kind < 97) i = nan;
      else i = -i;
      if (std::isnan(i) && kind >= 97) i = 0.0;
      if (random() % 50 == 0) t = random() % 4 == 0 ? curves[random() % curves.size()].T : temperature(random);
      const double expected = table.lookup(t, i);
      const double got = table.lookup(t, i, cursor);
      mismatches += !(sameBits(expected, got) || (std::isnan(expected) && std::isnan(got)));
    }
  }
  CHECK(mismatches == 0);
}

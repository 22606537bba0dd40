// Analytic checks of the GeckoCIRCUITS power elements: R = 0 as a current-measuring short, the
// op-amp (OPV: inverting gain, integrator ramp, output limits), the piecewise-linear C(u) and the
// off-state current of devices that keep vf in series with Roff (vfOff).
#include <cmath>

#include "builders.hpp"
#include "pesim/errors.hpp"
#include "harness.hpp"

using namespace pesim;
using namespace pesim::test;

namespace {

double lastValue(const Result& r, const std::string& key) { return channel(r, key).values.back(); }

// An op-amp with a fast pole (fp = 1e9: time constant ~2 ns) so that it acts as a static gain.
ElementSpec fastOpAmp(std::vector<std::string> nodes, double gain, double vmax = 12.0, double vmin = -12.0) {
  return element("OPV.1", "OPV", std::move(nodes),
                 {{"gain", gain}, {"fp", 1e9}, {"vmax", vmax}, {"vmin", vmin}, {"rout", 0.12}, {"rin", 9e4}});
}

}  // namespace

TEST(zero_ohm_resistor_is_a_short_with_a_current) {
  // 10 V across R.1 = 5 Ω in series with R.0 = 0: 2 A through R.0, no voltage across it.
  Netlist n;
  n.elements = {element("V.1", "V", {"in", "0"}, {{"value", 10.0}}, {{"waveform", "dc"}}),
                element("R.0", "R", {"in", "mid"}, {{"R", 0.0}}),
                element("R.1", "R", {"mid", "0"}, {{"R", 5.0}})};
  n.blocks = {block("AMP.1", "AMP", {}, {"i"}, {}, {{"element", "R.0"}}), voltmeter("VOLT.1", "u", "in", "mid"),
              block("SCOPE.1", "SCOPE", {"i", "u"}, {})};
  n.settings.tEnd = 1e-4;
  n.settings.dt = 1e-5;
  Result r = simulate(n, RunControl{});
  CHECK_NEAR(lastValue(r, "SCOPE.1.ch1"), 2.0, 1e-12);
  CHECK_NEAR(lastValue(r, "SCOPE.1.ch2"), 0.0, 1e-12);
}

TEST(negative_resistance_is_rejected) {
  Netlist n;
  n.elements = {element("V.1", "V", {"in", "0"}, {{"value", 1.0}}, {{"waveform", "dc"}}),
                element("R.1", "R", {"in", "0"}, {{"R", -1.0}})};
  n.settings.tEnd = 1e-4;
  n.settings.dt = 1e-5;
  bool threw = false;
  try {
    simulate(n, RunControl{});
  } catch (const Error& e) {
    threw = std::string(e.what()).find("R.1") != std::string::npos;
  }
  CHECK(threw);
}

TEST(opamp_inverting_amplifier_gain) {
  // Rin = 1 kΩ, Rf = 10 kΩ, vin = 0.5 V; open-loop A = gain·rb/(ra+rb) = 1e5·100/101.
  // vout = −(Rf/Rin)·vin / (1 + (1 + Rf/Rin)/A) (finite-gain inverting amplifier).
  Netlist n;
  n.elements = {element("V.1", "V", {"in", "0"}, {{"value", 0.5}}, {{"waveform", "dc"}}),
                element("R.in", "R", {"in", "minus"}, {{"R", 1e3}}),
                element("R.f", "R", {"minus", "out"}, {{"R", 1e4}}),
                element("R.load", "R", {"out", "0"}, {{"R", 1e4}}),
                fastOpAmp({"0", "minus", "out", "0"}, 1e5)};
  n.blocks = {voltmeter("VOLT.1", "vout", "out", "0"), block("SCOPE.1", "SCOPE", {"vout"}, {})};
  n.settings.tEnd = 1e-6;
  n.settings.dt = 1e-8;
  Result r = simulate(n, RunControl{});
  const double a = 1e5 * 100.0 / 101.0;
  // Rout = 0.12 Ω, Rin(op-amp) = 90 kΩ and Riso = 10 MΩ shift the ideal −5 V by well under 1 mV.
  CHECK_NEAR(lastValue(r, "SCOPE.1.ch1"), -5.0 / (1.0 + 11.0 / a), 1e-3);
}

TEST(opamp_output_limits) {
  // A comparator (no feedback): v+ − v− = ±1 V, gain 1000 → clamped at vmax·rb/(ra+rb) = 10·100/101
  // and vmin·rb/(ra+rb) = −5·100/101.
  for (double vin : {1.0, -1.0}) {
    Netlist n;
    n.elements = {element("V.1", "V", {"in", "0"}, {{"value", vin}}, {{"waveform", "dc"}}),
                  element("R.load", "R", {"out", "0"}, {{"R", 1e4}}), fastOpAmp({"in", "0", "out", "0"}, 1e3, 10.0, -5.0)};
    n.blocks = {voltmeter("VOLT.1", "vout", "out", "0"), block("SCOPE.1", "SCOPE", {"vout"}, {})};
    n.settings.tEnd = 1e-6;
    n.settings.dt = 1e-8;
    Result r = simulate(n, RunControl{});
    const double limit = (vin > 0 ? 10.0 : -5.0) * 100.0 / 101.0;
    CHECK_NEAR(lastValue(r, "SCOPE.1.ch1"), limit * 1e4 / (1e4 + 0.12), 1e-9);
  }
}

TEST(opamp_integrator_ramp) {
  // Inverting integrator: vin = 1 V, R = 10 kΩ, C = 1 µF: vout = −t/(RC) = −100 V/s · t.
  Netlist n;
  n.elements = {element("V.1", "V", {"in", "0"}, {{"value", 1.0}}, {{"waveform", "dc"}}),
                element("R.1", "R", {"in", "minus"}, {{"R", 1e4}}),
                element("C.1", "C", {"minus", "out"}, {{"C", 1e-6}}),
                fastOpAmp({"0", "minus", "out", "0"}, 1e6, 100.0, -100.0)};
  n.blocks = {voltmeter("VOLT.1", "vout", "out", "0"), block("SCOPE.1", "SCOPE", {"vout"}, {})};
  n.settings.tEnd = 0.05;
  n.settings.dt = 1e-5;
  n.settings.method = Method::Trapezoidal;
  Result r = simulate(n, RunControl{});
  CHECK_NEAR(lastValue(r, "SCOPE.1.ch1"), -100.0 * 0.05, 0.01);
}

TEST(nonlinear_capacitor_constant_current_crosses_the_knee) {
  // I = 1 mA into C(u): 1 µF up to 10 V, 0.25 µF from 20 V (log interpolation between).
  // Charge at 10 V: 10 µC (t = 10 ms); 10 V → 20 V: mean C = (C2 − C1)/ln(C2/C1) = 0.75 µF/ln 4
  // → 10 V · 0.541 µF = 5.41 µC; then 0.25 µF: u(t) = 20 V + (t − t20)·I/0.25 µF.
  const double meanC = 0.75e-6 / std::log(4.0);
  const double t20 = (10e-6 + 10.0 * meanC) / 1e-3;
  Netlist n;
  ElementSpec c = element("C.1", "C", {"a", "0"});
  c.params.arrays["nonlinU"] = {10.0, 20.0};
  c.params.arrays["nonlinC"] = {1e-6, 0.25e-6};
  n.elements = {element("I.1", "I", {"0", "a"}, {{"value", 1e-3}}, {{"waveform", "dc"}}), c,
                element("R.leak", "R", {"a", "0"}, {{"R", 1e12}})};
  n.blocks = {voltmeter("VOLT.1", "u", "a", "0"), block("SCOPE.1", "SCOPE", {"u"}, {})};
  n.settings.tEnd = 0.02;
  n.settings.dt = 1e-5;
  n.settings.measureFrom = 0.0;
  Result r = simulate(n, RunControl{});
  const auto& u = channel(r, "SCOPE.1.ch1").values;
  for (std::size_t i = 0; i < u.size(); i += 50) {
    const double t = r.time[i];
    double expected = t < 0.01 ? t * 1e3 : t < t20 ? 0.0 : 20.0 + (t - t20) * 1e-3 / 0.25e-6;
    if (t >= 0.01 && t < t20) continue;  // inside the log segment u is not linear in t
    CHECK_NEAR(u[i], expected, 1e-3);
  }
  // The knee at 20 V is crossed at t20: u(t20) = 20 V.
  const std::size_t k = static_cast<std::size_t>(std::ceil(t20 / 1e-5));
  CHECK_NEAR(u[k], 20.0 + (r.time[k] - t20) * 4e3, 1e-3);
}

TEST(vf_off_keeps_the_forward_voltage_in_series_with_roff) {
  // 0.3 V across each device, below vf = 0.8 V: off. GeckoCIRCUITS (vfOff) conducts
  // (0.3 − 0.8)/1e7 = −5e-8 A, the plain model 0.3/1e7; forward 2 V through 1 Ω turns a diode on.
  for (double vfOff : {0.0, 1.0}) {
    Netlist n;
    std::map<std::string, double> device{{"vf", 0.8}, {"ron", 0.01}, {"roff", 1e7}, {"vfOff", vfOff}};
    std::map<std::string, double> mosfet{{"antiparallel", 1.0}, {"diodeVf", 0.8}, {"diodeRoff", 1e7}, {"diodeVfOff", vfOff}};
    n.elements = {element("V.1", "V", {"a", "0"}, {{"value", 0.3}}, {{"waveform", "dc"}}),
                  element("D.1", "D", {"a", "0"}, device), element("T.1", "THYR", {"a", "0"}, device),
                  element("Q.1", "IGBT", {"a", "0"}, device),
                  element("M.1", "MOSFET", {"0", "a"}, mosfet),  // body diode from a to 0
                  element("V.2", "V", {"b", "0"}, {{"value", 2.0}}, {{"waveform", "dc"}}),
                  element("R.1", "R", {"b", "c"}, {{"R", 1.0}}), element("D.2", "D", {"c", "0"}, device)};
    n.blocks = {block("AMP.1", "AMP", {}, {"iD"}, {}, {{"element", "D.1"}}),
                block("AMP.2", "AMP", {}, {"iT"}, {}, {{"element", "T.1"}}),
                block("AMP.3", "AMP", {}, {"iQ"}, {}, {{"element", "Q.1"}}),
                block("AMP.4", "AMP", {}, {"iV"}, {}, {{"element", "V.1"}}),
                block("AMP.5", "AMP", {}, {"iD2"}, {}, {{"element", "D.2"}}),
                block("SCOPE.1", "SCOPE", {"iD", "iT", "iQ", "iV", "iD2"}, {})};
    n.settings.tEnd = 1e-4;
    n.settings.dt = 1e-5;
    Result r = simulate(n, RunControl{});
    double off = vfOff != 0.0 ? -5e-8 : 3e-8;
    for (const char* key : {"SCOPE.1.ch1", "SCOPE.1.ch2", "SCOPE.1.ch3"}) CHECK_NEAR(lastValue(r, key), off, 1e-18);
    // V.1 delivers what D.1, T.1, Q.1 and the MOSFET's body diode take (its current runs a → 0
    // inside the source, i.e. minus the load current).
    CHECK_NEAR(lastValue(r, "SCOPE.1.ch4"), -(4 * off + 0.3 / 1e7), 1e-18);
    CHECK_NEAR(lastValue(r, "SCOPE.1.ch5"), (2.0 - 0.8) / 1.01, 1e-9);
  }
}

TEST(unused_parameters_are_those_nothing_read) {
  // "dutty" is read by nothing; the SIGNAL's own parameters and the resistor's R are.
  Netlist n;
  n.elements = {element("V.1", "V", {"in", "0"}, {{"value", 1.0}}, {{"waveform", "dc"}}),
                element("R.1", "R", {"in", "0"}, {{"R", 5.0}, {"Rr", 1.0}})};
  n.blocks = {block("SIGNAL.1", "SIGNAL", {}, {"g"}, {{"amplitude", 1.0}, {"frequency", 1e3}, {"dutty", 0.2}}, {{"waveform", "rectangle"}})};
  n.settings.tEnd = 1e-4;
  n.settings.dt = 1e-5;
  std::vector<UnusedParameter> unused = unusedParameters(n);
  CHECK(unused.size() == 2);
  CHECK(unused[0].owner == "R.1" && unused[0].key == "Rr");
  CHECK(unused[1].owner == "SIGNAL.1" && unused[1].type == "SIGNAL" && unused[1].key == "dutty");
  bool listsDuty = false;
  for (const auto& name : unused[1].asked) listsDuty = listsDuty || name == "duty";
  CHECK(listsDuty);
}

// Analytic checks of the thermal network and its coupling to device losses: first-order R‖C
// response, Foster and Cauer realisations of one thermal impedance, and the electro-thermal fixed
// point of a temperature-dependent on-state voltage.
#include <cmath>

#include <Eigen/Eigenvalues>

#include "builders.hpp"
#include "harness.hpp"

using namespace pesim;
using namespace pesim::test;

namespace {

// A trivial electrical circuit, so that the run has something to solve beside the heat.
void addDummyCircuit(Netlist& n) {
  n.elements.push_back(element("V.1", "V", {"in", "0"}, {{"value", 1.0}}, {{"waveform", "dc"}}));
  n.elements.push_back(element("R.1", "R", {"in", "0"}, {{"R", 1.0}}));
}

BlockSpec temperatureMeter(std::string name, std::string output, std::string a, std::string b) {
  BlockSpec t = block(std::move(name), "TEMP", {}, {std::move(output)});
  t.params.names["nodes"] = {std::move(a), std::move(b)};
  return t;
}

double valueAt(const Result& r, const std::string& key, double t) {
  const auto& v = channel(r, key).values;
  for (std::size_t i = 0; i < r.time.size(); ++i) {
    if (r.time[i] >= t - 1e-12) return v[i];
  }
  return v.back();
}

// Foster thermal impedance of a Cauer ladder: junction node 1, capacitors C_k from node k to the
// reference, R_k between node k and k + 1, the last to ambient. Z(s) = e1ᵀ(G + sC)⁻¹e1; with
// C^(−1/2)·G·C^(−1/2) = V·Λ·Vᵀ, Z(s) = Σ w_k²/(λ_k + s), w = (C^(−1/2)V)ᵀe1, i.e. Foster stages
// R_k = w_k²/λ_k, τ_k = 1/λ_k, C_k = τ_k/R_k.
void fosterOfCauer(const std::vector<double>& r, const std::vector<double>& c, std::vector<double>& rf,
                   std::vector<double>& cf) {
  const int n = static_cast<int>(r.size());
  Eigen::MatrixXd g = Eigen::MatrixXd::Zero(n, n);
  for (int k = 0; k < n; ++k) {
    const double gk = 1.0 / r[static_cast<std::size_t>(k)];
    g(k, k) += gk;
    if (k + 1 < n) {
      g(k + 1, k + 1) += gk;
      g(k, k + 1) -= gk;
      g(k + 1, k) -= gk;
    }
  }
  Eigen::VectorXd s(n);
  for (int k = 0; k < n; ++k) s(k) = 1.0 / std::sqrt(c[static_cast<std::size_t>(k)]);
  Eigen::MatrixXd a = s.asDiagonal() * g * s.asDiagonal();
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(a);
  for (int k = 0; k < n; ++k) {
    const double w = s(0) * eig.eigenvectors()(0, k);
    const double lambda = eig.eigenvalues()(k);
    rf.push_back(w * w / lambda);
    cf.push_back(1.0 / lambda / rf.back());
  }
}

}  // namespace

// P = 10 W into R = 2 K/W ‖ C = 0.5 J/K above an ambient of 25 °C: T = 25 + P·R·(1 − e^(−t/RC)),
// RC = 1 s.
TEST(thermal_rc_step_response) {
  Netlist n;
  addDummyCircuit(n);
  n.thermal = {element("Tamb", "TSRC", {"amb", "0"}, {{"T", 25.0}}),
               element("Rth.1", "RTH", {"j", "amb"}, {{"R", 2.0}}),
               element("Cth.1", "CTH", {"j", "amb"}, {{"C", 0.5}}),
               element("P.1", "QSRC", {"j", "0"}, {{"P", 10.0}})};
  n.blocks = {temperatureMeter("TEMP.1", "tj", "j", "0"), block("FLOW.1", "FLOW", {}, {"q"}, {}, {{"element", "Rth.1"}}),
              block("SCOPE.1", "SCOPE", {"tj", "q"}, {})};
  n.settings.tEnd = 5.0;
  n.settings.dt = 1e-3;
  n.settings.method = Method::Trapezoidal;
  Result r = simulate(n, RunControl{});
  // The initial solve's short step (dt/1000) lets P·dt/(1000·C) = 2e-5 K in.
  CHECK_NEAR(valueAt(r, "SCOPE.1.ch1", 0.0), 25.0, 1e-4);
  for (double t : {0.5, 1.0, 2.0, 5.0}) {
    CHECK_NEAR(valueAt(r, "SCOPE.1.ch1", t), 25.0 + 20.0 * (1.0 - std::exp(-t)), 2e-4);
    // Heat through Rth = (Tj − Tamb)/R.
    CHECK_NEAR(valueAt(r, "SCOPE.1.ch2", t), 10.0 * (1.0 - std::exp(-t)), 1e-4);
  }
}

// A three-stage Cauer ladder and the Foster chain with the same thermal impedance give the same
// junction temperature for a loss step (any realisation of one transfer function, discretised by
// the same linear method, yields the same response).
TEST(thermal_foster_equals_cauer) {
  const std::vector<double> rc = {0.05, 0.2, 0.4}, cc = {0.02, 0.5, 5.0};
  std::vector<double> rf, cf;
  fosterOfCauer(rc, cc, rf, cf);
  double rTotal = 0.0;
  for (double r : rf) rTotal += r;
  CHECK_NEAR(rTotal, 0.65, 1e-9);  // Z(0) = R1 + R2 + R3 in both forms
  Netlist n;
  addDummyCircuit(n);
  n.thermal = {element("Tamb", "TSRC", {"amb", "0"}, {{"T", 40.0}}),
               element("Pc", "QSRC", {"jc", "0"}, {{"P", 100.0}}), element("Pf", "QSRC", {"jf", "0"}, {{"P", 100.0}})};
  const std::vector<std::string> cauer = {"jc", "c2", "c3", "amb"};
  const std::vector<std::string> foster = {"jf", "f2", "f3", "amb"};
  for (std::size_t k = 0; k < 3; ++k) {
    const std::string s = std::to_string(k + 1);
    n.thermal.push_back(element("Rc" + s, "RTH", {cauer[k], cauer[k + 1]}, {{"R", rc[k]}}));
    n.thermal.push_back(element("Cc" + s, "CTH", {cauer[k], "0"}, {{"C", cc[k]}, {"T0", 40.0}}));
    n.thermal.push_back(element("Rf" + s, "RTH", {foster[k], foster[k + 1]}, {{"R", rf[k]}}));
    n.thermal.push_back(element("Cf" + s, "CTH", {foster[k], foster[k + 1]}, {{"C", cf[k]}}));
  }
  n.blocks = {temperatureMeter("TEMP.1", "tc", "jc", "0"), temperatureMeter("TEMP.2", "tf", "jf", "0"),
              block("SCOPE.1", "SCOPE", {"tc", "tf"}, {})};
  n.settings.tEnd = 20.0;
  n.settings.dt = 1e-3;
  n.settings.method = Method::Trapezoidal;
  Result r = simulate(n, RunControl{});
  const auto& tc = channel(r, "SCOPE.1.ch1").values;
  const auto& tf = channel(r, "SCOPE.1.ch2").values;
  double worst = 0.0;
  for (std::size_t i = 0; i < tc.size(); ++i) worst = std::max(worst, std::abs(tc[i] - tf[i]));
  CHECK(worst < 1e-6);
  CHECK_NEAR(tc.back(), 40.0 + 100.0 * 0.65, 0.05);  // steady state Tamb + P·ΣR
}

// Electro-thermal fixed point: 10 A through a diode whose measured on-state voltage at 10 A is
// 1 V at 25 °C and 2 V at 125 °C (linear between): P(T) = 10·(1 + (T − 25)/100). With Rth = 1 K/W
// to 25 °C ambient, T = 25 + P(T) → T − 25 = 10 + 0.1·(T − 25) → T = 25 + 100/9.
TEST(thermal_electrothermal_fixed_point) {
  Netlist n;
  n.elements = {element("I.1", "I", {"0", "a"}, {{"value", 10.0}}, {{"waveform", "dc"}}),
                element("D.1", "D", {"a", "0"}, {{"vf", 0.7}}, {{"lossModel", "diode"}})};
  LossModelSpec model;
  model.conduction = {{25.0, 0.0, {0.0, 10.0, 20.0}, {0.0, 1.0, 2.0}}, {125.0, 0.0, {0.0, 10.0, 20.0}, {0.0, 2.0, 4.0}}};
  model.turnOn = {{25.0, 400.0, {0.0, 10.0}, {0.0, 0.0}}};
  model.turnOff = {{25.0, 400.0, {0.0, 10.0}, {0.0, 0.0}}};
  n.lossModels["diode"] = model;
  n.thermal = {element("Tamb", "TSRC", {"amb", "0"}, {{"T", 25.0}}), element("Rth", "RTH", {"j", "amb"}, {{"R", 1.0}}),
               element("Cth", "CTH", {"j", "amb"}, {{"C", 0.01}})};
  ElementSpec pv = element("Pv", "PV", {"j", "0"});
  pv.params.strings["device"] = "D.1";
  n.thermal.push_back(pv);
  BlockSpec loss = block("LOSS.1", "LOSS", {}, {"p"});
  loss.params.strings["device"] = "D.1";
  n.blocks = {temperatureMeter("TEMP.1", "tj", "j", "0"), loss, block("SCOPE.1", "SCOPE", {"tj", "p"}, {})};
  n.settings.tEnd = 0.3;
  n.settings.dt = 1e-4;
  Result r = simulate(n, RunControl{});
  const double expected = 25.0 + 100.0 / 9.0;
  CHECK_NEAR(channel(r, "SCOPE.1.ch1").values.back(), expected, 1e-6);
  CHECK_NEAR(channel(r, "SCOPE.1.ch2").values.back(), 10.0 * (1.0 + (expected - 25.0) / 100.0), 1e-5);
  CHECK(r.losses.size() == 1);
  CHECK(r.losses[0].hasJunction);
  CHECK_NEAR(r.losses[0].junctionTemperature, expected, 1e-5);
  CHECK_NEAR(r.losses[0].averageCurrent, 10.0, 1e-9);
}

// A PV on a resistor heats its node with the resistor's v·i (GeckoCIRCUITS LossCalculatorResistor):
// 10 V across 4 Ω is 25 W, into Rth = 2 K/W ‖ Cth = 0.01 J/K (τ = 20 ms) above 0 °C:
// T = 50 °C·(1 − e^(−t/τ)).
// A LOSS block reads the same 25 W as the total; a resistor's loss is not split, so its conduction
// part reads 0. A 0 Ω resistor (an ideal short) dissipates nothing.
TEST(thermal_resistor_losses) {
  Netlist n;
  n.elements = {element("V.1", "V", {"in", "0"}, {{"value", 10.0}}, {{"waveform", "dc"}}),
                element("R.1", "R", {"in", "0"}, {{"R", 4.0}}),
                element("V.2", "V", {"b", "0"}, {{"value", 1.0}}, {{"waveform", "dc"}}),
                element("R.2", "R", {"b", "c"}, {{"R", 1.0}}), element("R.3", "R", {"c", "0"}, {{"R", 0.0}})};
  ElementSpec pv = element("Pv.1", "PV", {"j", "0"});
  pv.params.strings["device"] = "R.1";
  ElementSpec shortPv = element("Pv.2", "PV", {"k", "0"});
  shortPv.params.strings["device"] = "R.3";
  n.thermal = {pv, element("Rth.1", "RTH", {"j", "0"}, {{"R", 2.0}}), element("Cth.1", "CTH", {"j", "0"}, {{"C", 0.01}}),
               shortPv, element("Rth.2", "RTH", {"k", "0"}, {{"R", 1.0}})};
  BlockSpec total = block("LOSS.1", "LOSS", {}, {"p"});
  total.params.strings["device"] = "R.1";
  BlockSpec conduction = block("LOSS.2", "LOSS", {}, {"pc"});
  conduction.params.strings["device"] = "R.1";
  conduction.params.strings["part"] = "conduction";
  n.blocks = {temperatureMeter("TEMP.1", "tj", "j", "0"), temperatureMeter("TEMP.2", "tk", "k", "0"), total, conduction,
              block("SCOPE.1", "SCOPE", {"tj", "p", "pc", "tk"}, {})};
  n.settings.tEnd = 0.2;
  n.settings.dt = 1e-4;
  Result r = simulate(n, RunControl{});
  for (double t : {0.02, 0.05, 0.2}) CHECK_NEAR(valueAt(r, "SCOPE.1.ch1", t), 50.0 * (1.0 - std::exp(-t / 0.02)), 0.1);
  CHECK_NEAR(channel(r, "SCOPE.1.ch2").values.back(), 25.0, 1e-12);
  CHECK(channel(r, "SCOPE.1.ch3").values.back() == 0.0);
  CHECK(channel(r, "SCOPE.1.ch4").values.back() == 0.0);
  CHECK(r.losses.empty());  // the loss summaries are the semiconductors'
}

// The structure of GeckoCIRCUITS' ex_2.ipes (two-switch forward converter, tightly coupled windings,
// secondary referenced to the primary's switch node, every switch off at the start): its MNA matrix
// spans 15 decades (Roff 1e7 Ω against L/dt ≈ 1e8 Ω) and its rectifier diode has no consistent
// two-state solution at some steps. It must factorise (conditioning.hpp), settle its states
// (transient.cpp) and reach the forward converter's output D·(N2/N1)·Vin − vf.
#include <cmath>

#include "builders.hpp"
#include "circuit/circuit.hpp"
#include "harness.hpp"
#include "mna/conditioning.hpp"
#include "mna/factorization.hpp"

using namespace pesim;
using namespace pesim::test;

namespace {

constexpr double kDuty = 0.42;

Netlist forward(double tPre) {
  Netlist n;
  const std::map<std::string, double> dev{{"vf", 0.6}, {"ron", 0.01}, {"roff", 1e7}};
  n.elements = {
      element("U.1", "V", {"1", "n1"}, {{"value", 400}}, {{"waveform", "dc"}}),
      element("IGBT.1", "IGBT", {"1", "2"}, dev),
      element("D.1", "D", {"2", "1"}, dev),
      element("Lc.1", "L", {"2", "5"}, {{"L", 0.0054}}),
      element("D.2", "D", {"0", "2"}, dev),
      element("IGBT.2", "IGBT", {"5", "0"}, dev),
      element("D.26", "D", {"0", "5"}, dev),
      element("D.4", "D", {"5", "1"}, dev),
      element("Lc.2", "L", {"3", "5"}, {{"L", 0.0007}}),
      element("D.5", "D", {"3", "6"}, dev),
      element("D.6", "D", {"5", "6"}, dev),
      element("L.1", "L", {"6", "4"}, {{"L", 0.00011}, {"i0", 25}}),
      element("C.1", "C", {"4", "n2"}, {{"C", 0.00056}, {"v0", 60}}),
      element("R.1", "R", {"n2", "5"}, {{"R", 0.24}}),
      element("I.2", "I", {"4", "5"}, {{"value", 22}}, {{"waveform", "dc"}}),
      element("U.7", "V", {"n1", "0"}, {{"amplitude", 8}, {"frequency", 100}}, {{"waveform", "sine"}}),
  };
  ElementSpec k = element("K.1", "K", {});
  k.params.numbers["k"] = 0.9999;
  k.params.names["inductors"] = {"Lc.1", "Lc.2"};
  n.elements.push_back(k);
  n.blocks = {block("SIGNAL.1", "SIGNAL", {}, {"g"}, {{"frequency", 150e3}, {"duty", kDuty}}, {{"waveform", "rectangle"}}),
              block("GATE.1", "GATE", {"g"}, {}, {}, {{"target", "IGBT.1"}}),
              block("GATE.2", "GATE", {"g"}, {}, {}, {{"target", "IGBT.2"}}),
              voltmeter("VOLT.1", "vout", "4", "5"),
              block("SCOPE.1", "SCOPE", {"vout"}, {})};
  n.settings.tEnd = 2e-4;
  n.settings.dt = 4e-8;
  n.settings.tPre = tPre;
  return n;
}

// The matrix of the first (initial-condition) solve: every device off, dt/1000.
Eigen::MatrixXd initialMatrix(Circuit& circuit, std::vector<double>& values) {
  StepContext ctx{0.0, 4e-11, backwardEulerCoefficients(), nullptr};
  values.assign(circuit.pattern().entries().size(), 0.0);
  for (auto& e : circuit.elements()) e->stampMatrix(values.data(), ctx);
  return Factorizer(circuit.pattern(), true).denseMatrix(values);
}

}  // namespace

TEST(stiff_forward_converter_matrix_factorises_on_both_lu_paths) {
  Circuit circuit(forward(0.0));
  std::vector<double> values;
  Eigen::MatrixXd a = initialMatrix(circuit, values);
  // The old test (pivot > 1e-14·max|a|) rejected this matrix: its smallest partial-pivoting pivot
  // sits 15 decades below its largest entry.
  Eigen::PartialPivLU<Eigen::MatrixXd> raw(a);
  CHECK(raw.matrixLU().diagonal().cwiseAbs().minCoeff() < 1e-14 * a.cwiseAbs().maxCoeff());
  // Equilibrated, it is well inside double precision.
  Eigen::MatrixXd as = scaled(a, equilibrate(a));
  const double rcond = 1.0 / (norm1(as) * norm1(as.inverse()));
  CHECK(rcond > 1e-15);
  Eigen::VectorXd b = Eigen::VectorXd::Zero(a.rows());
  b(circuit.node("4")) = 22.0;  // I.2 from 4 to 5
  b(circuit.node("5")) = -22.0;
  Eigen::VectorXd reference = a.fullPivLu().solve(b);
  for (bool dense : {true, false}) {
    auto lu = Factorizer(circuit.pattern(), dense).factorize(values);
    CHECK(lu != nullptr);
    if (!lu) continue;
    CHECK(lu->rcond() > 1e-15);
    Eigen::VectorXd x = b;
    lu->solve(x);
    // Relative residual: eps·‖A‖·‖x‖ for the sparse LU; the dense path multiplies by the inverse,
    // whose residual grows with the equilibrated condition number (about 1e14 here) instead.
    CHECK_NEAR((a * x - b).lpNorm<1>() / (norm1(a) * x.lpNorm<1>()), 0.0, dense ? 1e-9 : 1e-13);
    // The output voltage (a difference inside the weakly grounded secondary) is well determined.
    const double vout = x(circuit.node("4")) - x(circuit.node("5"));
    const double expected = reference(circuit.node("4")) - reference(circuit.node("5"));
    CHECK_NEAR(vout, expected, 1e-6 * std::abs(expected) + 1e-9);
  }
}

TEST(singular_matrix_is_still_rejected) {
  // Two unknowns, rank one: singular to working precision on both paths.
  Pattern pattern(2);
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 2; ++j) pattern.entry(i, j);
  }
  std::vector<double> values{1.0, 1.0, 1.0, 1.0};
  CHECK(Factorizer(pattern, true).factorize(values) == nullptr);
  CHECK(Factorizer(pattern, false).factorize(values) == nullptr);
}

TEST(forward_converter_with_pre_simulation_reaches_its_ideal_output) {
  Result r = simulate(forward(2e-3), RunControl{});
  CHECK(r.stats.preSteps == 50000);
  // With iterative refinement of its ill-conditioned factorisations the diode states of this
  // circuit are consistent at every step (before it, rounding produced state cycles here).
  const double ratio = std::sqrt(0.0007 / 0.0054);
  const double ideal = kDuty * ratio * 400.0 - 0.6;
  CHECK_NEAR(measurement(r, "SCOPE.1.ch1.avg"), ideal, 0.02 * ideal);
}

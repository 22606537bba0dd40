// OPV: the operational amplifier of GeckoCIRCUITS (OperationalAmplifier, typ 22), terminals
// [in+, in−, out, ref]. GeckoCIRCUITS builds it as a hidden subcircuit:
//   Rin between in+ and in−; Riso = 10 MΩ between in− and ref;
//   Ux = gain·(v(in+) − v(in−)), a voltage source referenced to in−, limited to [vmin, vmax];
//   Ra, Rb: a divider of Ux; Rf = 1 Ω and Cp = 1/fp from the divider tap to in−: the pole;
//   a unit-gain source copying v(Cp) between ref and an inner node, and Rout from it to out.
// The inner network around Ux, Ra, Rb, Rf and Cp touches the outside at in− only and carries no
// net current into it, so it reduces exactly to Cp charged from Vth = Ux·Rb/(Ra+Rb) through
// Rth + Rf (Rth = Ra‖Rb). One extra unknown, the capacitor voltage u, with the companion model of
// the integration method (integrator.hpp):
//   (Vth − u)/(Rth + Rf) = (Cp/dt)·(a0·u + a1·u(n) + a2·u(n−1)) + b1·ic(n)
// and the output is the Thevenin source u behind Rout between out and ref.
// The limit is a three-state device like GeckoCIRCUITS' limited voltage-controlled source
// (LKMatrices.berechneBauteilStroeme, LK_U): linear (0) → upper (1) when gain·vd > vmax, → lower
// (2) when gain·vd < vmin; upper → linear when gain·vd ≤ vmax, lower → linear when gain·vd ≥ vmin;
// in a limited state Ux is the constant limit. Each change solves the step again.
#pragma once

#include "elements/state_device.hpp"

namespace pesim {

struct OpAmpValues {
  double gain, rin, rout, fp, vmax, vmin, ra, rb;
};

class OpAmp final : public StateDevice {
 public:
  static constexpr int kLinear = 0, kUpper = 1, kLower = 2;
  static constexpr double kIsolation = 10e6;  // Riso (GeckoCIRCUITS R_ISOLATION)
  static constexpr double kPoleResistance = 1.0;  // Rf (GeckoCIRCUITS R_F)

  OpAmp(std::string name, std::vector<int> nodes, const OpAmpValues& values);
  int branchCount() const override { return 1; }
  void declare(Pattern& pattern) override;
  bool reactive() const override { return true; }
  void stampMatrix(double* values, const StepContext& step) const override;
  bool hasRhs() const override { return true; }
  void stampRhs(double* rhs, const StepContext& step) override;
  bool hasHistory() const override { return true; }
  void commit(const double* x, const StepContext& step) override;
  bool settle(const double* x, const StepContext& step) override;
  double violation(const double* x, int solvedState) const override;
  // Output current, from out through the element to ref.
  double current(const double* x) const override;
  void visitState(StateVisitor& visitor) override {
    StateDevice::visitState(visitor);
    visitor.real(u_);
    visitor.real(uPrev_);
    visitor.real(ic_);
  }

 private:
  double inputVoltage(const double* x) const { return nodeVoltage(x, node(0)) - nodeVoltage(x, node(1)); }
  double capacitorCurrent(const double* x) const;

  OpAmpValues v_;
  double divider_;   // Rb/(Ra+Rb)
  double series_;    // Rth + Rf
  double cp_;
  double u_ = 0.0, uPrev_ = 0.0, ic_ = 0.0;  // u(n), u(n−1), ic(n)
  ConductanceSlots input_, isolation_, output_;
  int uu_ = kNoSlot, uPlus_ = kNoSlot, uMinus_ = kNoSlot, outU_ = kNoSlot, refU_ = kNoSlot;
};

}  // namespace pesim

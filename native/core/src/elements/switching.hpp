// Semiconductors and switches as two-state resistances (docs/engine-notes.md, "Switches and diodes"):
// Ron when on, Roff when off; diode-like devices add a forward voltage vf in series when on, i.e.
// i = (v − vf)/Ron, stamped as conductance 1/Ron plus the source current −vf/Ron from a to b.
// With `vfOff` the forward voltage stays in series when off, i = (v − vf)/Roff, as in GeckoCIRCUITS'
// diode, thyristor and IGBT (DiodeCalculator, ThyristorCalculator, IGBTCalculator stamp uF/R in
// either state): an off device at v = 0 carries −vf/Roff.
// Gate-driven changes happen at the start of a step (applyGate); voltage- and current-driven
// ones after a solve (settle), after which the engine solves the same step again.
#pragma once

#include "elements/sources.hpp"
#include "elements/state_device.hpp"

namespace pesim {

class SwitchingDevice : public StateDevice {
 public:
  SwitchingDevice(std::string name, std::vector<int> nodes, double ron, double roff, double vf, bool vfOff = false);

  void declare(Pattern& pattern) override { slots_.declare(pattern, node(0), node(1)); }
  void stampMatrix(double* values, const StepContext&) const override {
    slots_.stamp(values, on() ? 1.0 / ron_ : 1.0 / roff_);
  }
  bool hasRhs() const override { return vf_ != 0.0; }
  bool rhsFixedByState() const final { return true; }
  void stampRhs(double* rhs, const StepContext&) final {
    if (on()) addSourceCurrent(rhs, node(0), node(1), onSource_);
    else if (vfOff_) addSourceCurrent(rhs, node(0), node(1), offSource_);
  }
  // The current as GeckoCIRCUITS reports it (LKMatrices.berechneBauteilStroeme, LK_D/LK_IGBT/
  // LK_THYR: (u − uf)/rD in either state): an off diode-like device shows (v − vf)/Roff, although
  // its off state is stamped as Roff alone (its leakage reads −vf/Roff at v = 0, as GeckoCIRCUITS'
  // AMP and loss calculation show it).
  double current(const double* x) const override {
    return on() ? (terminalVoltage(x) - vf_) / ron_ : (terminalVoltage(x) - offVoltage()) / roff_;
  }
  // The voltage in series with Roff: vf with vfOff, else 0.
  double offVoltage() const { return vfOff_ ? vf_ : 0.0; }

  bool on() const { return state() != 0; }
  // The state the forward threshold asks for (GeckoCIRCUITS' LKMatrices.berechneBauteilStroeme,
  // LK_D/LK_THYR/LK_IGBT): an on device stays on while v ≥ forwardScale·vf + acceptance (its
  // current (v − vf)/Ron not reversed when undamped), an off one turns on when
  // v > forwardScale·vf − acceptance.
  bool forwardBiased(const double* x, const StepContext& step) const {
    const double threshold = step.forwardScale * vf_;
    const double v = terminalVoltage(x);
    return on() ? v >= threshold + step.acceptance : v > threshold - step.acceptance;
  }
  double forwardVoltage() const { return vf_; }
  double onResistance() const { return ron_; }
  double offResistance() const { return roff_; }

 protected:
  void setOn(bool on) { setState(on ? 1 : 0); }

 private:
  double ron_, roff_, vf_;
  bool vfOff_;
  // The source currents −vf/Ron and −vf/Roff of stampRhs, divided once instead of every step.
  double onSource_, offSource_;
  ConductanceSlots slots_;
};

// S: ideal bidirectional switch, on while gated. MOSFET channels behave the same way.
class GatedSwitch final : public SwitchingDevice {
 public:
  using SwitchingDevice::SwitchingDevice;
  bool acceptsGate() const override { return true; }
  bool applyGate(bool gate) override {
    if (gate == on()) return false;
    setOn(gate);
    return true;
  }
};

// D: on when v > vf, off when its current would reverse.
class Diode final : public SwitchingDevice {
 public:
  using SwitchingDevice::SwitchingDevice;
  bool settle(const double* x, const StepContext& step) override {
    // On: i = (v − vf)/Ron < 0 means the current would reverse. Off: forward biased beyond vf.
    bool wantOn = forwardBiased(x, step);
    if (wantOn == on()) return false;
    setOn(wantOn);
    return true;
  }
  double violation(const double* x, int solvedState) const override;
};

// THYR: turns on when gated and forward biased (v > vf); turns off when its current has been
// negative for the reverse-recovery time trr (immediately when trr = 0). With `fireOnce` it never
// turns on again after its first turn-off: GeckoCIRCUITS (LKMatrices, LK_THYR) fires a thyristor
// only while its resistance is exactly its initial 1e7 Ω, so one whose Roff is not 1e7 Ω fires once.
class Thyristor final : public SwitchingDevice {
 public:
  Thyristor(std::string name, std::vector<int> nodes, double ron, double roff, double vf, double trr, bool vfOff,
            bool fireOnce);
  bool acceptsGate() const override { return true; }
  bool applyGate(bool gate) override;
  bool settle(const double* x, const StepContext& step) override;
  double violation(const double* x, int solvedState) const override;
  bool hasHistory() const override { return true; }
  void commit(const double* x, const StepContext& step) override;
  void visitState(StateVisitor& visitor) override {
    StateDevice::visitState(visitor);
    visitor.held(gate_);
    visitor.time(negativeSince_);
    visitor.held(spent_);
  }

 private:
  bool mayFire() const { return gate_ && !spent_; }

  double trr_;
  bool fireOnce_;
  bool spent_ = false;  // turned off once, with fireOnce_
  bool gate_ = false;
  double negativeSince_ = -1.0;  // time the current first went negative while on
};

// IGBT: conducts forward (v > vf) only while gated; off when the gate is removed or the current
// would reverse.
class Igbt final : public SwitchingDevice {
 public:
  using SwitchingDevice::SwitchingDevice;
  bool acceptsGate() const override { return true; }
  // applyGate and settle run every step: defined here so the time loop's calls inline them.
  bool applyGate(bool gate) override {
    gate_ = gate;
    if (!gate && on()) {
      setOn(false);
      return true;
    }
    return false;
  }
  bool settle(const double* x, const StepContext& step) override {
    bool wantOn = gate_ && forwardBiased(x, step);
    if (wantOn == on()) return false;
    setOn(wantOn);
    return true;
  }
  double violation(const double* x, int solvedState) const override;
  void visitState(StateVisitor& visitor) override {
    StateDevice::visitState(visitor);
    visitor.held(gate_);
  }

 private:
  bool gate_ = false;
};

// VSW: on when v(c) − v(d) > vt + vh, off when < vt − vh (SPICE voltage-controlled switch).
// When an independent voltage source sits directly across c and d, v(c) − v(d) is that source's
// value u(t) in every solution of the step, so the switch decides its state from u(t) before the
// solve (decide) instead of after it (settle): the same state at the same step, without solving
// the step once more with the old state at every edge of a PULSE gate drive.
class VoltageControlledSwitch final : public SwitchingDevice {
 public:
  VoltageControlledSwitch(std::string name, std::vector<int> nodes, double ron, double roff,
                          double vt, double vh);
  // The source across the control terminals; `sign` −1 when it is connected d → c.
  void setControlSource(const VoltageSource* source, double sign);
  bool settle(const double* x, const StepContext& step) override { return apply(control(x, step)); }
  double violation(const double* x, int solvedState) const override;
  bool decidesBeforeSolve() const override { return source_ != nullptr; }
  bool decide(const StepContext& step) override { return apply(control(nullptr, step)); }

 private:
  double control(const double* x, const StepContext& step) const {
    if (source_ != nullptr) return sign_ * source_->value(step);
    return nodeVoltage(x, node(2)) - nodeVoltage(x, node(3));
  }
  bool apply(double control) {
    bool wantOn = on() ? control >= vt_ - vh_ : control > vt_ + vh_;
    if (wantOn == on()) return false;
    setOn(wantOn);
    return true;
  }

  double vt_, vh_;
  const VoltageSource* source_ = nullptr;
  double sign_ = 1.0;
};

// CSW: on when the control element's current > it + ih, off when < it − ih.
class CurrentControlledSwitch final : public SwitchingDevice {
 public:
  CurrentControlledSwitch(std::string name, std::vector<int> nodes, double ron, double roff,
                          const Element& control, double it, double ih);
  bool settle(const double* x, const StepContext& step) override;
  double violation(const double* x, int solvedState) const override;

 private:
  const Element& control_;
  double it_, ih_;
};

}  // namespace pesim

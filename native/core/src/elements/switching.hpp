// Semiconductors and switches as two-state resistances (engine-notes.md, "Switches and diodes"):
// Ron when on, Roff when off; diode-like devices add a forward voltage vf in series when on, i.e.
// i = (v − vf)/Ron, stamped as conductance 1/Ron plus the source current −vf/Ron from a to b.
// Gate-driven changes happen at the start of a step (applyGate); voltage- and current-driven
// ones after a solve (settle), after which the engine solves the same step again.
#pragma once

#include "elements/element.hpp"

namespace pesim {

class SwitchingDevice : public Element {
 public:
  SwitchingDevice(std::string name, std::vector<int> nodes, double ron, double roff, double vf);

  void declare(Pattern& pattern) override { slots_.declare(pattern, node(0), node(1)); }
  void stampMatrix(double* values, const StepContext&) const override {
    slots_.stamp(values, on_ ? 1.0 / ron_ : 1.0 / roff_);
  }
  bool hasRhs() const override { return vf_ != 0.0; }
  void stampRhs(double* rhs, const StepContext&) override {
    if (on_) addSourceCurrent(rhs, node(0), node(1), -vf_ / ron_);
  }
  double current(const double* x) const override {
    return on_ ? (voltage(x) - vf_) / ron_ : voltage(x) / roff_;
  }

  bool on() const { return on_; }
  double forwardVoltage() const { return vf_; }
  // Gate input (signal index) for gate-driven devices; −1 when ungated.
  void setGateSignal(int index) { gateSignal_ = index; }
  int gateSignal() const { return gateSignal_; }
  virtual bool acceptsGate() const { return false; }
  // Applies the gate value at the start of a step; returns true if the state changed.
  virtual bool applyGate(bool /*gate*/) { return false; }
  // Decides the state from a solution of the present step; returns true if it changed.
  virtual bool settle(const double* /*x*/, const StepContext& /*step*/) { return false; }

 protected:
  void setOn(bool on) { on_ = on; }

 private:
  double ron_, roff_, vf_;
  bool on_ = false;
  int gateSignal_ = -1;
  ConductanceSlots slots_;
};

// S: ideal bidirectional switch, on while gated. MOSFET channels behave the same way.
class GatedSwitch : public SwitchingDevice {
 public:
  using SwitchingDevice::SwitchingDevice;
  bool acceptsGate() const override { return true; }
  bool applyGate(bool gate) override;
};

// D: on when v > vf, off when its current would reverse.
class Diode : public SwitchingDevice {
 public:
  using SwitchingDevice::SwitchingDevice;
  bool settle(const double* x, const StepContext& step) override;
};

// THYR: turns on when gated and forward biased (v > vf); turns off when its current has been
// negative for the reverse-recovery time trr (immediately when trr = 0).
class Thyristor : public SwitchingDevice {
 public:
  Thyristor(std::string name, std::vector<int> nodes, double ron, double roff, double vf, double trr);
  bool acceptsGate() const override { return true; }
  bool applyGate(bool gate) override;
  bool settle(const double* x, const StepContext& step) override;
  bool hasHistory() const override { return true; }
  void commit(const double* x, const StepContext& step) override;

 private:
  double trr_;
  bool gate_ = false;
  double negativeSince_ = -1.0;  // time the current first went negative while on
};

// IGBT: conducts forward (v > vf) only while gated; off when the gate is removed or the current
// would reverse.
class Igbt : public SwitchingDevice {
 public:
  using SwitchingDevice::SwitchingDevice;
  bool acceptsGate() const override { return true; }
  bool applyGate(bool gate) override;
  bool settle(const double* x, const StepContext& step) override;

 private:
  bool gate_ = false;
};

// VSW: on when v(c) − v(d) > vt + vh, off when < vt − vh (SPICE voltage-controlled switch).
class VoltageControlledSwitch : public SwitchingDevice {
 public:
  VoltageControlledSwitch(std::string name, std::vector<int> nodes, double ron, double roff,
                          double vt, double vh);
  bool settle(const double* x, const StepContext& step) override;

 private:
  double vt_, vh_;
};

// CSW: on when the control element's current > it + ih, off when < it − ih.
class CurrentControlledSwitch : public SwitchingDevice {
 public:
  CurrentControlledSwitch(std::string name, std::vector<int> nodes, double ron, double roff,
                          const Element& control, double it, double ih);
  bool settle(const double* x, const StepContext& step) override;

 private:
  const Element& control_;
  double it_, ih_;
};

}  // namespace pesim

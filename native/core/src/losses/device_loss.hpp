// The loss model of one semiconductor (D, THYR, IGBT, MOSFET, S), evaluated after every accepted
// step from the device's state, current and voltage (GeckoCIRCUITS: AbstractLossCalculatorSwitch,
// LossCalculationSimple, VerlustBerechnungDetailed.LossCalculatorDetailed, LossProperties):
//  - conduction loss in the on state: simple model |i|·vf + i²·Ron (the device's on-state model),
//    detailed model u(Tj, i)·|i| from the measured on-state curves;
//  - a switching event is a change of the device state between two steps. A turn-on dissipates
//    E_on(Tj, |i| after)·|v before|/uRef, a turn-off E_off(Tj, |i| before)·|v after|/uRef, the
//    simple model using E = k·|i| with k = kOn, kOff [Ws/A] and uRef = uSWnorm; the energy is
//    spread over the step of the event as the power E/dt;
//  - `paralleled` devices share the current: each sees i/n, the loss is n times one device's.
// The junction temperature Tj is the previous step's (the thermal network solves after the
// losses); without a thermal coupling the detailed model uses 100 °C as GeckoCIRCUITS does.
#pragma once

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "elements/switching.hpp"
#include "losses/loss_table.hpp"
#include "pesim/engine.hpp"

namespace pesim {

enum class LossPart { Total, Conduction, Switching };

// Reads "total" (default), "conduction" or "switching"; throws naming `owner`.
LossPart lossPart(const std::string& text, const std::string& owner);

// The measured curves of a detailed model, built once per netlist entry and shared by devices.
struct DetailedLossModel {
  LossTable conduction;  // on-state voltage [V]
  LossTable turnOn;      // energy per volt of blocking voltage [J/V]
  LossTable turnOff;
};

class DeviceLoss {
 public:
  // Simple model.
  DeviceLoss(const SwitchingDevice& device, double kOn, double kOff, double uSwNorm, int paralleled);
  // Detailed model.
  DeviceLoss(const SwitchingDevice& device, std::shared_ptr<const DetailedLossModel> model, int paralleled);

  const std::string& name() const { return device_.name(); }
  // Remembers the state and voltage of the initial solution (no loss).
  void start(const double* x);

  // Losses of the step just solved (solution x, the previous step's xPrev), at junction
  // temperature tj [°C] (NaN: not coupled). Runs after every step for every device that is not
  // quiet(), so it is inline and does only what the step needs: the device's voltage, and its
  // current (SwitchingDevice::current, with its constants copied here) only where a loss needs
  // it: the conduction loss while on, the switching loss on a change of state. The current of an
  // off device, v/Roff, is computed on demand (current()) from the same voltage and state, so it
  // is the same number; the voltage before a turn-on is read from xPrev, since a quiet device
  // has not kept it.
  void update(const double* x, const double* xPrev, double dt, double tj) {
    const bool on = device_.on();
    const double v = voltage(x);
    switched_ = on != wasOn_;
    if (on) {
      const double i = (v - vf_) / ron_;
      conduction_ = conductionLoss(i, tj);
      switching_ = switched_ ? switchingEnergy(true, i, voltage(xPrev), tj) / dt : 0.0;
    } else {
      conduction_ = 0.0;
      switching_ = switched_ ? switchingEnergy(false, current(), v, tj) / dt : 0.0;
    }
    total_ = conduction_ + switching_;
    wasOn_ = on;
    vPrev_ = v;
  }
  // Off at this step and at the last update, which was no change of state: update() would find
  // no loss again and change nothing but the kept voltage, so a caller may skip it, or call
  // keepVoltage() instead when it needs the current (inside the measurement window, accumulate).
  bool quiet() const { return !wasOn_ && !switched_ && !device_.on(); }
  // What update() does to a quiet device.
  void keepVoltage(const double* x) { vPrev_ = voltage(x); }
  // The nodes whose voltages update() reads.
  int nodeA() const { return a_; }
  int nodeB() const { return b_; }
  double conduction() const { return conduction_; }
  double switching() const { return switching_; }
  double part(LossPart p) const { return *partValue(p); }
  // Where the loss power of one part is kept (stable for the object's life): readers that follow
  // the loss at every step hold it instead of choosing the part each time.
  const double* partValue(LossPart p) const {
    return p == LossPart::Conduction ? &conduction_ : p == LossPart::Switching ? &switching_ : &total_;
  }

  // Window statistics for DeviceLossSummary: call once per step inside the measurement window,
  // after update() (or keepVoltage() for a quiet device: the current is that of the kept
  // voltage). A switching loss of 0 leaves its energy sum as it is (the sum starts at +0 and
  // never becomes −0), so only the steps with a change of state add to it.
  void accumulate(double dt, double tj) {
    conductionEnergy_ += conduction_ * dt;
    if (switched_) {
      switchingEnergy_ += switching_ * dt;
      ++events_;
    }
    const double i = current();
    charge_ += i * dt;
    squares_ += i * i * dt;
    if (!std::isnan(tj)) {
      tjIntegral_ += tj * dt;
      tjMax_ = std::max(tjMax_, tj);
    }
    duration_ += dt;
  }
  DeviceLossSummary summary(bool hasJunction) const;

 private:
  // Conduction loss [W] of the on device (all of its `paralleled` copies) carrying i. A single
  // device (n = 1) skips the division and product by n, which leave every value unchanged.
  double conductionLoss(double i, double tj) const {
    if (detailed_) return detailedConduction(i, tj);
    return n_ == 1.0 ? simpleConduction(i) : n_ * simpleConduction(i / n_);
  }
  // LossCalculationSimple.calcConductionLoss: |i·uf| + i²·Ron.
  double simpleConduction(double i) const { return std::fabs(i) * vf_ + i * i * ron_; }
  double detailedConduction(double i, double tj) const;
  double voltage(const double* x) const { return nodeVoltage(x, a_) - nodeVoltage(x, b_); }
  // The device current at the last update: SwitchingDevice::current of its state and voltage.
  double current() const { return wasOn_ ? (vPrev_ - vf_) / ron_ : (vPrev_ - device_.offVoltage()) / roff_; }
  // Energy [J] of the change of state ending in `on`: a turn-on with the current i after and the
  // voltage v before it, a turn-off with the current i before and the voltage v after it.
  double switchingEnergy(bool on, double i, double v, double tj) const;
  double turnOnEnergy(double i, double v, double tj) const;
  double turnOffEnergy(double i, double v, double tj) const;

  const SwitchingDevice& device_;
  int a_, b_;  // terminal nodes
  double ron_, roff_, vf_;  // the device's on/off resistances and forward voltage
  std::shared_ptr<const DetailedLossModel> detailed_;
  double kOn_ = 0.0, kOff_ = 0.0, uSwNorm_ = 400.0;
  double n_ = 1.0;
  bool wasOn_ = false;
  double vPrev_ = 0.0;  // voltage at the last update
  double conduction_ = 0.0, switching_ = 0.0, total_ = 0.0;
  bool switched_ = false;
  // Window sums: energies [J], charge [C], ∫i² dt, ∫Tj dt, duration [s].
  double conductionEnergy_ = 0.0, switchingEnergy_ = 0.0, charge_ = 0.0, squares_ = 0.0;
  double tjIntegral_ = 0.0, tjMax_ = -1e300, duration_ = 0.0;
  long events_ = 0;
};

}  // namespace pesim

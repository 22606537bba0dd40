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
  // Remembers the state, current and voltage of the initial solution (no loss).
  void start(const double* x);

  // Losses of the step just solved, at junction temperature tj [°C] (NaN: not coupled). Runs for
  // every device after every step, so it is inline and does only what the step needs: the
  // device's voltage and current (SwitchingDevice::current, with its constants copied here), the
  // conduction loss only while on, the switching loss only on a change of state.
  void update(const double* x, double dt, double tj) {
    const bool on = device_.on();
    const double v = nodeVoltage(x, a_) - nodeVoltage(x, b_);
    // Selected operands rather than a branch (the state changes unpredictably between devices);
    // v − 0 is v, so the off current is v/Roff as in the device.
    const double i = (v - (on ? vf_ : 0.0)) / (on ? ron_ : roff_);
    switched_ = on != wasOn_;
    conduction_ = on ? conductionLoss(i, tj) : 0.0;
    switching_ = switched_ ? switchingEnergy(on, i, v, tj) / dt : 0.0;
    wasOn_ = on;
    iPrev_ = i;
    vPrev_ = v;
  }
  double conduction() const { return conduction_; }
  double switching() const { return switching_; }
  double part(LossPart p) const {
    return p == LossPart::Conduction ? conduction_ : p == LossPart::Switching ? switching_ : conduction_ + switching_;
  }

  // Window statistics for DeviceLossSummary: call once per step inside the measurement window,
  // after update(). A switching loss of 0 leaves its energy sum as it is (the sum starts at +0
  // and never becomes −0), so only the steps with a change of state add to it.
  void accumulate(double dt, double tj) {
    conductionEnergy_ += conduction_ * dt;
    if (switched_) {
      switchingEnergy_ += switching_ * dt;
      ++events_;
    }
    charge_ += iPrev_ * dt;
    squares_ += iPrev_ * iPrev_ * dt;
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
  // Energy [J] of the change of state ending in `on`, with the step's current i and voltage v.
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
  double iPrev_ = 0.0, vPrev_ = 0.0;  // current and voltage of the last step
  double conduction_ = 0.0, switching_ = 0.0;
  bool switched_ = false;
  // Window sums: energies [J], charge [C], ∫i² dt, ∫Tj dt, duration [s].
  double conductionEnergy_ = 0.0, switchingEnergy_ = 0.0, charge_ = 0.0, squares_ = 0.0;
  double tjIntegral_ = 0.0, tjMax_ = -1e300, duration_ = 0.0;
  long events_ = 0;
};

}  // namespace pesim

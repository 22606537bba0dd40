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
  // Losses of the step just solved, at junction temperature tj [°C] (NaN: not coupled).
  void update(const double* x, double dt, double tj);
  double conduction() const { return conduction_; }
  double switching() const { return switching_; }
  double part(LossPart p) const {
    return p == LossPart::Conduction ? conduction_ : p == LossPart::Switching ? switching_ : conduction_ + switching_;
  }

  // Window statistics for DeviceLossSummary: call once per step inside the measurement window.
  void accumulate(double dt, double tj);
  DeviceLossSummary summary(bool hasJunction) const;

 private:
  // The device's voltage and current in solution x (read directly: this runs every step).
  double voltage(const double* x) const { return nodeVoltage(x, a_) - nodeVoltage(x, b_); }
  double current(const double* x) const { return device_.SwitchingDevice::current(x); }
  double conductionPerDevice(double i, double tj) const;
  double turnOnEnergy(double i, double v, double tj) const;
  double turnOffEnergy(double i, double v, double tj) const;

  const SwitchingDevice& device_;
  int a_, b_;  // terminal nodes
  std::shared_ptr<const DetailedLossModel> detailed_;
  double kOn_ = 0.0, kOff_ = 0.0, uSwNorm_ = 400.0;
  double n_ = 1.0;
  bool wasOn_ = false;
  double iPrev_ = 0.0, vPrev_ = 0.0, iNow_ = 0.0;
  double conduction_ = 0.0, switching_ = 0.0;
  bool switched_ = false;
  // Window sums: energies [J], charge [C], ∫i² dt, ∫Tj dt, duration [s].
  double conductionEnergy_ = 0.0, switchingEnergy_ = 0.0, charge_ = 0.0, squares_ = 0.0;
  double tjIntegral_ = 0.0, tjMax_ = -1e300, duration_ = 0.0;
  long events_ = 0;
};

}  // namespace pesim

// The loss model of one semiconductor (D, THYR, IGBT, MOSFET, S), evaluated after every accepted
// step from the device's state, current and voltage (GeckoCIRCUITS: AbstractLossCalculatorSwitch,
// LossCalculationSimple, VerlustBerechnungDetailed.LossCalculatorDetailed, LossProperties):
//  - conduction loss from the device current in either state, as GeckoCIRCUITS computes it
//    (calcConductionLoss of both calculators reads the current, not the state): simple model
//    |i|·vf + i²·Ron, detailed model u(Tj, i)·|i| from the measured on-state curves. An off device
//    carries its leakage (v − vf)/Roff (SwitchingDevice::current), so it shows a small loss
//    (3·10⁻⁵ W for 450 V over 10 MΩ with vf = 0.7 V), as in GeckoCIRCUITS;
//  - a switching event is the current of one device crossing 10 mA between two steps, as
//    GeckoCIRCUITS detects it (AbstractLossCalculatorSwitch.detectTurnOn/detectTurnOff, EPS):
//    a turn-on when |i| rises above it, a turn-off when it falls below; not the change of state,
//    so a device switched with no current (a gate turning an IGBT off while its antiparallel
//    path carries the current) has no switching loss. A turn-on dissipates
//    E_on(Tj, |i| after)·|v before|/uRef, a turn-off E_off(Tj, |i| before)·|v after|/uRef, the
//    simple model using E = k·|i| with k = kOn, kOff [Ws/A] and uRef = uSWnorm; the energy is
//    spread over the step of the event as the power E/dt;
//  - `paralleled` devices share the current: each sees i/n, the loss is n times one device's.
// The junction temperature Tj is the previous step's (the thermal network solves after the
// losses); without a thermal coupling the detailed model uses 100 °C as GeckoCIRCUITS does.
#pragma once

#include "steady/state_visitor.hpp"

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
  // Remembers the current of the initial solution (no loss).
  void start(const double* x);
  // The same, and the losses GeckoCIRCUITS computes at t = 0 for step dt: its loss calculation
  // (AbstractLossCalculatorSwitch) starts from a history of −1 A, so a device carrying less than
  // 10 mA at t = 0 counts a turn-off of 1 A (per device) at its voltage then (checked by running it).
  void startFromGeckoHistory(const double* x, double dt, double tj);

  // Losses of the step just solved (solution x) at junction temperature tj [°C] (NaN: not
  // coupled). Runs after every step for every device, so it is inline and does only what the step
  // needs: the device's voltage and its current (SwitchingDevice::current, with its constants
  // copied here); the voltage before a turn-on is the one the previous update (or start) found.
  void update(const double* x, double dt, double tj) {
    const double v = voltage(x);
    const double i = device_.on() ? (v - vf_) / ron_ : (v - vf_) / roff_;
    conduction_ = conductionLoss(i, tj);
    // Per device of a parallel group (LossProperties divides the current before the detection).
    const double now = perDevice(std::fabs(i)), before = perDevice(std::fabs(iPrev_));
    switching_ = 0.0;
    switched_ = false;
    if (before < kEventCurrent && now > kEventCurrent) {
      switched_ = true;
      switching_ = switchingEnergy(true, i, vPrev_, tj) / dt;
    } else if (before > kEventCurrent && now < kEventCurrent) {
      switched_ = true;
      switching_ = switchingEnergy(false, iPrev_, v, tj) / dt;
    }
    total_ = conduction_ + switching_;
    iPrev_ = i;
    vPrev_ = v;
  }
  double conduction() const { return conduction_; }
  double switching() const { return switching_; }
  double part(LossPart p) const { return *partValue(p); }
  // Where the loss power of one part is kept (stable for the object's life): readers that follow
  // the loss at every step hold it instead of choosing the part each time.
  const double* partValue(LossPart p) const {
    return p == LossPart::Conduction ? &conduction_ : p == LossPart::Switching ? &switching_ : &total_;
  }

  // Window statistics for DeviceLossSummary: call once per step inside the measurement window,
  // after update(). A switching loss of 0 leaves its energy sum as it is (the sum starts at +0 and
  // never becomes −0), so only the steps with a change of state add to it.
  void accumulate(double dt, double tj) {
    conductionEnergy_ += conduction_ * dt;
    if (switched_) {
      switchingEnergy_ += switching_ * dt;
      ++events_;
    }
    const double i = iPrev_;
    charge_ += i * dt;
    squares_ += i * i * dt;
    if (!std::isnan(tj)) {
      tjIntegral_ += tj * dt;
      tjMax_ = std::max(tjMax_, tj);
    }
    duration_ += dt;
  }
  DeviceLossSummary summary(bool hasJunction) const;
  // Forgets the window statistics (accumulate starts again).
  void clearWindow() {
    conductionEnergy_ = switchingEnergy_ = charge_ = squares_ = tjIntegral_ = duration_ = 0.0;
    tjMax_ = -1e300;
    events_ = 0;
  }
  // The values the next update() reads (the window statistics are not state).
  void visitState(StateVisitor& visitor) {
    visitor.held(iPrev_);
    visitor.held(vPrev_);
    visitor.held(conduction_);
    visitor.held(switching_);
    visitor.held(total_);
    visitor.held(switched_);
  }

 private:
  // Conduction loss [W] of the device (all of its `paralleled` copies) carrying i. A single
  // device (n = 1) skips the division and product by n, which leave every value unchanged.
  double conductionLoss(double i, double tj) const {
    if (detailed_) return detailedConduction(i, tj);
    return n_ == 1.0 ? simpleConduction(i) : n_ * simpleConduction(i / n_);
  }
  // The share i/n of one of the `paralleled` devices. A single device (nearly all) skips the
  // division, whose result would be i itself, bit for bit: it is on the step's critical path.
  double perDevice(double i) const { return n_ == 1.0 ? i : i / n_; }
  // LossCalculationSimple.calcConductionLoss: |i·uf| + i²·Ron.
  double simpleConduction(double i) const { return std::fabs(i) * vf_ + i * i * ron_; }
  // Per device of a parallel group the current divides and the losses add up (LossProperties).
  // Inline: it runs after every step for every device with a detailed model.
  double detailedConduction(double i, double tj) const {
    const double t = std::isnan(tj) ? kUncoupledJunction : tj;
    const double share = perDevice(i);
    const double one = detailed_->conduction.lookup(t, share, conductionCursor_) * std::fabs(share);
    return n_ == 1.0 ? one : n_ * one;  // 1·y is y, bit for bit
  }
  // GeckoCIRCUITS LossCalculatorDetailed: the junction temperature of a device without a thermal
  // model (the constant there is named DEFAULT_REFERENCE_VOLTAGE but is used as a temperature).
  static constexpr double kUncoupledJunction = 100.0;
  double voltage(const double* x) const { return nodeVoltage(x, a_) - nodeVoltage(x, b_); }
  // Energy [J] of the change of state ending in `on`: a turn-on with the current i after and the
  // voltage v before it, a turn-off with the current i before and the voltage v after it.
  double switchingEnergy(bool on, double i, double v, double tj) const;
  double turnOnEnergy(double i, double v, double tj) const;
  double turnOffEnergy(double i, double v, double tj) const;

  const SwitchingDevice& device_;
  int a_, b_;  // terminal nodes
  double ron_, roff_, vf_;  // the device's on/off resistances and forward voltage
  std::shared_ptr<const DetailedLossModel> detailed_;
  // Where the conduction lookups of this device ended (a search aid: no state, no effect on values).
  mutable LossTable::Cursor conductionCursor_;
  double kOn_ = 0.0, kOff_ = 0.0, uSwNorm_ = 400.0;
  double n_ = 1.0;
  // GeckoCIRCUITS AbstractLossCalculatorSwitch.EPS: the current [A] whose crossing is a switching event.
  static constexpr double kEventCurrent = 1e-2;
  double iPrev_ = 0.0;  // device current at the last update (SwitchingDevice::current)
  double vPrev_ = 0.0;  // device voltage at the last update (or start)
  double conduction_ = 0.0, switching_ = 0.0, total_ = 0.0;
  bool switched_ = false;
  // Window sums: energies [J], charge [C], ∫i² dt, ∫Tj dt, duration [s].
  double conductionEnergy_ = 0.0, switchingEnergy_ = 0.0, charge_ = 0.0, squares_ = 0.0;
  double tjIntegral_ = 0.0, tjMax_ = -1e300, duration_ = 0.0;
  long events_ = 0;
};

}  // namespace pesim

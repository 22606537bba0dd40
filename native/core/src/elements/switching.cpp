// State rules of the switching devices (see switching.hpp).
#include "elements/switching.hpp"

#include <algorithm>


namespace pesim {

SwitchingDevice::SwitchingDevice(std::string name, std::vector<int> nodes, double ron, double roff,
                                 double vf, bool vfOff)
    : StateDevice(std::move(name), std::move(nodes)), ron_(ron), roff_(roff), vf_(vf), vfOff_(vfOff) {}

namespace {

// On: the current (v − vf)/Ron must not be negative, i.e. v ≥ vf; off: v must not exceed vf.
double diodeViolation(double v, double vf, bool wasOn) {
  return wasOn ? std::max(0.0, vf - v) : std::max(0.0, v - vf);
}

double thresholdViolation(double control, double threshold, double hysteresis, bool wasOn) {
  return wasOn ? std::max(0.0, threshold - hysteresis - control) : std::max(0.0, control - threshold - hysteresis);
}

}  // namespace

double Diode::violation(const double* x, int solvedState) const {
  const bool wasOn = solvedState != 0;
  return diodeViolation(voltage(x), forwardVoltage(), wasOn);
}

double Thyristor::violation(const double* x, int solvedState) const {
  const bool wasOn = solvedState != 0;
  if (!wasOn && !gate_) return 0.0;
  return diodeViolation(voltage(x), forwardVoltage(), wasOn);
}

double Igbt::violation(const double* x, int solvedState) const {
  const bool wasOn = solvedState != 0;
  if (!gate_) return 0.0;
  return diodeViolation(voltage(x), forwardVoltage(), wasOn);
}

double VoltageControlledSwitch::violation(const double* x, int solvedState) const {
  const bool wasOn = solvedState != 0;
  if (source_ != nullptr) return 0.0;  // decided from the source value, never inconsistent
  return thresholdViolation(nodeVoltage(x, node(2)) - nodeVoltage(x, node(3)), vt_, vh_, wasOn);
}

double CurrentControlledSwitch::violation(const double* x, int solvedState) const {
  const bool wasOn = solvedState != 0;
  return thresholdViolation(control_.current(x), it_, ih_, wasOn);
}

Thyristor::Thyristor(std::string name, std::vector<int> nodes, double ron, double roff, double vf,
                     double trr, bool vfOff)
    : SwitchingDevice(std::move(name), std::move(nodes), ron, roff, vf, vfOff), trr_(trr) {}

bool Thyristor::applyGate(bool gate) {
  gate_ = gate;  // the gate only fires the device; settle() decides with the voltage
  return false;
}

bool Thyristor::settle(const double* x, const StepContext& step) {
  if (on()) {
    if (current(x) >= 0.0) return false;
    bool recovered = trr_ <= 0.0 || (negativeSince_ >= 0.0 && step.t - negativeSince_ >= trr_);
    if (!recovered) return false;
    setOn(false);
    negativeSince_ = -1.0;
    return true;
  }
  if (gate_ && voltage(x) > forwardVoltage()) {
    setOn(true);
    return true;
  }
  return false;
}

void Thyristor::commit(const double* x, const StepContext& step) {
  if (!on() || current(x) >= 0.0) {
    negativeSince_ = -1.0;
  } else if (negativeSince_ < 0.0) {
    negativeSince_ = step.t;
  }
}

bool Igbt::applyGate(bool gate) {
  gate_ = gate;
  if (!gate && on()) {
    setOn(false);
    return true;
  }
  return false;
}

bool Igbt::settle(const double* x, const StepContext&) {
  bool wantOn = gate_ && (on() ? current(x) >= 0.0 : voltage(x) > forwardVoltage());
  if (wantOn == on()) return false;
  setOn(wantOn);
  return true;
}

VoltageControlledSwitch::VoltageControlledSwitch(std::string name, std::vector<int> nodes,
                                                 double ron, double roff, double vt, double vh)
    : SwitchingDevice(std::move(name), std::move(nodes), ron, roff, 0.0), vt_(vt), vh_(vh) {}

void VoltageControlledSwitch::setControlSource(const VoltageSource* source, double sign) {
  source_ = source;
  sign_ = sign;
}

CurrentControlledSwitch::CurrentControlledSwitch(std::string name, std::vector<int> nodes,
                                                 double ron, double roff, const Element& control,
                                                 double it, double ih)
    : SwitchingDevice(std::move(name), std::move(nodes), ron, roff, 0.0),
      control_(control),
      it_(it),
      ih_(ih) {}

bool CurrentControlledSwitch::settle(const double* x, const StepContext&) {
  double control = control_.current(x);
  bool wantOn = on() ? control >= it_ - ih_ : control > it_ + ih_;
  if (wantOn == on()) return false;
  setOn(wantOn);
  return true;
}

}  // namespace pesim

// State rules of the switching devices (see switching.hpp).
#include "elements/switching.hpp"

namespace pesim {

SwitchingDevice::SwitchingDevice(std::string name, std::vector<int> nodes, double ron, double roff,
                                 double vf)
    : Element(std::move(name), std::move(nodes)), ron_(ron), roff_(roff), vf_(vf) {}

bool GatedSwitch::applyGate(bool gate) {
  if (gate == on()) return false;
  setOn(gate);
  return true;
}

bool Diode::settle(const double* x, const StepContext&) {
  // On: i = (v − vf)/Ron < 0 means the current would reverse. Off: forward biased beyond vf.
  bool wantOn = on() ? current(x) >= 0.0 : voltage(x) > forwardVoltage();
  if (wantOn == on()) return false;
  setOn(wantOn);
  return true;
}

Thyristor::Thyristor(std::string name, std::vector<int> nodes, double ron, double roff, double vf,
                     double trr)
    : SwitchingDevice(std::move(name), std::move(nodes), ron, roff, vf), trr_(trr) {}

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

bool VoltageControlledSwitch::settle(const double* x, const StepContext&) {
  double control = nodeVoltage(x, node(2)) - nodeVoltage(x, node(3));
  bool wantOn = on() ? control >= vt_ - vh_ : control > vt_ + vh_;
  if (wantOn == on()) return false;
  setOn(wantOn);
  return true;
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

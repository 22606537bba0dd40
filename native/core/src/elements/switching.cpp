// State rules of the switching devices (see switching.hpp), and their descriptors (catalog.hpp).
#include "elements/switching.hpp"

#include <algorithm>

#include "elements/catalog.hpp"
#include "pesim/errors.hpp"

namespace pesim {

SwitchingDevice::SwitchingDevice(std::string name, std::vector<int> nodes, double ron, double roff,
                                 double vf, bool vfOff)
    : StateDevice(std::move(name), std::move(nodes)), ron_(ron), roff_(roff), vf_(vf), vfOff_(vfOff),
      onSource_(-vf / ron), offSource_(-vf / roff) {}

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
  if (!wasOn && !mayFire()) return 0.0;
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
                     double trr, bool vfOff, bool fireOnce)
    : SwitchingDevice(std::move(name), std::move(nodes), ron, roff, vf, vfOff), trr_(trr), fireOnce_(fireOnce) {}

bool Thyristor::applyGate(bool gate) {
  gate_ = gate;  // the gate only fires the device; settle() decides with the voltage
  return false;
}

bool Thyristor::settle(const double* x, const StepContext& step) {
  if (on()) {
    if (forwardBiased(x, step)) return false;
    bool recovered = trr_ <= 0.0 || (negativeSince_ >= 0.0 && step.t - negativeSince_ >= trr_);
    if (!recovered) return false;
    setOn(false);
    negativeSince_ = -1.0;
    spent_ = fireOnce_;
    return true;
  }
  if (mayFire() && forwardBiased(x, step)) {
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

namespace {

// GeckoCIRCUITS' device defaults (docs/engine-notes.md).
constexpr double kDefaultRon = 0.01;
constexpr double kDefaultRoff = 1e7;
constexpr double kDefaultVf = 0.6;

struct DeviceValues {
  double ron, roff, vf;
  bool vfOff;  // vf also in series with Roff (GeckoCIRCUITS' devices)
};

DeviceValues deviceValues(const Params& p, double defaultVf, const std::string& prefix = "") {
  auto key = [&](const char* base) {
    if (prefix.empty()) return std::string(base);
    std::string capitalised = base;
    capitalised[0] = static_cast<char>(capitalised[0] - 'a' + 'A');
    return prefix + capitalised;
  };
  DeviceValues v{p.positive(key("ron"), kDefaultRon), p.positive(key("roff"), kDefaultRoff),
                 p.nonNegative(key("vf"), defaultVf), p.number(key("vfOff"), 0.0) != 0.0};
  if (v.roff <= v.ron) p.outOfRange(key("roff"), "greater than " + key("ron"));
  return v;
}

// Anti-parallel diode of an IGBT or MOSFET: cathode on the collector/drain.
std::unique_ptr<Element> antiParallelDiode(const ElementSpec& spec, const Params& p,
                                           const std::vector<int>& nodes) {
  if (p.number("antiparallel", 0.0) == 0.0) return nullptr;
  DeviceValues d = deviceValues(p, kDefaultVf, "diode");
  return std::make_unique<Diode>(spec.name + ".diode", std::vector<int>{nodes[1], nodes[0]}, d.ron, d.roff, d.vf, d.vfOff);
}

// Switching devices (an IGBT or MOSFET with its anti-parallel diode as a companion).
void gatedSwitch(const ElementArgs& a, BuiltElement& built) {
  built.connectivity.conducting.push_back(a.ab);
  DeviceValues d = deviceValues(a.p, 0.0);
  built.element = std::make_unique<GatedSwitch>(a.spec.name, a.nodes, d.ron, d.roff, 0.0);
}

void mosfet(const ElementArgs& a, BuiltElement& built) {
  gatedSwitch(a, built);
  if (auto companion = antiParallelDiode(a.spec, a.p, a.nodes)) built.companions.push_back(std::move(companion));
}

void diode(const ElementArgs& a, BuiltElement& built) {
  built.connectivity.conducting.push_back(a.ab);
  DeviceValues d = deviceValues(a.p, kDefaultVf);
  built.element = std::make_unique<Diode>(a.spec.name, a.nodes, d.ron, d.roff, d.vf, d.vfOff);
}

void thyristor(const ElementArgs& a, BuiltElement& built) {
  built.connectivity.conducting.push_back(a.ab);
  DeviceValues d = deviceValues(a.p, kDefaultVf);
  built.element = std::make_unique<Thyristor>(a.spec.name, a.nodes, d.ron, d.roff, d.vf, a.p.nonNegative("trr", 0.0), d.vfOff,
                                                 a.p.number("fireOnce", 0.0) != 0.0);
}

void igbt(const ElementArgs& a, BuiltElement& built) {
  built.connectivity.conducting.push_back(a.ab);
  DeviceValues d = deviceValues(a.p, kDefaultVf);
  built.element = std::make_unique<Igbt>(a.spec.name, a.nodes, d.ron, d.roff, d.vf, d.vfOff);
  if (auto companion = antiParallelDiode(a.spec, a.p, a.nodes)) built.companions.push_back(std::move(companion));
}

void voltageControlledSwitch(const ElementArgs& a, BuiltElement& built) {
  built.connectivity.conducting.push_back(a.ab);
  DeviceValues d = deviceValues(a.p, 0.0);
  built.element = std::make_unique<VoltageControlledSwitch>(a.spec.name, a.nodes, d.ron, d.roff,
                                                            a.p.number("vt", 0.0), a.p.nonNegative("vh", 0.0));
  built.connectivity.sensing = {a.nodes[2], a.nodes[3]};
}

void currentControlledSwitch(const ElementArgs& a, BuiltElement& built) {
  built.connectivity.conducting.push_back(a.ab);
  DeviceValues d = deviceValues(a.p, 0.0);
  built.element = std::make_unique<CurrentControlledSwitch>(
      a.spec.name, a.nodes, d.ron, d.roff, controlElement(a, false), a.p.number("it", 0.0),
      a.p.nonNegative("ih", 0.0));
}

const ElementDescriptor kSwitchingElements[] = {
    {"S", 2, false, gatedSwitch},
    {"VSW", 4, false, voltageControlledSwitch},
    {"CSW", 2, true, currentControlledSwitch},
    {"D", 2, false, diode},
    {"THYR", 2, false, thyristor},
    {"IGBT", 2, false, igbt},
    {"MOSFET", 2, false, mosfet},
};

}  // namespace

ElementFamily switchingElements() { return elementFamily(kSwitchingElements); }

}  // namespace pesim

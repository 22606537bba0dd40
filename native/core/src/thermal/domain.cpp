// Electro-thermal coupling (see domain.hpp).
#include "thermal/domain.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "circuit/params.hpp"
#include "integration/integrator.hpp"
#include "pesim/errors.hpp"

namespace pesim {

namespace {

bool isLossBlock(const BlockSpec& b) { return b.type == "LOSS"; }

bool hasLossParameters(const ElementSpec& e) {
  const auto& n = e.params.numbers;
  e.params.asked.insert({"kOn", "kOff", "lossModel"});
  return n.count("kOn") || n.count("kOff") || e.params.strings.count("lossModel");
}

const ElementSpec* findSpec(const Netlist& netlist, const std::string& name) {
  for (const auto& e : netlist.elements) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

std::shared_ptr<const DetailedLossModel> detailedModel(const Netlist& netlist, const ElementSpec& spec, const std::string& key) {
  auto it = netlist.lossModels.find(key);
  if (it == netlist.lossModels.end()) {
    throw Error(ErrorCode::UnknownReference,
                spec.name + ": loss model '" + key + "' is not an entry of the netlist's lossModels", spec.name);
  }
  const std::string field = "lossModels." + key;
  const LossModelSpec& m = it->second;
  return std::make_shared<const DetailedLossModel>(DetailedLossModel{
      LossTable(m.conduction, false, spec.name, field + ".conduction"),
      LossTable(m.turnOn, true, spec.name, field + ".turnOn"),
      LossTable(m.turnOff, true, spec.name, field + ".turnOff")});
}

std::unique_ptr<DeviceLoss> makeLoss(const Netlist& netlist, const SwitchingDevice& device) {
  const ElementSpec* spec = findSpec(netlist, device.name());
  if (spec == nullptr) return std::make_unique<DeviceLoss>(device, 0.0, 0.0, 400.0, 1);  // anti-parallel diode
  Params p(spec->name, spec->params);
  const double paralleled = p.number("paralleled", 1.0);
  if (!(paralleled >= 1.0) || paralleled != std::floor(paralleled)) p.outOfRange("paralleled", "a whole number of at least 1");
  const int n = static_cast<int>(paralleled);
  if (spec->params.strings.count("lossModel")) {
    return std::make_unique<DeviceLoss>(device, detailedModel(netlist, *spec, p.text("lossModel")), n);
  }
  // GeckoCIRCUITS LossCalculationSimple: uSWnorm defaults to 400 V (UK_DEFAULT_VALUE); the voltage
  // factor is |u / uSWnorm|, so only its magnitude counts (files save −1 for 1 V).
  const double uSwNorm = p.number("uSWnorm", 400.0);
  if (!(std::isfinite(uSwNorm) && uSwNorm != 0.0)) p.outOfRange("uSWnorm", "a finite voltage other than 0");
  return std::make_unique<DeviceLoss>(device, p.nonNegative("kOn", 0.0), p.nonNegative("kOff", 0.0),
                                      std::fabs(uSwNorm), n);
}

}  // namespace

std::unique_ptr<ThermalDomain> ThermalDomain::build(const Netlist& netlist, const std::vector<SwitchingDevice*>& devices,
                                                    const std::vector<const Element*>& resistors) {
  bool lossBlocks = false;
  for (const auto& b : netlist.blocks) lossBlocks = lossBlocks || isLossBlock(b);
  if (netlist.thermal.empty() && !lossBlocks) return nullptr;
  return std::make_unique<ThermalDomain>(netlist, devices, resistors);
}

DeviceLoss* ThermalDomain::track(const std::string& name, const std::string& user, const Netlist& netlist,
                                 const std::vector<SwitchingDevice*>& devices) {
  for (auto& t : tracked_) {
    if (t.loss->name() == name) return t.loss.get();
  }
  for (SwitchingDevice* device : devices) {
    if (device->name() != name) continue;
    Tracked tracked;
    tracked.loss = makeLoss(netlist, *device);
    tracked_.push_back(std::move(tracked));
    return tracked_.back().loss.get();
  }
  throw Error(ErrorCode::UnknownReference,
              user + ": device '" + name + "' is not a semiconductor, switch or resistor of the circuit (D, THYR, IGBT, MOSFET, S, R)",
              user);
}

ResistorLoss* ThermalDomain::trackResistor(const std::string& name, const std::vector<const Element*>& resistors) {
  for (auto& r : resistors_) {
    if (r.loss->name() == name) return r.loss.get();
  }
  for (const Element* resistor : resistors) {
    if (resistor->name() != name) continue;
    resistors_.push_back({std::make_unique<ResistorLoss>(*resistor)});
    return resistors_.back().loss.get();
  }
  return nullptr;
}

ThermalDomain::LossSource ThermalDomain::lossSource(const ElementSpec& pv, std::size_t slot, const Netlist& netlist,
                                                    const std::vector<SwitchingDevice*>& devices,
                                                    const std::vector<const Element*>& resistors) {
  Params p(pv.name, pv.params);
  const std::string name = p.text("device");
  const LossPart part = lossPart(p.text("part", "total"), pv.name);
  if (const ResistorLoss* resistor = trackResistor(name, resistors)) return {slot, resistor->partValue(part), nullptr, resistor};
  const DeviceLoss* device = track(name, pv.name, netlist, devices);
  return {slot, device->partValue(part), device, nullptr};
}

ThermalDomain::ThermalDomain(const Netlist& netlist, const std::vector<SwitchingDevice*>& devices,
                             const std::vector<const Element*>& resistors)
    : method_(netlist.settings.method), lossesOneStepLate_(netlist.settings.timing == Timing::Gecko) {
  // Devices with loss parameters, in netlist order; then those only a PV or LOSS names.
  for (const auto& e : netlist.elements) {
    if (hasLossParameters(e)) track(e.name, e.name, netlist, devices);
  }
  std::size_t heatSources = 0;
  for (const auto& e : netlist.thermal) heatSources += e.type == "QSRC" || e.type == "PV";
  power_.reserve(heatSources);
  energy_.assign(heatSources, 0.0);
  lateEnergy_.assign(heatSources, 0.0);
  auto power = [&](const ElementSpec& spec) -> const double* {
    Params p(spec.name, spec.params);
    if (spec.type == "QSRC") {
      power_.push_back(p.number("P"));
    } else {
      lossSources_.push_back(lossSource(spec, power_.size(), netlist, devices, resistors));
      power_.push_back(0.0);
    }
    return &power_.back();
  };
  if (!netlist.thermal.empty()) network_ = std::make_unique<ThermalNetwork>(netlist.thermal, power);
  for (const auto& e : netlist.thermal) {
    if (e.type != "PV") continue;
    const std::string device = Params(e.name, e.params).text("device");
    for (auto& t : tracked_) {
      if (t.loss->name() != device || t.coupled) continue;
      t.junction = network_->node(e.nodes[0], e.name);
      t.coupled = true;
    }
  }
  for (const auto& b : netlist.blocks) {
    if (!isLossBlock(b)) continue;
    const std::string device = Params(b.name, b.params).text("device");
    if (trackResistor(device, resistors) == nullptr) track(device, b.name, netlist, devices);
  }
  for (const LossSource& source : lossSources_) {
    for (auto& t : tracked_) {
      if (t.loss.get() == source.device) t.feeds.push_back(source);
    }
  }
}

void ThermalDomain::refreshJunctions() {
  for (auto& t : tracked_) {
    if (t.coupled) t.tj = network_->temperature(t.junction);
  }
}

void ThermalDomain::start(const double* x, double t, double dt) {
  if (lossesOneStepLate_) startGecko(x, t, dt);
  else resume(x, dt);
}

void ThermalDomain::prepare(double dt) {
  if (network_) network_->initialize(dt);
  refreshJunctions();
  std::fill(lateEnergy_.begin(), lateEnergy_.end(), 0.0);
}

void ThermalDomain::resume(const double* x, double dt) {
  prepare(dt);
  for (auto& tracked : tracked_) tracked.loss->start(x);
}

// GeckoCIRCUITS' thermal network takes a step at its first circuit step too, before any loss is
// known: each loss source (ThermPvChip's hidden heat-flow source) still holds a heat-flow source's
// default value, 10 W (AbstractCircuitSource "dcValue"), until ThermPvChip.doCalculation sets its
// losses after that step's solve. The losses of that first step (from GeckoCIRCUITS' loss history)
// are what the network takes at the next step.
void ThermalDomain::startGecko(const double* x, double t, double dt) {
  constexpr double kDefaultHeatFlow = 10.0;
  prepare(dt);
  if (network_) {
    for (const LossSource& source : lossSources_) power_[source.slot] = kDefaultHeatFlow;
    network_->advance(t, dt, backwardEulerCoefficients(), true);
    for (const LossSource& source : lossSources_) power_[source.slot] = 0.0;
    refreshJunctions();
  }
  for (auto& tracked : tracked_) {
    tracked.loss->startFromGeckoHistory(x, dt, tracked.tj);
    for (const LossSource& source : tracked.feeds) lateEnergy_[source.slot] += *source.loss * dt;
  }
}

// The thermal network is advanced every `stride` circuit steps with their mean loss power, so that
// its step stays below a thousandth of its shortest time constant: thermal time constants are
// usually many orders of magnitude above the circuit's step, and solving the network at every
// circuit step would cost as much as the circuit solve itself. With a period of the sources that
// is a whole number of steps, the stride is the largest one below that bound that divides it:
// every period then averages the losses over the same stretches of the period, a settled run is
// periodic in its temperatures too, and the steady-state analysis steps the network as a
// transient run does.
long ThermalDomain::stride(double dt) {
  if (dt == strideDt_) return stride_;
  strideDt_ = dt;
  const double tau = network_ ? network_->shortestTimeConstant() : 0.0;
  stride_ = std::isfinite(tau) ? std::max(1L, static_cast<long>(std::floor(tau / (1000.0 * dt)))) : 1L;
  stride_ = std::min(stride_, 1000L);
  const double steps = period_ / dt;
  if (period_ > 0.0 && std::fabs(steps - std::round(steps)) <= 1e-9 * steps) {
    const long perPeriod = std::lround(steps);
    while (stride_ > 1 && perPeriod % stride_ != 0) --stride_;
  }
  return stride_;
}

void ThermalDomain::advance(const double* x, double t, double dt, bool firstOfPhase, bool measuring) {
  // Losses at the junction temperatures of the previous thermal solution. When no thermal step
  // follows, the window statistics see the same temperatures and are summed in the same pass.
  // Every device has a loss at every step, an off one that of its leakage current (DeviceLoss).
  const bool thermalStep = network_ && ++pending_ >= stride(dt);
  const bool together = measuring && !thermalStep;
  if (firstOfPhase) phaseStart_ = true;
  for (auto& tracked : tracked_) {
    DeviceLoss& loss = *tracked.loss;
    loss.update(x, dt, tracked.tj);
    if (together) loss.accumulate(dt, tracked.tj);
  }
  for (auto& r : resistors_) r.loss->update(x);
  // Each heat source is fed by one loss source, so its step energy is 0.0 + loss·dt (a sum over
  // its feeds from 0.0); only the loss sources' slots receive energy (a QSRC's stays 0).
  if (lossesOneStepLate_) {
    // The network takes the previous step's energy.
    for (const LossSource& source : lossSources_) {
      energy_[source.slot] += lateEnergy_[source.slot];
      lateEnergy_[source.slot] = 0.0 + *source.loss * dt;
    }
  } else {
    for (const LossSource& source : lossSources_) energy_[source.slot] += 0.0 + *source.loss * dt;
  }
  if (thermalStep) {
    const double span = static_cast<double>(pending_) * dt;
    for (const LossSource& source : lossSources_) {
      power_[source.slot] = energy_[source.slot] / span;
      energy_[source.slot] = 0.0;
    }
    // Backward Euler on a phase's first step (no history for the multi-step methods).
    const bool backwardEuler = phaseStart_ || method_ == Method::BackwardEuler;
    network_->advance(t, span, backwardEuler ? backwardEulerCoefficients() : coefficientsFor(method_), backwardEuler);
    pending_ = 0;
    phaseStart_ = false;
    refreshJunctions();
    // The window statistics of this step see the new temperatures.
    if (measuring) {
      for (auto& tracked : tracked_) tracked.loss->accumulate(dt, tracked.tj);
    }
  }
}

namespace {
// Shows every value to `inner` as held: the temperatures when they are not unknowns.
class HeldOnly final : public StateVisitor {
 public:
  explicit HeldOnly(StateVisitor& inner) : inner_(inner) {}
  void real(double& value) override { inner_.held(value); }
  void held(double& value) override { inner_.held(value); }
  void held(int& value) override { inner_.held(value); }
  void held(long& value) override { inner_.held(value); }
  void held(bool& value) override { inner_.held(value); }
  void time(double& value) override { inner_.time(value); }

 private:
  StateVisitor& inner_;
};
}  // namespace

void ThermalDomain::visitState(StateVisitor& visitor, bool temperatures) {
  HeldOnly heldOnly(visitor);
  StateVisitor& v = temperatures ? visitor : heldOnly;
  if (network_) network_->visitState(v);
  v.held(pending_);
  v.held(phaseStart_);
  for (double& e : energy_) v.held(e);
  for (double& e : lateEnergy_) v.held(e);
  for (double& p : power_) v.held(p);
  for (auto& t : tracked_) {
    t.loss->visitState(v);
    v.held(t.tj);
  }
  for (auto& r : resistors_) r.loss->visitState(v);
}

void ThermalDomain::alignToPeriod(double period) {
  period_ = period;
  strideDt_ = 0.0;  // the stride is found again for the next step
}

const double* ThermalDomain::lossPower(const std::string& name, LossPart part) const {
  for (const auto& t : tracked_) {
    if (t.loss->name() == name) return t.loss->partValue(part);
  }
  for (const auto& r : resistors_) {
    if (r.loss->name() == name) return r.loss->partValue(part);
  }
  return nullptr;
}

const ThermalNetwork& ThermalDomain::network(const std::string& user) const {
  if (!network_) {
    throw Error(ErrorCode::UnknownReference, user + ": the netlist has no thermal elements to measure", user);
  }
  return *network_;
}

std::vector<DeviceLossSummary> ThermalDomain::summaries() const {
  std::vector<DeviceLossSummary> out;
  for (const auto& t : tracked_) out.push_back(t.loss->summary(t.coupled));
  return out;
}

}  // namespace pesim

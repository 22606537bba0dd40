// Element factory (see factory.hpp). Default device values follow GeckoCIRCUITS (Ron 0.01 Ω,
// Roff 1e7 Ω, diode vf 0.6 V; docs/engine-notes.md).
#include "elements/factory.hpp"

#include "circuit/params.hpp"
#include "elements/nonlinear.hpp"
#include "elements/opamp.hpp"
#include "elements/short_circuit.hpp"
#include "elements/passive.hpp"
#include "elements/pmsm.hpp"
#include "elements/sources.hpp"
#include "elements/switching.hpp"
#include "pesim/errors.hpp"

namespace pesim {

namespace {

constexpr double kDefaultRon = 0.01;
constexpr double kDefaultRoff = 1e7;
constexpr double kDefaultVf = 0.6;

Element& controlElement(const ElementSpec& spec, const Params& p, const ElementEnvironment& env,
                        bool needsBranch) {
  std::string name = p.text("control");
  Element* control = env.element(name);
  if (control == nullptr) {
    throw Error(ErrorCode::UnknownReference,
                spec.name + ": control element '" + name + "' does not exist", spec.name);
  }
  if (needsBranch && control->branchCount() == 0) {
    throw Error(ErrorCode::ParameterOutOfRange,
                spec.name + ": control element '" + name +
                    "' has no branch current; use a V, L, E, H or TRANS element",
                spec.name);
  }
  return *control;
}

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

// Table of a nonlinear C(u) or L(i) (piecewise.hpp); C is interpolated logarithmically, L linearly,
// as GeckoCIRCUITS does.
PiecewiseLinear characteristic(const Params& p, const std::string& owner, const char* xKey, const char* yKey,
                               bool logarithmic) {
  PiecewiseLinear table(owner, p.array(xKey), p.array(yKey), logarithmic);
  if (table.segments() > StateDevice::kMaxStates) {
    p.outOfRange(xKey, "at most " + std::to_string((StateDevice::kMaxStates + 1) / 2 - 1) + " points");
  }
  return table;
}

// Op-amp parameters with GeckoCIRCUITS' defaults (OperationalAmplifier).
OpAmpValues opAmpValues(const Params& p) {
  OpAmpValues v{p.number("gain", 1e4), p.positive("rin", 9e4), p.positive("rout", 0.12), p.positive("fp", 1e5),
                p.number("vmax", 12.0), p.number("vmin", -12.0), p.positive("ra", 1.0), p.positive("rb", 100.0)};
  if (v.vmax <= v.vmin) p.outOfRange("vmax", "greater than vmin");
  return v;
}

// PMSM parameters with GeckoCIRCUITS' defaults (MotorPMSM, AbstractMotor); the load torque is a
// number or the name of a control signal.
PmsmValues pmsmValues(const Params& p, const ElementEnvironment& env, const std::string& owner) {
  PmsmValues v;
  v.rs = p.nonNegative("Rs", 0.5);
  v.ld = p.positive("Ld", 0.002);
  v.lq = p.positive("Lq", 0.002);
  v.psi = p.number("psi", 0.15);
  v.polePairs = p.positive("polePairs", 1.0);
  v.inertia = p.positive("J", 1.0);
  v.friction = p.nonNegative("friction", 0.1);
  std::string signal = p.text("loadSignal", "");
  if (!signal.empty()) v.loadSignal = env.signal(signal, owner);
  v.loadTorque = p.number("loadTorque", 0.0);
  v.omega0 = p.number("omega0", 0.0);
  v.theta0 = p.number("theta0", 0.0);
  v.ia0 = p.number("ia0", 0.0);
  v.ib0 = p.number("ib0", 0.0);
  return v;
}

// What an element builder receives: the spec, its parameters, its node indices and the circuit.
struct ElementArgs {
  const ElementSpec& spec;
  const Params& p;
  const std::vector<int>& nodes;
  const ElementEnvironment& env;
  std::pair<int, int> ab;  // the first two terminals
};

void resistor(const ElementArgs& a, BuiltElement& built) {
  const double r = a.p.number("R");
  if (!(r >= 0.0)) a.p.outOfRange("R", "at least 0 (0: an ideal short with a branch current)");
  if (r == 0.0) {
    built.element = std::make_unique<ShortCircuit>(a.spec.name, a.nodes);
    built.connectivity.voltageDefining.push_back(a.ab);
  } else {
    built.element = std::make_unique<Resistor>(a.spec.name, a.nodes, r);
  }
  built.connectivity.conducting.push_back(a.ab);
}

void inductor(const ElementArgs& a, BuiltElement& built) {
  if (a.p.has("nonlinI")) {
    built.element = std::make_unique<PiecewiseInductor>(a.spec.name, a.nodes, characteristic(a.p, a.spec.name, "nonlinI", "nonlinL", false),
                                                        a.p.number("i0", 0.0));
  } else {
    built.element = std::make_unique<Inductor>(a.spec.name, a.nodes, a.p.positive("L"), a.p.number("i0", 0.0));
  }
  built.connectivity.conducting.push_back(a.ab);
}

void capacitor(const ElementArgs& a, BuiltElement& built) {
  if (a.p.has("nonlinU")) {
    built.element = std::make_unique<PiecewiseCapacitor>(a.spec.name, a.nodes, characteristic(a.p, a.spec.name, "nonlinU", "nonlinC", true),
                                                         a.p.number("v0", 0.0));
  } else {
    built.element = std::make_unique<Capacitor>(a.spec.name, a.nodes, a.p.positive("C"), a.p.number("v0", 0.0));
  }
  built.connectivity.conducting.push_back(a.ab);
}

void pmsm(const ElementArgs& a, BuiltElement& built) {
  const auto& n = a.nodes;
  built.element = std::make_unique<Pmsm>(a.spec.name, n, pmsmValues(a.p, a.env, a.spec.name));
  built.connectivity.conducting = {{n[0], n[1]}, {n[1], n[2]}};
}

void opAmp(const ElementArgs& a, BuiltElement& built) {
  const auto& n = a.nodes;
  built.element = std::make_unique<OpAmp>(a.spec.name, n, opAmpValues(a.p));
  built.connectivity.conducting = {{n[0], n[1]}, {n[1], n[3]}, {n[2], n[3]}};
}

void coupling(const ElementArgs& a, BuiltElement& built) {
  const Params& p = a.p;
  const std::string& name = a.spec.name;
  std::vector<std::string> names = p.names("inductors");
  if (names.size() != 2) p.outOfRange("inductors", "a list of two inductor names");
  Inductor* coupled[2] = {nullptr, nullptr};
  for (int i = 0; i < 2; ++i) {
    coupled[i] = dynamic_cast<Inductor*>(a.env.element(names[static_cast<std::size_t>(i)]));
    if (coupled[i] == nullptr) {
      throw Error(ErrorCode::UnknownReference,
                  name + ": coupled inductor '" + names[static_cast<std::size_t>(i)] + "' is not an L element of this netlist",
                  name);
    }
  }
  if (coupled[0] == coupled[1]) p.outOfRange("inductors", "two different inductors");
  double k = p.number("k");
  if (!(k > 0.0 && k <= 1.0)) p.outOfRange("k", "greater than 0 and at most 1");
  built.element = std::make_unique<Coupling>(name, *coupled[0], *coupled[1], k);
}

void transformer(const ElementArgs& a, BuiltElement& built) {
  const auto& n = a.nodes;
  built.element = std::make_unique<IdealTransformer>(a.spec.name, n, a.p.positive("n1"), a.p.positive("n2"));
  built.connectivity.conducting = {{n[0], n[1]}, {n[2], n[3]}};
}

Waveform sourceWaveform(const ElementArgs& a) {
  std::string signalName = Waveform::signalName(a.p);
  return Waveform::fromParams(a.p, signalName.empty() ? -1 : a.env.signal(signalName, a.spec.name));
}

void voltageSource(const ElementArgs& a, BuiltElement& built) {
  built.element = std::make_unique<VoltageSource>(a.spec.name, a.nodes, sourceWaveform(a));
  built.connectivity.conducting.push_back(a.ab);
  built.connectivity.voltageDefining.push_back(a.ab);
}

void currentSource(const ElementArgs& a, BuiltElement& built) {
  built.element = std::make_unique<CurrentSource>(a.spec.name, a.nodes, sourceWaveform(a));
  built.connectivity.currentSource.push_back(a.ab);
}

void vcvs(const ElementArgs& a, BuiltElement& built) {
  built.element = std::make_unique<Vcvs>(a.spec.name, a.nodes, a.p.number("gain"));
  built.connectivity.conducting.push_back(a.ab);
  built.connectivity.voltageDefining.push_back(a.ab);
  built.connectivity.sensing = {a.nodes[2], a.nodes[3]};
}

void vccs(const ElementArgs& a, BuiltElement& built) {
  built.element = std::make_unique<Vccs>(a.spec.name, a.nodes, a.p.number("gm"));
  built.connectivity.currentSource.push_back(a.ab);
  built.connectivity.sensing = {a.nodes[2], a.nodes[3]};
}

void cccs(const ElementArgs& a, BuiltElement& built) {
  built.element = std::make_unique<Cccs>(a.spec.name, a.nodes, a.p.number("gain"), controlElement(a.spec, a.p, a.env, true));
  built.connectivity.currentSource.push_back(a.ab);
}

void ccvs(const ElementArgs& a, BuiltElement& built) {
  built.element = std::make_unique<Ccvs>(a.spec.name, a.nodes, a.p.number("r"), controlElement(a.spec, a.p, a.env, true));
  built.connectivity.conducting.push_back(a.ab);
  built.connectivity.voltageDefining.push_back(a.ab);
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
  built.element = std::make_unique<Thyristor>(a.spec.name, a.nodes, d.ron, d.roff, d.vf, a.p.nonNegative("trr", 0.0), d.vfOff);
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
      a.spec.name, a.nodes, d.ron, d.roff, controlElement(a.spec, a.p, a.env, false), a.p.number("it", 0.0),
      a.p.nonNegative("ih", 0.0));
}

// One element type: its netlist name, its terminal count, whether it refers to other elements
// (built in a second pass, after them) and its builder.
struct ElementDescriptor {
  const char* type;
  std::size_t terminals;
  bool readsOtherElements;
  void (*build)(const ElementArgs& args, BuiltElement& built);
};

const ElementDescriptor kElementTypes[] = {
    {"R", 2, false, resistor},
    {"L", 2, false, inductor},
    {"C", 2, false, capacitor},
    {"K", 0, true, coupling},
    {"TRANS", 4, false, transformer},
    {"V", 2, false, voltageSource},
    {"I", 2, false, currentSource},
    {"E", 4, false, vcvs},
    {"F", 2, true, cccs},
    {"G", 4, false, vccs},
    {"H", 2, true, ccvs},
    {"S", 2, false, gatedSwitch},
    {"VSW", 4, false, voltageControlledSwitch},
    {"CSW", 2, true, currentControlledSwitch},
    {"D", 2, false, diode},
    {"THYR", 2, false, thyristor},
    {"IGBT", 2, false, igbt},
    {"MOSFET", 2, false, mosfet},
    {"OPV", 4, false, opAmp},
    {"PMSM", 3, false, pmsm},
};

const ElementDescriptor* findElementType(const std::string& type) {
  for (const ElementDescriptor& d : kElementTypes) {
    if (type == d.type) return &d;
  }
  return nullptr;
}

}  // namespace

bool dependsOnOtherElements(const std::string& type) {
  const ElementDescriptor* d = findElementType(type);
  return d != nullptr && d->readsOtherElements;
}

BuiltElement buildElement(const ElementSpec& spec, const ElementEnvironment& env) {
  const ElementDescriptor* type = findElementType(spec.type);
  if (type == nullptr) {
    throw Error(ErrorCode::UnknownElementType,
                spec.name + ": unknown element type '" + spec.type + "'", spec.name);
  }
  if (spec.nodes.size() != type->terminals) {
    throw Error(ErrorCode::NetlistInvalid,
                spec.name + ": a " + spec.type + " element has " + std::to_string(type->terminals) +
                    " terminals, got " + std::to_string(spec.nodes.size()),
                spec.name);
  }
  std::vector<int> nodes;
  for (const auto& name : spec.nodes) nodes.push_back(env.node(name));
  Params p(spec.name, spec.params);
  const std::pair<int, int> ab = nodes.size() >= 2 ? std::make_pair(nodes[0], nodes[1]) : std::make_pair(0, 0);
  BuiltElement built;
  type->build(ElementArgs{spec, p, nodes, env, ab}, built);
  return built;
}

}  // namespace pesim

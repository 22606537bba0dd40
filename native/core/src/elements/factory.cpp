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

std::size_t terminalCount(const std::string& type) {
  if (type == "K") return 0;
  if (type == "PMSM") return 3;
  if (type == "TRANS" || type == "E" || type == "G" || type == "VSW" || type == "OPV") return 4;
  return 2;
}

bool knownType(const std::string& type) {
  static const char* const kTypes[] = {"R", "L", "C", "K", "TRANS", "V", "I", "E", "F", "G", "H",
                                       "S", "VSW", "CSW", "D", "THYR", "IGBT", "MOSFET", "OPV",
                                       "PMSM"};
  for (const char* known : kTypes) {
    if (type == known) return true;
  }
  return false;
}

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

}  // namespace

bool dependsOnOtherElements(const std::string& type) {
  return type == "K" || type == "F" || type == "H" || type == "CSW";
}

BuiltElement buildElement(const ElementSpec& spec, const ElementEnvironment& env) {
  const std::string& type = spec.type;
  if (!knownType(type)) {
    throw Error(ErrorCode::UnknownElementType,
                spec.name + ": unknown element type '" + type + "'", spec.name);
  }
  if (spec.nodes.size() != terminalCount(type)) {
    throw Error(ErrorCode::NetlistInvalid,
                spec.name + ": a " + type + " element has " + std::to_string(terminalCount(type)) +
                    " terminals, got " + std::to_string(spec.nodes.size()),
                spec.name);
  }
  std::vector<int> nodes;
  for (const auto& name : spec.nodes) nodes.push_back(env.node(name));
  Params p(spec.name, spec.params);
  BuiltElement built;
  Connectivity& c = built.connectivity;
  const std::pair<int, int> ab = nodes.size() >= 2 ? std::make_pair(nodes[0], nodes[1]) : std::make_pair(0, 0);

  if (type == "R") {
    const double r = p.number("R");
    if (!(r >= 0.0)) p.outOfRange("R", "at least 0 (0: an ideal short with a branch current)");
    if (r == 0.0) {
      built.element = std::make_unique<ShortCircuit>(spec.name, nodes);
      c.voltageDefining.push_back(ab);
    } else {
      built.element = std::make_unique<Resistor>(spec.name, nodes, r);
    }
    c.conducting.push_back(ab);
  } else if (type == "L" && p.has("nonlinI")) {
    built.element = std::make_unique<PiecewiseInductor>(spec.name, nodes, characteristic(p, spec.name, "nonlinI", "nonlinL", false),
                                                        p.number("i0", 0.0));
    c.conducting.push_back(ab);
  } else if (type == "L") {
    built.element = std::make_unique<Inductor>(spec.name, nodes, p.positive("L"), p.number("i0", 0.0));
    c.conducting.push_back(ab);
  } else if (type == "C" && p.has("nonlinU")) {
    built.element = std::make_unique<PiecewiseCapacitor>(spec.name, nodes, characteristic(p, spec.name, "nonlinU", "nonlinC", true),
                                                         p.number("v0", 0.0));
    c.conducting.push_back(ab);
  } else if (type == "C") {
    built.element = std::make_unique<Capacitor>(spec.name, nodes, p.positive("C"), p.number("v0", 0.0));
    c.conducting.push_back(ab);
  } else if (type == "PMSM") {
    built.element = std::make_unique<Pmsm>(spec.name, nodes, pmsmValues(p, env, spec.name));
    c.conducting = {{nodes[0], nodes[1]}, {nodes[1], nodes[2]}};
  } else if (type == "OPV") {
    built.element = std::make_unique<OpAmp>(spec.name, nodes, opAmpValues(p));
    c.conducting = {{nodes[0], nodes[1]}, {nodes[1], nodes[3]}, {nodes[2], nodes[3]}};
  } else if (type == "K") {
    std::vector<std::string> names = p.names("inductors");
    if (names.size() != 2) p.outOfRange("inductors", "a list of two inductor names");
    Inductor* coupled[2] = {nullptr, nullptr};
    for (int i = 0; i < 2; ++i) {
      coupled[i] = dynamic_cast<Inductor*>(env.element(names[static_cast<std::size_t>(i)]));
      if (coupled[i] == nullptr) {
        throw Error(ErrorCode::UnknownReference,
                    spec.name + ": coupled inductor '" + names[static_cast<std::size_t>(i)] + "' is not an L element of this netlist",
                    spec.name);
      }
    }
    if (coupled[0] == coupled[1]) p.outOfRange("inductors", "two different inductors");
    double k = p.number("k");
    if (!(k > 0.0 && k <= 1.0)) p.outOfRange("k", "greater than 0 and at most 1");
    built.element = std::make_unique<Coupling>(spec.name, *coupled[0], *coupled[1], k);
  } else if (type == "TRANS") {
    built.element = std::make_unique<IdealTransformer>(spec.name, nodes, p.positive("n1"), p.positive("n2"));
    c.conducting = {{nodes[0], nodes[1]}, {nodes[2], nodes[3]}};
  } else if (type == "V" || type == "I") {
    std::string signalName = Waveform::signalName(p);
    Waveform w = Waveform::fromParams(p, signalName.empty() ? -1 : env.signal(signalName, spec.name));
    if (type == "V") {
      built.element = std::make_unique<VoltageSource>(spec.name, nodes, std::move(w));
      c.conducting.push_back(ab);
      c.voltageDefining.push_back(ab);
    } else {
      built.element = std::make_unique<CurrentSource>(spec.name, nodes, std::move(w));
      c.currentSource.push_back(ab);
    }
  } else if (type == "E") {
    built.element = std::make_unique<Vcvs>(spec.name, nodes, p.number("gain"));
    c.conducting.push_back(ab);
    c.voltageDefining.push_back(ab);
    c.sensing = {nodes[2], nodes[3]};
  } else if (type == "G") {
    built.element = std::make_unique<Vccs>(spec.name, nodes, p.number("gm"));
    c.currentSource.push_back(ab);
    c.sensing = {nodes[2], nodes[3]};
  } else if (type == "F") {
    built.element = std::make_unique<Cccs>(spec.name, nodes, p.number("gain"), controlElement(spec, p, env, true));
    c.currentSource.push_back(ab);
  } else if (type == "H") {
    built.element = std::make_unique<Ccvs>(spec.name, nodes, p.number("r"), controlElement(spec, p, env, true));
    c.conducting.push_back(ab);
    c.voltageDefining.push_back(ab);
  } else {
    // Switching devices.
    c.conducting.push_back(ab);
    if (type == "S" || type == "MOSFET") {
      DeviceValues d = deviceValues(p, 0.0);
      built.element = std::make_unique<GatedSwitch>(spec.name, nodes, d.ron, d.roff, 0.0);
    } else if (type == "D") {
      DeviceValues d = deviceValues(p, kDefaultVf);
      built.element = std::make_unique<Diode>(spec.name, nodes, d.ron, d.roff, d.vf, d.vfOff);
    } else if (type == "THYR") {
      DeviceValues d = deviceValues(p, kDefaultVf);
      built.element = std::make_unique<Thyristor>(spec.name, nodes, d.ron, d.roff, d.vf, p.nonNegative("trr", 0.0), d.vfOff);
    } else if (type == "IGBT") {
      DeviceValues d = deviceValues(p, kDefaultVf);
      built.element = std::make_unique<Igbt>(spec.name, nodes, d.ron, d.roff, d.vf, d.vfOff);
    } else if (type == "VSW") {
      DeviceValues d = deviceValues(p, 0.0);
      built.element = std::make_unique<VoltageControlledSwitch>(spec.name, nodes, d.ron, d.roff,
                                                                p.number("vt", 0.0), p.nonNegative("vh", 0.0));
      c.sensing = {nodes[2], nodes[3]};
    } else {  // CSW
      DeviceValues d = deviceValues(p, 0.0);
      built.element = std::make_unique<CurrentControlledSwitch>(
          spec.name, nodes, d.ron, d.roff, controlElement(spec, p, env, false), p.number("it", 0.0),
          p.nonNegative("ih", 0.0));
    }
    if (type == "IGBT" || type == "MOSFET") {
      if (auto diode = antiParallelDiode(spec, p, nodes)) built.companions.push_back(std::move(diode));
    }
  }
  return built;
}

}  // namespace pesim

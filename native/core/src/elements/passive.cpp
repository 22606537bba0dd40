// Resistor, capacitor, inductor and coupling stamps (see passive.hpp for the equations), and the
// descriptors of R, L, C and K (catalog.hpp).
#include "elements/passive.hpp"

#include <cmath>

#include "elements/catalog.hpp"
#include "elements/nonlinear.hpp"
#include "elements/short_circuit.hpp"
#include "pesim/errors.hpp"

namespace pesim {

Resistor::Resistor(std::string name, std::vector<int> nodes, double r)
    : Element(std::move(name), std::move(nodes)), g_(1.0 / r) {}

Capacitor::Capacitor(std::string name, std::vector<int> nodes, double c, double v0)
    : Element(std::move(name), std::move(nodes)), c_(c), v_(v0), vPrev_(v0) {}

void Capacitor::stampMatrix(double* values, const StepContext& step) const {
  slots_.stamp(values, step.k.a0 * c_ / step.dt);
}

Inductor::Inductor(std::string name, std::vector<int> nodes, double l, double i0)
    : Element(std::move(name), std::move(nodes)), l_(l), i_(i0), iPrev_(i0) {}

void Inductor::declare(Pattern& pattern) {
  slots_.declare(pattern, node(0), node(1), branch());
  selfSlot_ = pattern.entry(branch(), branch());
}

void Inductor::stampMatrix(double* values, const StepContext& step) const {
  slots_.stamp(values);
  addAt(values, selfSlot_, -step.k.a0 * l_ / step.dt);
}

Coupling::Coupling(std::string name, Inductor& first, Inductor& second, double k)
    : Element(std::move(name), {}),
      first_(first),
      second_(second),
      m_(k * std::sqrt(first.inductance() * second.inductance())) {}

void Coupling::declare(Pattern& pattern) {
  slot12_ = pattern.entry(first_.branch(), second_.branch());
  slot21_ = pattern.entry(second_.branch(), first_.branch());
}

void Coupling::stampMatrix(double* values, const StepContext& step) const {
  addAt(values, slot12_, -step.k.a0 * m_ / step.dt);
  addAt(values, slot21_, -step.k.a0 * m_ / step.dt);
}

void Coupling::stampRhs(double* rhs, const StepContext& step) {
  double scale = m_ / step.dt;
  rhs[first_.branch()] +=
      scale * (step.k.a1 * second_.historyCurrent() + step.k.a2 * second_.previousCurrent());
  rhs[second_.branch()] +=
      scale * (step.k.a1 * first_.historyCurrent() + step.k.a2 * first_.previousCurrent());
}

namespace {

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

const ElementDescriptor kPassiveElements[] = {
    {"R", 2, false, resistor},
    {"L", 2, false, inductor},
    {"C", 2, false, capacitor},
    {"K", 0, true, coupling},
};

}  // namespace

ElementFamily passiveElements() { return elementFamily(kPassiveElements); }

}  // namespace pesim

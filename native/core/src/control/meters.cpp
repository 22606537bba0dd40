// Meters: VOLT (potential difference between two nodes, or across an element), AMP (current
// through an element, first terminal to second) and MACHINE (a quantity of a PMSM: GeckoCIRCUITS'
// motor viewer ReglerVIEWMOT reading AbstractMotor's isa, isb, isc, omega, n, theta, Tel). They
// read the circuit solution, or the machine's state, of the step.
#include <cmath>

#include "control/catalog.hpp"
#include "elements/element.hpp"
#include "elements/pmsm.hpp"
#include "pesim/errors.hpp"

namespace pesim {

namespace {

class NodeVoltmeter : public Block {
 public:
  NodeVoltmeter(std::string name, std::vector<int> outputs, int a, int b)
      : Block(std::move(name), {}, std::move(outputs)), a_(a), b_(b) {}
  bool feedthrough() const override { return false; }
  void evaluate(ControlContext& ctx) override {
    out(ctx, nodeVoltage(ctx.x, a_) - nodeVoltage(ctx.x, b_));
  }
  bool probe(SolutionProbe& p) const override {
    p = {output(), a_, b_};
    return true;
  }

 private:
  int a_, b_;
};

class ElementMeter : public Block {
 public:
  ElementMeter(std::string name, std::vector<int> outputs, const Element& element, bool current)
      : Block(std::move(name), {}, std::move(outputs)), element_(element), current_(current) {}
  bool feedthrough() const override { return false; }
  void evaluate(ControlContext& ctx) override {
    out(ctx, current_ ? element_.current(ctx.x) : element_.voltage(ctx.x));
  }
  // Element::voltage() is the difference of the first two terminals' potentials.
  bool probe(SolutionProbe& p) const override {
    p.output = output();
    if (current_) return element_.currentFromSolution(p.plus, p.minus);
    p.plus = element_.nodes()[0];
    p.minus = element_.nodes()[1];
    return true;
  }
  bool readsCurrent(ElementCurrent& c) const override {
    c = {output(), &element_};
    return current_;
  }

 private:
  const Element& element_;
  bool current_;
};

// GeckoCIRCUITS AbstractMotor: omega and theta are mechanical (rad/s, rad), n = 60·omega/2π
// (rpm), Tel the electric torque (N·m).
class MachineMeter : public Block {
 public:
  enum class Quantity { Ia, Ib, Ic, Omega, Rpm, Theta, Torque };
  MachineMeter(std::string name, std::vector<int> outputs, const Pmsm& machine, Quantity q)
      : Block(std::move(name), {}, std::move(outputs)), machine_(machine), q_(q) {}
  bool feedthrough() const override { return false; }
  void evaluate(ControlContext& ctx) override {
    double v = 0.0;
    switch (q_) {
      case Quantity::Ia: v = machine_.phaseCurrent(0); break;
      case Quantity::Ib: v = machine_.phaseCurrent(1); break;
      case Quantity::Ic: v = machine_.phaseCurrent(2); break;
      case Quantity::Omega: v = machine_.speed(); break;
      case Quantity::Rpm: v = machine_.speed() * 60.0 / (2.0 * M_PI); break;
      case Quantity::Theta: v = machine_.rotorAngle(); break;
      case Quantity::Torque: v = machine_.electricTorque(); break;
    }
    out(ctx, v);
  }

 private:
  const Pmsm& machine_;
  Quantity q_;
};

BlockPtr machineMeter(const std::string& name, const Params& p, std::vector<int> outputs, const CircuitLookup& circuit) {
  std::string element = p.text("element");
  const auto* machine = dynamic_cast<const Pmsm*>(circuit.element(element));
  if (machine == nullptr) {
    throw Error(ErrorCode::UnknownReference, name + ": measured machine '" + element + "' is not a PMSM of the circuit", name);
  }
  static const struct { const char* key; MachineMeter::Quantity q; } kQuantities[] = {
      {"isa", MachineMeter::Quantity::Ia}, {"isb", MachineMeter::Quantity::Ib}, {"isc", MachineMeter::Quantity::Ic},
      {"omega", MachineMeter::Quantity::Omega}, {"n", MachineMeter::Quantity::Rpm},
      {"theta", MachineMeter::Quantity::Theta}, {"Tel", MachineMeter::Quantity::Torque}};
  std::string quantity = p.text("quantity");
  for (const auto& k : kQuantities) {
    if (quantity == k.key) return std::make_unique<MachineMeter>(name, std::move(outputs), *machine, k.q);
  }
  p.outOfRange("quantity", "one of isa, isb, isc, omega, n, theta, Tel");
}

const Element& lookupElement(const std::string& block, const Params& p, const CircuitLookup& circuit) {
  std::string name = p.text("element");
  const Element* element = circuit.element(name);
  if (element == nullptr) {
    throw Error(ErrorCode::UnknownReference, block + ": measured element '" + name + "' does not exist", block);
  }
  if (element->nodes().size() < 2) {
    throw Error(ErrorCode::ParameterOutOfRange, block + ": element '" + name + "' has no terminals to measure", block);
  }
  return *element;
}

BlockPtr ammeter(BlockArgs& a) {
  return std::make_unique<ElementMeter>(a.name, std::move(a.outputs), lookupElement(a.name, a.params, a.circuit), true);
}

BlockPtr machineMeterBlock(BlockArgs& a) { return machineMeter(a.name, a.params, std::move(a.outputs), a.circuit); }

BlockPtr voltmeter(BlockArgs& a) {
  const Params& p = a.params;
  if (p.has("nodes")) {
    std::vector<std::string> nodes = p.names("nodes");
    if (nodes.size() != 2) p.outOfRange("nodes", "a list of two node names");
    return std::make_unique<NodeVoltmeter>(a.name, std::move(a.outputs), a.circuit.node(nodes[0]), a.circuit.node(nodes[1]));
  }
  if (!p.has("element")) {
    throw Error(ErrorCode::MissingParameter, a.name + ": a VOLT block needs 'nodes' or 'element'", a.name);
  }
  return std::make_unique<ElementMeter>(a.name, std::move(a.outputs), lookupElement(a.name, p, a.circuit), false);
}

const BlockDescriptor kMeterBlocks[] = {
    {"VOLT", false, 1, voltmeter},
    {"AMP", false, 1, ammeter},
    {"MACHINE", false, 1, machineMeterBlock},
};

}  // namespace

BlockFamily meterBlocks() { return blockFamily(kMeterBlocks); }

}  // namespace pesim

// Meters: VOLT (potential difference between two nodes, or across an element) and AMP (current
// through an element, first terminal to second). They read the circuit solution of the step.
#include "control/block.hpp"
#include "elements/element.hpp"
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

 private:
  const Element& element_;
  bool current_;
};

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

}  // namespace

BlockPtr makeMeterBlock(const std::string& type, const std::string& name, const Params& p,
                        std::vector<int> outputs, const CircuitLookup& circuit) {
  if (type == "AMP") {
    return std::make_unique<ElementMeter>(name, std::move(outputs), lookupElement(name, p, circuit), true);
  }
  if (type != "VOLT") return nullptr;
  if (p.has("nodes")) {
    std::vector<std::string> nodes = p.names("nodes");
    if (nodes.size() != 2) p.outOfRange("nodes", "a list of two node names");
    return std::make_unique<NodeVoltmeter>(name, std::move(outputs), circuit.node(nodes[0]), circuit.node(nodes[1]));
  }
  if (!p.has("element")) {
    throw Error(ErrorCode::MissingParameter, name + ": a VOLT block needs 'nodes' or 'element'", name);
  }
  return std::make_unique<ElementMeter>(name, std::move(outputs), lookupElement(name, p, circuit), false);
}

}  // namespace pesim

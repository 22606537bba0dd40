// Control blocks that read the electro-thermal domain (GeckoCIRCUITS: TEMP and FLOW meters of the
// thermal sheet, and a device's loss as a signal):
//   TEMP  { nodes: [a, b] }     → T_a − T_b [°C] of the thermal solution of the step
//   FLOW  { element }           → heat flow through a thermal element from its node a to b [W]
//                                 (for QSRC and PV: the heat they deliver into node a)
//   LOSS  { device, part? }     → the device's (or resistor's) loss power of the step [W] ("total",
//                                 "conduction", "switching")
// Like VOLT and AMP they have no inputs and no feedthrough.
#include "control/block.hpp"
#include "pesim/errors.hpp"
#include "thermal/domain.hpp"

namespace pesim {

namespace {

class TemperatureMeter final : public Block {
 public:
  TemperatureMeter(std::string name, std::vector<int> outputs, const ThermalNetwork& network, int a, int b)
      : Block(std::move(name), {}, std::move(outputs)), network_(network), a_(a), b_(b) {}
  bool feedthrough() const override { return false; }
  void evaluate(ControlContext& ctx) override { out(ctx, network_.temperature(a_) - network_.temperature(b_)); }

 private:
  const ThermalNetwork& network_;
  int a_, b_;
};

class HeatFlowMeter final : public Block {
 public:
  HeatFlowMeter(std::string name, std::vector<int> outputs, const ThermalNetwork& network, const Element& element)
      : Block(std::move(name), {}, std::move(outputs)), network_(network), element_(element) {}
  bool feedthrough() const override { return false; }
  void evaluate(ControlContext& ctx) override { out(ctx, element_.current(network_.solution())); }

 private:
  const ThermalNetwork& network_;
  const Element& element_;
};

class LossMeter final : public Block {
 public:
  LossMeter(std::string name, std::vector<int> outputs, const double* loss)
      : Block(std::move(name), {}, std::move(outputs)), loss_(loss) {}
  bool feedthrough() const override { return false; }
  void evaluate(ControlContext& ctx) override { out(ctx, *loss_); }

 private:
  const double* loss_;  // ThermalDomain::lossPower
};

const ThermalDomain& domainFor(const std::string& name, const CircuitLookup& circuit) {
  const ThermalDomain* domain = circuit.thermal();
  if (domain == nullptr) {
    throw Error(ErrorCode::UnknownReference, name + ": the netlist has no thermal elements to measure", name);
  }
  return *domain;
}

}  // namespace

BlockPtr makeThermalBlock(const std::string& type, const std::string& name, const Params& p,
                          std::vector<int> outputs, const CircuitLookup& circuit) {
  if (type == "TEMP") {
    const ThermalNetwork& network = domainFor(name, circuit).network(name);
    std::vector<std::string> nodes = p.names("nodes");
    if (nodes.size() != 2) p.outOfRange("nodes", "a list of two thermal node names");
    return std::make_unique<TemperatureMeter>(name, std::move(outputs), network, network.node(nodes[0], name),
                                              network.node(nodes[1], name));
  }
  if (type == "FLOW") {
    const ThermalNetwork& network = domainFor(name, circuit).network(name);
    const std::string element = p.text("element");
    const Element* measured = network.element(element);
    if (measured == nullptr) {
      throw Error(ErrorCode::UnknownReference, name + ": thermal element '" + element + "' does not exist", name);
    }
    return std::make_unique<HeatFlowMeter>(name, std::move(outputs), network, *measured);
  }
  if (type == "LOSS") {
    // ThermalDomain::build creates a domain whenever a LOSS block exists and tracks its device.
    const double* loss = domainFor(name, circuit).lossPower(p.text("device"), lossPart(p.text("part", "total"), name));
    if (loss == nullptr) throw Error(ErrorCode::UnknownReference, name + ": device '" + p.text("device") + "' has no loss model", name);
    return std::make_unique<LossMeter>(name, std::move(outputs), loss);
  }
  return nullptr;
}

}  // namespace pesim

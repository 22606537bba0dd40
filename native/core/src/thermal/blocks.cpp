// Control blocks that read the electro-thermal domain (GeckoCIRCUITS: TEMP and FLOW meters of the
// thermal sheet, and a device's loss as a signal):
//   TEMP  { nodes: [a, b] }     → T_a − T_b [°C] of the thermal solution of the step
//   FLOW  { element }           → heat flow through a thermal element from its node a to b [W]
//                                 (for QSRC and PV: the heat they deliver into node a)
//   LOSS  { device, part? }     → the device's (or resistor's) loss power of the step [W] ("total",
//                                 "conduction", "switching")
// Like VOLT and AMP they have no inputs and no feedthrough.
#include "control/catalog.hpp"
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
  // T_a − T_b read from the network's solution (T − 0 is T, bit for bit: b at the reference is a copy).
  bool copies(ValueCopy& copy) const override {
    copy = {output(), network_.temperatureAt(a_), b_ == kGround ? nullptr : network_.temperatureAt(b_)};
    return true;
  }

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
  bool copies(ValueCopy& copy) const override {
    copy = {output(), loss_, nullptr};
    return true;
  }

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

BlockPtr temperatureMeter(BlockArgs& a) {
  const ThermalNetwork& network = domainFor(a.name, a.circuit).network(a.name);
  std::vector<std::string> nodes = a.params.names("nodes");
  if (nodes.size() != 2) a.params.outOfRange("nodes", "a list of two thermal node names");
  return std::make_unique<TemperatureMeter>(a.name, std::move(a.outputs), network, network.node(nodes[0], a.name),
                                            network.node(nodes[1], a.name));
}

BlockPtr heatFlowMeter(BlockArgs& a) {
  const ThermalNetwork& network = domainFor(a.name, a.circuit).network(a.name);
  const std::string element = a.params.text("element");
  const Element* measured = network.element(element);
  if (measured == nullptr) {
    throw Error(ErrorCode::UnknownReference, a.name + ": thermal element '" + element + "' does not exist", a.name);
  }
  return std::make_unique<HeatFlowMeter>(a.name, std::move(a.outputs), network, *measured);
}

BlockPtr lossMeter(BlockArgs& a) {
  // ThermalDomain::build creates a domain whenever a LOSS block exists and tracks its device.
  const Params& p = a.params;
  const double* loss = domainFor(a.name, a.circuit).lossPower(p.text("device"), lossPart(p.text("part", "total"), a.name));
  if (loss == nullptr) throw Error(ErrorCode::UnknownReference, a.name + ": device '" + p.text("device") + "' has no loss model", a.name);
  return std::make_unique<LossMeter>(a.name, std::move(a.outputs), loss);
}

const BlockDescriptor kThermalBlocks[] = {
    {"TEMP", false, 1, temperatureMeter},
    {"FLOW", false, 1, heatFlowMeter},
    {"LOSS", false, 1, lossMeter},
};

}  // namespace

BlockFamily thermalBlocks() { return blockFamily(kThermalBlocks); }

}  // namespace pesim

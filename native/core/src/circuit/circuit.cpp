// Netlist compilation (see circuit.hpp).
#include "circuit/circuit.hpp"

#include <algorithm>
#include <unordered_set>

#include "circuit/topology.hpp"
#include "elements/factory.hpp"
#include "elements/sources.hpp"
#include "pesim/errors.hpp"

namespace pesim {

namespace {
bool isReference(const std::string& name) { return name == "0" || name == "gnd" || name == "GND"; }
// Node indices handed out for source-driven nodes while the elements are built; replaced by their
// final slots after the unknowns once the branches are numbered.
constexpr int kDrivenPlaceholder = 1 << 28;
bool isPlaceholder(int node) { return node >= kDrivenPlaceholder; }
}  // namespace

Circuit::Circuit(const Netlist& netlist) {
  std::unordered_set<std::string> names;
  for (const auto& e : netlist.elements) {
    if (e.name.empty()) throw Error(ErrorCode::NetlistInvalid, "an element has an empty name");
    if (!names.insert(e.name).second) {
      throw Error(ErrorCode::NetlistInvalid, "two components are named '" + e.name + "'", e.name);
    }
  }
  for (const auto& b : netlist.blocks) {
    if (b.name.empty()) throw Error(ErrorCode::NetlistInvalid, "a control block has an empty name");
    if (!names.insert(b.name).second) {
      throw Error(ErrorCode::NetlistInvalid, "two components are named '" + b.name + "'", b.name);
    }
  }
  findDrivenNodes(netlist);
  numberNodes(netlist);
  SignalTable signals(netlist.blocks);
  buildElements(netlist, signals);
  signalCount_ = signals.size() + latchedSignals_.size();
  std::vector<SwitchingDevice*> switching;  // the devices a loss model can belong to
  for (StateDevice* device : devices_) {
    if (auto* s = dynamic_cast<SwitchingDevice*>(device)) switching.push_back(s);
  }
  std::vector<const Element*> resistors;  // the resistors a PV or LOSS may take losses from
  for (const auto& e : netlist.elements) {
    if (e.type == "R") resistors.push_back(element(e.name));
  }
  thermal_ = ThermalDomain::build(netlist, switching, resistors);
  control_ = std::make_unique<ControlSystem>(netlist.blocks, signals, *this, netlist.settings.dt,
                                             netlist.settings.seed, netlist.settings.timing);
  bindGates();
  bindControlSources();
}

void Circuit::numberNodes(const Netlist& netlist) {
  for (std::size_t k = 0; k < drivenSources_.size(); ++k) {
    nodeIndex_.emplace(drivenSources_[k].first, kDrivenPlaceholder + static_cast<int>(k));
  }
  for (const auto& e : netlist.elements) {
    for (const auto& name : e.nodes) {
      if (name.empty()) throw Error(ErrorCode::NetlistInvalid, e.name + ": a terminal has an empty node name", e.name);
      if (isReference(name) || nodeIndex_.count(name)) continue;
      nodeIndex_.emplace(name, static_cast<int>(nodeNames_.size()));
      nodeNames_.push_back(name);
    }
  }
}

int Circuit::node(const std::string& name) const {
  if (isReference(name)) return kGround;
  auto it = nodeIndex_.find(name);
  if (it == nodeIndex_.end()) {
    throw Error(ErrorCode::UnknownReference, "node '" + name + "' is not a terminal of any element", "", name);
  }
  return it->second;
}

const Element* Circuit::element(const std::string& name) const {
  auto it = byName_.find(name);
  return it == byName_.end() ? nullptr : it->second;
}

std::string Circuit::unknownName(int index) const {
  if (index < static_cast<int>(nodeNames_.size())) return "node '" + nodeNames_[static_cast<std::size_t>(index)] + "'";
  for (const auto& e : elements_) {
    if (e->branchCount() > 0 && e->branch() == index) return "current of '" + e->name() + "'";
  }
  return "unknown " + std::to_string(index);
}

void Circuit::buildElements(const Netlist& netlist, const SignalTable& signals) {
  ElementEnvironment env;
  env.node = [this](const std::string& name) { return node(name); };
  const bool gecko = netlist.settings.timing == Timing::Gecko;
  env.geckoTiming = gecko;
  env.signal = [this, &signals, gecko](const std::string& name, const std::string& user) {
    const int index = signals.index(name, user);
    if (!gecko) return index;
    // GeckoCIRCUITS hands control values to signal-controlled sources after a step's solve and
    // before that step's control calculation (SimulationsKern.dataTransferLK_Control): a source
    // follows the control two steps behind. It reads a copy taken before each control evaluation.
    for (const auto& [from, copy] : latchedSignals_) {
      if (from == index) return copy;
    }
    const int copy = static_cast<int>(signals.size() + latchedSignals_.size());
    latchedSignals_.emplace_back(index, copy);
    return copy;
  };
  env.element = [this](const std::string& name) -> Element* {
    auto it = byName_.find(name);
    return it == byName_.end() ? nullptr : it->second;
  };
  TopologyInput topology;
  topology.nodeNames = nodeNames_;
  auto add = [&](BuiltElement built) {
    // Driven nodes are not part of the network the topology checks see (nothing but the driving
    // source conducts at them).
    Connectivity& c = built.connectivity;
    auto pairHasPlaceholder = [](const std::pair<int, int>& p) { return isPlaceholder(p.first) || isPlaceholder(p.second); };
    c.conducting.erase(std::remove_if(c.conducting.begin(), c.conducting.end(), pairHasPlaceholder), c.conducting.end());
    c.voltageDefining.erase(std::remove_if(c.voltageDefining.begin(), c.voltageDefining.end(), pairHasPlaceholder), c.voltageDefining.end());
    c.sensing.erase(std::remove_if(c.sensing.begin(), c.sensing.end(), isPlaceholder), c.sensing.end());
    topology.elementNames.push_back(built.element->name());
    topology.connectivity.push_back(built.connectivity);
    auto adopt = [&](std::unique_ptr<Element> element) {
      byName_[element->name()] = element.get();
      if (auto* device = dynamic_cast<StateDevice*>(element.get())) devices_.push_back(device);
      elements_.push_back(std::move(element));
    };
    adopt(std::move(built.element));
    for (auto& companion : built.companions) adopt(std::move(companion));
  };
  // Two passes: couplings and current-controlled elements refer to elements built before them.
  for (const auto& spec : netlist.elements) {
    if (!dependsOnOtherElements(spec.type)) add(buildElement(spec, env));
  }
  for (const auto& spec : netlist.elements) {
    if (dependsOnOtherElements(spec.type)) add(buildElement(spec, env));
  }
  std::vector<int> ties = checkTopology(topology, warnings_);

  for (const auto& driven : drivenSources_) static_cast<VoltageSource*>(byName_.at(driven.second))->driveNode();
  unknowns_ = static_cast<int>(nodeNames_.size());
  for (auto& e : elements_) {
    e->setFirstBranch(unknowns_);
    unknowns_ += e->branchCount();
  }
  for (std::size_t k = 0; k < drivenSources_.size(); ++k) {
    const int slot = unknowns_ + static_cast<int>(k);
    nodeIndex_[drivenSources_[k].first] = slot;
    for (auto& e : elements_) e->relocateNode(kDrivenPlaceholder + static_cast<int>(k), slot);
  }
  pattern_ = Pattern(unknowns_);
  for (int node : ties) tieSlots_.push_back(pattern_.entry(node, node));
  for (auto& e : elements_) e->declare(pattern_);
  // Keep every diagonal entry in the pattern so pivoting always finds a candidate slot.
  for (int i = 0; i < unknowns_; ++i) pattern_.entry(i, i);
}

void Circuit::bindGates() {
  for (const auto& gate : control_->gates()) {
    auto it = byName_.find(gate.target);
    auto* device = it == byName_.end() ? nullptr : dynamic_cast<StateDevice*>(it->second);
    if (device == nullptr || !device->acceptsGate()) {
      throw Error(ErrorCode::UnknownReference,
                  gate.gate + ": target '" + gate.target + "' is not a gate-driven switch (S, THYR, IGBT, MOSFET)",
                  gate.gate);
    }
    device->setGateSignal(gate.signal);
  }
  for (auto* device : devices_) {
    if (device->acceptsGate() && device->gateSignal() < 0) {
      warnings_.push_back("'" + device->name() + "' has no GATE block and stays off");
    }
  }
}

}  // namespace pesim

namespace pesim {

// A node is driven by a source when exactly one element conducts at it, a V whose other terminal is
// the reference, and every other element touching it is a VSW reading it against the reference:
// then v(node) = ±u(t) and the source current is 0 in every solution (VoltageSource, "drives").
void Circuit::findDrivenNodes(const Netlist& netlist) {
  std::unordered_map<std::string, const ElementSpec*> source;
  std::unordered_set<std::string> excluded;
  for (const auto& e : netlist.elements) {
    for (std::size_t i = 0; i < e.nodes.size(); ++i) {
      const std::string& name = e.nodes[i];
      if (isReference(name)) continue;
      const bool isSourceTerminal = e.type == "V" && e.nodes.size() == 2 && isReference(e.nodes[1 - i]);
      const bool isSwitchControl = e.type == "VSW" && e.nodes.size() == 4 && i >= 2 && isReference(e.nodes[5 - i]) &&
                                   e.nodes[0] != name && e.nodes[1] != name;
      if (isSourceTerminal && !source.count(name)) source[name] = &e;
      else if (!isSwitchControl) excluded.insert(name);
    }
  }
  for (const auto& e : netlist.elements) {
    for (const auto& name : e.nodes) {
      auto it = source.find(name);
      if (it == source.end() || excluded.count(name) || e.type != "VSW") continue;
      drivenSources_.push_back({name, it->second->name});
      source.erase(it);  // one entry per node
    }
  }
}

// A VSW whose control terminals are exactly the terminals of an independent voltage source reads
// its control voltage from that source (switching.hpp, VoltageControlledSwitch).
void Circuit::bindControlSources() {
  for (auto& e : elements_) {
    auto* vsw = dynamic_cast<VoltageControlledSwitch*>(e.get());
    if (vsw == nullptr) continue;
    const int c = vsw->nodes()[2], d = vsw->nodes()[3];
    if (c == d) continue;
    for (const auto& other : elements_) {
      const auto* source = dynamic_cast<const VoltageSource*>(other.get());
      if (source == nullptr) continue;
      const int a = source->nodes()[0], b = source->nodes()[1];
      if (a == c && b == d) vsw->setControlSource(source, 1.0);
      else if (a == d && b == c) vsw->setControlSource(source, -1.0);
      else continue;
      break;
    }
  }
}

}  // namespace pesim

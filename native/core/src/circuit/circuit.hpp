// A netlist compiled for simulation: node and unknown numbering, element objects, switching
// devices with their gates, the control system, and the checks that reject circuits without a
// unique solution before the first step.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "control/system.hpp"
#include "elements/element.hpp"
#include "elements/switching.hpp"
#include "mna/pattern.hpp"
#include "pesim/netlist.hpp"
#include "thermal/domain.hpp"

namespace pesim {

class Circuit : public CircuitLookup {
 public:
  explicit Circuit(const Netlist& netlist);

  const Element* element(const std::string& name) const override;
  int node(const std::string& name) const override;
  const ThermalDomain* thermal() const override { return thermal_.get(); }
  // Device losses and thermal network; null without thermal elements and LOSS blocks.
  ThermalDomain* thermalDomain() { return thermal_.get(); }

  int unknowns() const { return unknowns_; }
  // Length of the solution vector: the unknowns, then one slot per source-driven node.
  int solutionSize() const { return unknowns_ + static_cast<int>(drivenSources_.size()); }
  // A readable name of unknown i: "node 'out'" or "current of 'L.1'".
  std::string unknownName(int index) const;
  const std::string& nodeName(int index) const { return nodeNames_[static_cast<std::size_t>(index)]; }

  std::vector<std::unique_ptr<Element>>& elements() { return elements_; }
  const std::vector<StateDevice*>& devices() const { return devices_; }
  ControlSystem& control() { return *control_; }
  std::size_t signalCount() const { return signalCount_; }
  // Control signals read by signal-controlled sources under GeckoCIRCUITS' timing, and the slot
  // of the copy they read (see buildElements): copy from → to before each control evaluation.
  const std::vector<std::pair<int, int>>& latchedSignals() const { return latchedSignals_; }
  Pattern& pattern() { return pattern_; }
  // Diagonal slots of nodes tied to the reference (one per isolated sub-network).
  const std::vector<int>& tieSlots() const { return tieSlots_; }
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  void findDrivenNodes(const Netlist& netlist);
  void numberNodes(const Netlist& netlist);
  void buildElements(const Netlist& netlist, const class SignalTable& signals);
  void bindGates();
  void bindControlSources();

  std::vector<std::string> nodeNames_;
  std::unordered_map<std::string, int> nodeIndex_;
  // Source-driven nodes (VoltageSource, "drives"): node name → its source, in numbering order.
  std::vector<std::pair<std::string, std::string>> drivenSources_;
  std::vector<std::unique_ptr<Element>> elements_;
  std::unordered_map<std::string, Element*> byName_;
  std::vector<StateDevice*> devices_;
  std::unique_ptr<ThermalDomain> thermal_;  // before control_: its blocks refer to it
  std::unique_ptr<ControlSystem> control_;
  std::size_t signalCount_ = 0;
  std::vector<std::pair<int, int>> latchedSignals_;
  int unknowns_ = 0;
  Pattern pattern_{0};
  std::vector<int> tieSlots_;
  std::vector<std::string> warnings_;
};

}  // namespace pesim

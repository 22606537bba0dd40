// Topology checks on the node graph, before any matrix is built (circuit.hpp):
//  - a loop made only of voltage-defining branches (V, E, H) → VoltageSourceLoop;
//  - a node touched only by current sources or controlled-source inputs → FloatingNode /
//    CurrentSourceCutset;
//  - a sub-network without a conducting path to the reference: if current sources cross into it,
//    KCL cannot hold → CurrentSourceCutset; otherwise it is galvanically isolated (a transformer
//    secondary) and one of its nodes is tied to the reference, as GeckoCIRCUITS does.
#pragma once

#include <string>
#include <vector>

#include "elements/factory.hpp"

namespace pesim {

struct TopologyInput {
  std::vector<std::string> nodeNames;            // index → name (reference excluded)
  std::vector<std::string> elementNames;         // parallel to connectivity
  std::vector<Connectivity> connectivity;
};

// Throws pesim::Error; returns the nodes to tie to the reference (one per isolated sub-network).
std::vector<int> checkTopology(const TopologyInput& input, std::vector<std::string>& warnings);

}  // namespace pesim

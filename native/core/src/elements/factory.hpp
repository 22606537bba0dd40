// Builds engine elements from netlist element specs, checking terminal counts and parameters, and
// records how each element connects nodes for the topology checks. The types and their builders:
// elements/catalog.hpp.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "elements/element.hpp"
#include "pesim/netlist.hpp"

namespace pesim {

// How an element ties its terminals together, for the topology checks (circuit/topology.cpp).
struct Connectivity {
  std::vector<std::pair<int, int>> conducting;      // node pairs joined by a branch that carries current
  std::vector<std::pair<int, int>> voltageDefining; // pairs whose voltage the element fixes (V, E, H)
  std::vector<std::pair<int, int>> currentSource;   // pairs joined only by an imposed current
  std::vector<int> sensing;                         // nodes only read (controlled-source inputs)
};

struct BuiltElement {
  std::unique_ptr<Element> element;
  Connectivity connectivity;
  std::vector<std::unique_ptr<Element>> companions;  // e.g. an IGBT's anti-parallel diode
};

struct ElementEnvironment {
  std::function<int(const std::string&)> node;                    // node index by name
  std::function<int(const std::string& signal, const std::string& user)> signal;  // index (throws)
  std::function<Element*(const std::string&)> element;            // already built element or null
  bool geckoTiming = false;  // settings.timing is GeckoCIRCUITS' (elements that step as it does)
};

// Element types whose construction needs other elements (built in a second pass).
bool dependsOnOtherElements(const std::string& type);

BuiltElement buildElement(const ElementSpec& spec, const ElementEnvironment& env);

}  // namespace pesim

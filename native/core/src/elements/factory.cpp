// Element factory (see factory.hpp): looks the type up among the families of catalog.hpp and runs
// its builder. Default device values follow GeckoCIRCUITS (Ron 0.01 Ω, Roff 1e7 Ω, diode vf 0.6 V;
// docs/engine-notes.md), in each family's file.
#include "elements/factory.hpp"

#include <unordered_map>

#include "elements/catalog.hpp"
#include "pesim/errors.hpp"

namespace pesim {

namespace {

const ElementDescriptor* findElementType(const std::string& type) {
  // Built once, on first use (thread-safe), and never changed after.
  static const std::unordered_map<std::string, const ElementDescriptor*> kByType = [] {
    std::unordered_map<std::string, const ElementDescriptor*> byType;
    for (ElementFamily family : {passiveElements(), sourceElements(), switchingElements(), opAmpElements(), machineElements()}) {
      for (std::size_t i = 0; i < family.count; ++i) byType.emplace(family.first[i].type, &family.first[i]);
    }
    return byType;
  }();
  auto it = kByType.find(type);
  return it == kByType.end() ? nullptr : it->second;
}

}  // namespace

Element& controlElement(const ElementArgs& a, bool needsBranch) {
  const std::string& owner = a.spec.name;
  std::string name = a.p.text("control");
  Element* control = a.env.element(name);
  if (control == nullptr) {
    throw Error(ErrorCode::UnknownReference, owner + ": control element '" + name + "' does not exist", owner);
  }
  if (needsBranch && control->branchCount() == 0) {
    throw Error(ErrorCode::ParameterOutOfRange,
                owner + ": control element '" + name + "' has no branch current; use a V, L, E, H or TRANS element",
                owner);
  }
  return *control;
}

bool dependsOnOtherElements(const std::string& type) {
  const ElementDescriptor* d = findElementType(type);
  return d != nullptr && d->readsOtherElements;
}

BuiltElement buildElement(const ElementSpec& spec, const ElementEnvironment& env) {
  const ElementDescriptor* type = findElementType(spec.type);
  if (type == nullptr) {
    throw Error(ErrorCode::UnknownElementType,
                spec.name + ": unknown element type '" + spec.type + "'", spec.name);
  }
  if (spec.nodes.size() != type->terminals) {
    throw Error(ErrorCode::NetlistInvalid,
                spec.name + ": a " + spec.type + " element has " + std::to_string(type->terminals) +
                    " terminals, got " + std::to_string(spec.nodes.size()),
                spec.name);
  }
  std::vector<int> nodes;
  for (const auto& name : spec.nodes) nodes.push_back(env.node(name));
  Params p(spec.name, spec.params);
  const std::pair<int, int> ab = nodes.size() >= 2 ? std::make_pair(nodes[0], nodes[1]) : std::make_pair(0, 0);
  BuiltElement built;
  type->build(ElementArgs{spec, p, nodes, env, ab}, built);
  return built;
}

}  // namespace pesim

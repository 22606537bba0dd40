// The power-circuit element types: one descriptor per type (its netlist name, its terminal count,
// whether it refers to other elements, its builder), registered by the file that defines the
// element's class in its family's list below. buildElement (factory.hpp) looks types up here; adding
// an element type is its class and its descriptor in one family file.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "circuit/params.hpp"
#include "elements/factory.hpp"

namespace pesim {

// What an element builder receives: the spec, its parameters, its node indices and the circuit.
struct ElementArgs {
  const ElementSpec& spec;
  const Params& p;
  const std::vector<int>& nodes;
  const ElementEnvironment& env;
  std::pair<int, int> ab;  // the first two terminals (0, 0 for an element without terminals)
};

struct ElementDescriptor {
  const char* type;
  std::size_t terminals;
  // Refers to other elements by name (couplings, current-controlled elements): built in a second
  // pass, after every other element.
  bool readsOtherElements;
  // Sets built.element (and its companions) and how it connects its nodes. Throws pesim::Error.
  void (*build)(const ElementArgs& args, BuiltElement& built);
};

// A family's descriptors: a static table of the file that registers them.
struct ElementFamily {
  const ElementDescriptor* first;
  std::size_t count;
};

template <std::size_t N>
constexpr ElementFamily elementFamily(const ElementDescriptor (&table)[N]) {
  return {table, N};
}

// The families, each defined beside its classes.
ElementFamily passiveElements();    // passive.cpp: R, L, C, K
ElementFamily sourceElements();     // sources.cpp: V, I, E, F, G, H, TRANS
ElementFamily switchingElements();  // switching.cpp: S, VSW, CSW, D, THYR, IGBT, MOSFET
ElementFamily opAmpElements();      // opamp.cpp: OPV
ElementFamily machineElements();    // pmsm.cpp: PMSM

// The element named by the `control` parameter (F, H, CSW); `needsBranch`: it must carry a branch
// current (a V, L, E, H or TRANS). Throws UnknownReference / ParameterOutOfRange naming the element.
Element& controlElement(const ElementArgs& args, bool needsBranch);

}  // namespace pesim

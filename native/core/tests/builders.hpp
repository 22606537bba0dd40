// Small helpers to write netlists in C++ tests.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "pesim/engine.hpp"

namespace pesim::test {

inline ElementSpec element(std::string name, std::string type, std::vector<std::string> nodes,
                           std::map<std::string, double> numbers = {},
                           std::map<std::string, std::string> strings = {}) {
  ElementSpec e;
  e.name = std::move(name);
  e.type = std::move(type);
  e.nodes = std::move(nodes);
  e.params.numbers = std::move(numbers);
  e.params.strings = std::move(strings);
  return e;
}

inline BlockSpec block(std::string name, std::string type, std::vector<std::string> inputs,
                       std::vector<std::string> outputs, std::map<std::string, double> numbers = {},
                       std::map<std::string, std::string> strings = {}) {
  BlockSpec b;
  b.name = std::move(name);
  b.type = std::move(type);
  b.inputs = std::move(inputs);
  b.outputs = std::move(outputs);
  b.params.numbers = std::move(numbers);
  b.params.strings = std::move(strings);
  return b;
}

inline BlockSpec voltmeter(std::string name, std::string output, std::string a, std::string b) {
  BlockSpec v = block(std::move(name), "VOLT", {}, {std::move(output)});
  v.params.names["nodes"] = {std::move(a), std::move(b)};
  return v;
}

// Buck: 48 V, 20 kHz duty 0.5 gate, L 100 µH, C 100 µF, 5 Ω, 100 ns steps; SCOPE.1 = [vout, iL].
inline Netlist buckConverter(double tEnd, Method method) {
  Netlist n;
  n.elements = {element("V.1", "V", {"in", "0"}, {{"value", 48.0}}, {{"waveform", "dc"}}),
                element("S.1", "S", {"in", "sw"}, {{"ron", 0.01}}),
                element("D.1", "D", {"0", "sw"}, {{"vf", 0.6}, {"ron", 0.01}}),
                element("L.1", "L", {"sw", "out"}, {{"L", 100e-6}}),
                element("C.1", "C", {"out", "0"}, {{"C", 100e-6}}),
                element("R.1", "R", {"out", "0"}, {{"R", 5.0}})};
  BlockSpec amp = block("AMP.1", "AMP", {}, {"il"});
  amp.params.strings["element"] = "L.1";
  BlockSpec gate = block("GATE.1", "GATE", {"g"}, {});
  gate.params.strings["target"] = "S.1";
  n.blocks = {block("SIGNAL.1", "SIGNAL", {}, {"g"}, {{"amplitude", 1.0}, {"frequency", 20e3}, {"duty", 0.5}},
                    {{"waveform", "rectangle"}}),
              gate, voltmeter("VOLT.1", "vout", "out", "0"), amp, block("SCOPE.1", "SCOPE", {"vout", "il"}, {})};
  n.settings.tEnd = tEnd;
  n.settings.dt = 100e-9;
  n.settings.method = method;
  return n;
}

inline const Channel& channel(const Result& r, const std::string& key) {
  for (const auto& c : r.channels) {
    if (c.key == key) return c;
  }
  throw std::runtime_error("no channel " + key);
}

inline double measurement(const Result& r, const std::string& key) {
  for (const auto& m : r.measurements) {
    if (m.key == key) return m.value;
  }
  throw std::runtime_error("no measurement " + key);
}

// Runs control blocks beside a 1 V source on 1 Ω (the circuit a netlist needs) and records the
// signals `scoped` on SCOPE.1.
inline Result runBlocks(std::vector<BlockSpec> blocks, std::vector<std::string> scoped, double tEnd, double dt,
                        std::uint64_t seed = kDefaultSeed, Timing timing = Timing::Exact) {
  Netlist n;
  n.elements = {element("V.1", "V", {"a", "0"}, {{"value", 1.0}}, {{"waveform", "dc"}}),
                element("R.1", "R", {"a", "0"}, {{"R", 1.0}})};
  n.blocks = std::move(blocks);
  n.blocks.push_back(block("SCOPE.1", "SCOPE", std::move(scoped), {}));
  n.settings.tEnd = tEnd;
  n.settings.dt = dt;
  n.settings.seed = seed;
  n.settings.timing = timing;
  return simulate(n, RunControl{});
}

}  // namespace pesim::test

// The canonical netlist as the engine receives it: plain structs mirroring the JSON netlist of
// src/formats/netlist.ts after global parameters have been resolved to numbers.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace pesim {

// Parameters of an element or block, by kind of value. Keys are the netlist's parameter names.
struct ParameterSet {
  std::map<std::string, double> numbers;
  std::map<std::string, std::string> strings;
  std::map<std::string, std::vector<double>> arrays;
  std::map<std::string, std::vector<std::string>> names;  // string lists (e.g. coupled inductors)
  // The keys the engine asked for (read, or checked for presence) while it built the circuit from
  // this set: what the element accepts in its configuration. unusedParameters() reports the keys
  // present but never asked for (a misspelt "dutty"). Filled through const access (Params).
  mutable std::set<std::string> asked;
};

// A power-circuit element: R, L, C, K, TRANS, V, I, E, F, G, H, S, VSW, CSW, D, THYR, IGBT, MOSFET.
struct ElementSpec {
  std::string name;                // unique, e.g. "R.1"
  std::string type;
  std::vector<std::string> nodes;  // terminal node names in the element's terminal order
  ParameterSet params;
};

// A control block. Inputs and outputs are control-signal names; GATE names its target switch,
// VOLT names two nodes or an element, AMP names an element (all through params.strings).
struct BlockSpec {
  std::string name;
  std::string type;
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  ParameterSet params;
};

// Seed of the random sources when the netlist gives none: runs are reproducible by default.
constexpr std::uint64_t kDefaultSeed = 20240229;

// One measured loss curve of a semiconductor (GeckoCIRCUITS LeitverlusteMesskurve /
// SwitchingLossCurve): at junction temperature T [°C], y(i) sampled at the currents i [A]; y is the
// on-state voltage [V] (conduction) or the switching energy [J] measured at blocking voltage uRef [V].
struct LossCurve {
  double T = 0.0;
  double uRef = 0.0;  // switching curves only
  std::vector<double> i;
  std::vector<double> y;
};

// Detailed loss model (netlist `lossModels`): on-state voltage and turn-on / turn-off energies.
struct LossModelSpec {
  std::vector<LossCurve> conduction;
  std::vector<LossCurve> turnOn;
  std::vector<LossCurve> turnOff;
};

enum class Method { BackwardEuler, Trapezoidal, Gear };

// How periodic signal sources are discretised. Exact: sampled from their continuous definition at
// every step. Gecko: stepped as GeckoCIRCUITS steps them (control/stepped_wave.hpp), the default
// for `.ipes` models so that they give GeckoCIRCUITS' answers.
enum class Timing { Exact, Gecko };

struct Settings {
  double tEnd = 0.0;
  double dt = 0.0;
  Method method = Method::BackwardEuler;
  double tPre = 0.0;    // pre-simulation length before t = 0 (0: none)
  double dtPre = 0.0;   // pre-simulation step (0: dt)
  bool dampAfterSwitch = true;  // backward Euler on the step after a switching event
  long maxPoints = 100000;      // point budget per recorded channel
  double measureFrom = -1.0;    // measurement window start [s]; negative: 80 % of tEnd
  double measureTo = -1.0;      // measurement window end [s]; negative: tEnd
  int maxSwitchIterations = 10000;  // GeckoCIRCUITS' limit (SimulationsKern)
  int cacheSize = 256;          // factorisations kept in the LRU cache
  int denseLimit = 0;           // unknowns up to which the dense LU is used (0: built-in default)
  std::uint64_t seed = kDefaultSeed;  // seed of the RANDOM blocks (same seed, same run)
  Timing timing = Timing::Exact;
};

struct Netlist {
  std::string name;
  std::vector<ElementSpec> elements;
  std::vector<BlockSpec> blocks;
  std::vector<ElementSpec> thermal;                    // RTH, CTH, TSRC, QSRC, PV (own node names)
  std::map<std::string, LossModelSpec> lossModels;     // referenced by a device's `lossModel`
  Settings settings;
};

const char* methodName(Method method);

}  // namespace pesim

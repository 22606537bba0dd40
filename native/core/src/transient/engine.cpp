// The public entry points of the engine (pesim/engine.hpp).
#include "pesim/engine.hpp"

#include <Eigen/Core>
#include <cmath>
#include <string>

#include "circuit/circuit.hpp"
#include "pesim/errors.hpp"
#include "steady/period.hpp"
#include "steady/shooting.hpp"
#include "transient/check_settings.hpp"
#include "transient/transient.hpp"

#define PESIM_STRINGIFY_(x) #x
#define PESIM_STRINGIFY(x) PESIM_STRINGIFY_(x)

namespace pesim {

void checkSettings(const Settings& s) {
  auto bad = [](const std::string& what) {
    throw Error(ErrorCode::ParameterOutOfRange, "settings: " + what, "settings");
  };
  if (!(s.dt > 0.0) || !std::isfinite(s.dt)) bad("'dt' must be a positive number");
  if (!(s.tEnd > 0.0) || !std::isfinite(s.tEnd)) bad("'tEnd' must be a positive number");
  if (s.dt > s.tEnd) bad("'dt' must not exceed 'tEnd'");
  if (s.tPre < 0.0 || !std::isfinite(s.tPre)) bad("'tPre' must be 0 or positive");
  if (s.dtPre < 0.0 || !std::isfinite(s.dtPre)) bad("'dtPre' must be 0 or positive");
  if (s.tPre > 0.0 && (s.dtPre > 0.0 ? s.dtPre : s.dt) > s.tPre) bad("'dtPre' must not exceed 'tPre'");
  if (s.maxPoints < 2) bad("'maxPoints' must be at least 2");
  if (s.maxSwitchIterations < 1) bad("'maxSwitchIterations' must be at least 1");
  if (s.cacheSize < 1) bad("'cacheSize' must be at least 1");
  if (s.measureFrom >= 0.0 && s.measureTo >= 0.0 && s.measureTo < s.measureFrom) {
    bad("'measureTo' must not be before 'measureFrom'");
  }
}

std::vector<std::string> validate(const Netlist& netlist) {
  checkSettings(netlist.settings);
  Circuit circuit(netlist);
  return circuit.warnings();
}

namespace {

void collectUnused(const std::string& owner, const std::string& type, const ParameterSet& set, std::vector<UnusedParameter>& out) {
  std::vector<std::string> keys;
  for (const auto& entry : set.numbers) keys.push_back(entry.first);
  for (const auto& entry : set.strings) keys.push_back(entry.first);
  for (const auto& entry : set.arrays) keys.push_back(entry.first);
  for (const auto& entry : set.names) keys.push_back(entry.first);
  for (const auto& key : keys) {
    if (set.asked.count(key) == 0) out.push_back({owner, type, key, std::vector<std::string>(set.asked.begin(), set.asked.end())});
  }
}

}  // namespace

std::vector<UnusedParameter> unusedParameters(const Netlist& netlist) {
  for (const auto& e : netlist.elements) e.params.asked.clear();
  for (const auto& b : netlist.blocks) b.params.asked.clear();
  for (const auto& t : netlist.thermal) t.params.asked.clear();
  checkSettings(netlist.settings);
  Circuit circuit(netlist);
  std::vector<UnusedParameter> unused;
  for (const auto& e : netlist.elements) collectUnused(e.name, e.type, e.params, unused);
  for (const auto& b : netlist.blocks) collectUnused(b.name, b.type, b.params, unused);
  for (const auto& t : netlist.thermal) collectUnused(t.name, t.type, t.params, unused);
  return unused;
}

Result simulate(const Netlist& netlist, const RunControl& control) {
  checkSettings(netlist.settings);
  Circuit circuit(netlist);
  // The thermal steps divide the sources' period, as in the steady-state analysis (ThermalDomain::stride).
  if (circuit.thermalDomain() != nullptr) {
    circuit.thermalDomain()->alignToPeriod(sourcePeriod(circuit, netlist.settings.dt).period);
  }
  Transient transient(circuit, netlist.settings, control);
  return transient.run();
}

Result steadyState(const Netlist& netlist, const SteadyOptions& options, const RunControl& control) {
  checkSettings(netlist.settings);
  auto bad = [](const std::string& what) {
    throw Error(ErrorCode::ParameterOutOfRange, "steady: " + what, "steady");
  };
  if (options.period < 0.0 || !std::isfinite(options.period)) bad("'period' must be 0 (from the sources) or positive");
  if (!(options.tolerance > 0.0) || !std::isfinite(options.tolerance)) bad("'tolerance' must be a positive number");
  if (options.maxIterations < 0) bad("'maxIterations' must be 0 or more");
  if (options.maxPeriods < 0) bad("'maxPeriods' must be 0 or more");
  if (options.initPeriods < 0) bad("'initPeriods' must be 0 or more");
  if (!(options.perturbation > 0.0 && options.perturbation <= 0.1)) bad("'perturbation' must be in (0, 0.1]");
  Circuit circuit(netlist);
  const SteadyPeriod period = steadyPeriod(circuit, netlist.settings.dt, options.period);
  if (circuit.thermalDomain() != nullptr) {
    // The thermal steps of a transient run divide the sources' period (see simulate): so do the
    // analysis' when its period is a multiple of it; otherwise they divide the analysis' period.
    const SteadyPeriod sources = sourcePeriod(circuit, netlist.settings.dt);
    const bool multiple = sources.steps > 0 && period.steps % sources.steps == 0;
    circuit.thermalDomain()->alignToPeriod(multiple ? sources.period : period.period);
  }
  Transient transient(circuit, netlist.settings, control);
  transient.begin();
  return shoot(transient, netlist.settings, period, options, circuit.thermalDomain() != nullptr);
}

const char* engineVersion() { return "0.1.0"; }

const char* eigenVersion() {
  return PESIM_STRINGIFY(EIGEN_WORLD_VERSION) "." PESIM_STRINGIFY(EIGEN_MAJOR_VERSION) "." PESIM_STRINGIFY(EIGEN_MINOR_VERSION);
}

}  // namespace pesim

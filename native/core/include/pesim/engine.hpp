// The engine's entry point: one synchronous call per run. Run control (cancel, pause) and progress
// go through caller-owned buffers so another thread can steer and watch the run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "pesim/cispr16.hpp"
#include "pesim/netlist.hpp"

namespace pesim {

// Indices into the caller's shared buffers.
enum ControlFlag { kFlagCancel = 0, kFlagPause = 1, kFlagCount = 2 };
enum ProgressSlot {
  kProgressStep = 0,        // steps done in the current phase
  kProgressTotalSteps = 1,  // steps of the current phase
  kProgressTime = 2,        // simulated time reached [s] (negative during pre-simulation)
  kProgressPhase = 3,       // 0 pre-simulation, 1 main run, 2 done
  kProgressPaused = 4,      // 1 while the run waits in pause
  kProgressCount = 5,
};

// Views over caller-owned memory; either may be null. Read and written atomically.
struct RunControl {
  int32_t* flags = nullptr;     // kFlagCount entries, set by the caller
  double* progress = nullptr;   // kProgressCount entries, written by the engine
  int checkEvery = 1024;        // steps between two looks at the flags
  // Optional memory for the recorded samples, asked for once before the main run: array 0 is the
  // time axis, array c + 1 the values of channel c, each `points` long. When given, the samples
  // are written there during the run and Result::time and the channels' values stay empty (the
  // addon's synchronous call passes the Float64Arrays it returns: no copy after the run).
  std::function<double*(std::size_t array, std::size_t points)> sampleStorage;
};

struct Channel {
  std::string key;     // "<scope>.ch<n>"
  std::string scope;   // scope block name
  int index = 0;       // 1-based channel number of the scope (an input, or a mean-value channel)
  std::string label;   // saved channel name (may be empty)
  std::vector<double> values;
};

struct Measurement {
  std::string key;  // "<channel key>.avg" etc.
  double value = 0.0;
};

// Losses of one semiconductor over the measurement window, from the loss model the run used.
struct DeviceLossSummary {
  std::string device;
  double conductionLoss = 0.0;   // [W], mean over the window
  double switchingLoss = 0.0;    // [W]
  double totalLoss = 0.0;        // [W]
  long switchingEvents = 0;      // turn-ons plus turn-offs in the window
  double averageCurrent = 0.0;   // [A]
  double rmsCurrent = 0.0;       // [A]
  bool hasJunction = false;      // a PV element couples the device to a thermal network
  double junctionTemperature = 0.0;     // mean T_j over the window [°C] (when hasJunction)
  double maxJunctionTemperature = 0.0;  // [°C]
};

// The spectrum a CISPR16 test receiver block computed from its input after the run.
struct ReceiverResult {
  std::string block;
  Cispr16Spectrum spectrum;
};

struct RunStats {
  long steps = 0;
  long preSteps = 0;
  long factorizations = 0;
  long cacheHits = 0;
  long switchingEvents = 0;
  long extraSolves = 0;     // solves repeated because device states changed within a step
  long cyclesResolved = 0;  // steps whose state iteration cycled and took the least inconsistent state
  long unknowns = 0;
  bool dense = false;
  double wallMs = 0.0;
};

// The periodic steady-state analysis (steadyState): shooting method with Newton–Krylov iterations.
// How the Newton steps get the Jacobian's products (PLECS's JacobianCalculation): `Full` simulates
// new ones for every step; `Fast` keeps those of the earlier steps and adds only what they leave.
enum class SteadyJacobian { Fast, Full };

struct SteadyOptions {
  double period = 0.0;       // [s]; 0: the common period of the circuit's periodic sources
  double tolerance = 1e-9;   // periodicity error accepted, relative to each state variable's scale
  int maxIterations = 20;    // Newton iterations before falling back to transient periods
  long maxPeriods = 2000;    // transient periods of the fallback (0: no fallback)
  bool temperatures = true;  // solve for the thermal network's temperatures too (else carried on)
  long initPeriods = 1;      // transient periods before Newton's method (at least until every source repeats)
  double perturbation = 1e-6;  // perturbation of the Jacobian's products, relative to each variable's scale
  SteadyJacobian jacobian = SteadyJacobian::Fast;
};

struct SteadyReport {
  bool converged = false;
  std::string method;         // "shooting", or "transient" when the fallback ran
  int iterations = 0;         // Newton iterations
  long periods = 0;           // periods simulated in all (warm-up, Newton, directions, fallback, result)
  double period = 0.0;        // [s]
  long stepsPerPeriod = 0;
  long unknowns = 0;          // state variables solved for
  double error = 0.0;         // periodicity error of the returned period (relative, max over the state)
  double periodStart = 0.0;   // [s] simulated time at which the returned period starts
  std::string message;        // why the fallback ran, or why the result did not converge
};

struct Result {
  std::size_t points = 0;  // recorded points per channel (also with RunControl::sampleStorage)
  std::vector<double> time;
  std::vector<Channel> channels;
  std::vector<Measurement> measurements;
  RunStats stats;
  std::vector<std::string> warnings;
  std::vector<DeviceLossSummary> losses;  // devices with a loss model, netlist order
  std::vector<ReceiverResult> receivers;  // CISPR16 blocks, netlist order
  std::optional<SteadyReport> steady;     // set by steadyState
};

// Checks the netlist (throws pesim::Error) and returns its warnings without running it.
std::vector<std::string> validate(const Netlist& netlist);

// A parameter of an element or block that the engine never asked for while building the circuit.
struct UnusedParameter {
  std::string owner;               // "SIGNAL.1"
  std::string type;                // "SIGNAL"
  std::string key;                 // "dutty"
  std::vector<std::string> asked;  // the parameters the owner reads, sorted
};

// Builds the circuit (throws pesim::Error as validate does) and returns the parameters of its
// elements, blocks and thermal elements that nothing read, in netlist order.
std::vector<UnusedParameter> unusedParameters(const Netlist& netlist);

// Runs the transient simulation. Throws pesim::Error.
Result simulate(const Netlist& netlist, const RunControl& control);

// Finds the circuit's periodic steady state and returns one settled period (time from 0 to the
// period, measurements over it) with its SteadyReport. Throws pesim::Error (SteadyStateUnsupported
// when there is no periodic steady state to look for).
Result steadyState(const Netlist& netlist, const SteadyOptions& options, const RunControl& control);

const char* engineVersion();
const char* eigenVersion();

}  // namespace pesim

// The fixed-step time loop (docs/engine-notes.md, "Order of one step"): apply gates, build the
// right-hand side, solve with the factorisation cached for the switch state, re-solve the same
// step until voltage/current-driven devices agree with the solution, store history, evaluate the
// control blocks, record.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Dense>

#include "circuit/circuit.hpp"
#include "elements/passive.hpp"
#include "elements/sources.hpp"
#include "elements/switching.hpp"
#include "mna/factorization.hpp"
#include "mna/lu_cache.hpp"
#include "pesim/engine.hpp"
#include "transient/edge_locator.hpp"
#include "transient/phase_clock.hpp"
#include "transient/typed_list.hpp"

namespace pesim {

class Recorder;

class Transient {
 public:
  Transient(Circuit& circuit, const Settings& settings, const RunControl& control);
  ~Transient();
  Result run();

  // run() in three parts, for a run taken step by step (transient/step_session.cpp): startRun()
  // does all before the main phase (the first step, the pre-simulation) and makes the recorder;
  // runMain(steps) runs the next steps of the main phase (at most those left) and returns how
  // many; finishRun() gives the result of what was run. run() is these three in a row.
  void startRun();
  long runMain(long steps);
  Result finishRun();
  long mainSteps() const { return clocks_.main.steps; }
  long mainDone() const { return mainCursor_.n; }
  // The time of the main phase's last step (as users see it: 0 at the start of the main run).
  double mainTime() const { return mainCursor_.t - timeOrigin_; }
  // A copy of what the main phase recorded so far; the run goes on.
  Result partialResult() const;
  // Continues the run of `other`, a Transient of the same circuit built again with other parameter
  // values: takes its recorder, clocks, position and statistics. Its state (visitState) is the
  // caller's to copy.
  void continueFrom(Transient& other);

  // The pieces the periodic steady-state analysis (steady/shooting.cpp) runs a circuit with:
  // The start of a run without pre-simulation: the initial solve (or GeckoCIRCUITS' first step) and
  // the control evaluation at t = 0.
  void begin();
  // Steps 1..steps at start + n·dt (exact times, also under GeckoCIRCUITS' timing, so that every
  // period sees the same step times). The first step integrates from the initial conditions with
  // backward Euler after begin() (unless that was already a committed step). With a recorder the
  // steps are recorded (times from `start`) and the loss statistics gathered.
  void runSpan(double start, long steps, Recorder* recorder);
  // The run's dynamic state: elements, control blocks, thermal domain (its temperatures as unknowns
  // when `temperatures`), the control signals of the last step.
  void visitState(StateVisitor& visitor, bool temperatures);
  // The result of a recorded span (recorder contents, warnings, statistics, losses); `steps` per span.
  Result finishSpan(Recorder& recorder, long steps, double wallMs);
  // Forgets the loss statistics a recorded span gathered (a span recorded and then not kept).
  void clearWindowStatistics();
  Circuit& circuit() { return circuit_; }

 private:
  // Where a phase stands: steps done, time of the last, whether its first step continues
  // committed history.
  struct PhaseCursor {
    long n = 0;
    double t = 0.0;
    bool historyValid = false;
  };
  PhaseCursor startPhase(const PhaseClock& clock, int phase);
  // Runs the next `steps` steps of one phase; records when a recorder is given.
  void runPhase(const PhaseClock& clock, int phase, Recorder* recorder, PhaseCursor& cursor, long steps);
  // The per-step functions are `inline` (defined in transient.cpp, the only file that calls
  // them) so that the compiler inlines them into the time loop: ordinary members of a shared
  // library could be interposed and are called through the PLT instead.
  // One step of dt to `to` from the previous step's time `from`; with exact timing it ends
  // sub-steps where the gates change in between (EdgeLocator).
  inline void advance(double from, double to, double dt, bool firstOfPhase);
  // One solved and committed step of dt ending at t, the switches gated from `gates`.
  inline void step(double t, double dt, bool firstOfPhase, const double* gates);
  inline void solveStep(StepContext& ctx, bool useBackwardEuler, double cycleTolerance);
  inline void solveLinear(const StepContext& ctx, bool useBackwardEuler);
  static void dampThresholds(StepContext& ctx, int failed);
  inline bool finiteSolution() const;
  void initialSolve(double t, double dt);
  void geckoStartSolve(double t0);
  // The start of a run at t0 (its first step dt0): GeckoCIRCUITS' first step or the initial
  // solve, the thermal start and the control evaluation at t0.
  void startAt(double t0, double dt0);
  void stateBits(std::string& bits) const;
  double violation(const std::string& bits) const;
  bool endCycle(double tolerance);
  inline bool applyGates(const StepContext& ctx, const double* gates);
  // Copies the control signals that signal-controlled sources read (Circuit::latchedSignals).
  inline void latchSourceSignals();
  inline const Factorization& factorization(const StepContext& ctx, bool useBackwardEuler);
  const Factorization* lookup(const StepContext& ctx, bool useBackwardEuler);
  [[noreturn]] void throwSingular(double t) const;
  void checkControl(long n, long steps, double t, int phase);

  Circuit& circuit_;
  Settings settings_;
  RunControl control_;
  ThermalDomain* thermal_;                     // null: no losses and no thermal network
  double measureFrom_ = 0.0, measureTo_ = 0.0;  // measurement window of the main run
  bool startCommitted_ = false;  // the start was a committed step (GeckoCIRCUITS timing)
  double timeOrigin_ = 0.0;  // internal time of the reported t = 0 (RunClocks::timeOrigin)
  Factorizer factorizer_;
  LuCache cache_;
  // The elements with right-hand-side terms, in netlist order (typed_list.hpp: the common types
  // inline): the leading run of those whose terms the device states fix (Element::rhsFixedByState),
  // summed once per factorisation (Factorization::stateRhs), then the others, stamped every solve.
  TypedList<Element, VoltageSource, Diode, Igbt, CurrentSource> stateRhsElements_;
  TypedList<Element, Capacitor, Inductor, VoltageSource, Diode, Igbt, CurrentSource> rhsElements_;
  TypedList<Element, Capacitor, Inductor> historyElements_;
  TypedList<StateDevice, Diode, Igbt, VoltageControlledSwitch, GatedSwitch> settling_;
  // Devices whose state is set at the start of a step: by a gate signal (gateSignals_[i] for
  // gated_[i]), or decided from time.
  TypedList<StateDevice, Igbt, GatedSwitch> gated_;
  std::vector<int> gateSignals_;
  TypedList<StateDevice, VoltageControlledSwitch> deciding_;
  // The devices the last settle changed: index in settling_ and the state (key character) before.
  std::vector<std::pair<std::size_t, char>> toggled_;
  Eigen::VectorXd x_;
  Eigen::VectorXd rhs_;
  std::vector<double> values_;
  std::vector<double> signals_;
  // Exact timing: the gates' edges between steps, and the signals gating a step's later sub-steps.
  EdgeLocator edges_;
  std::vector<double> held_;
  bool substep_ = false;        // solving a sub-step: its dt is not the run's, its LU is not cached
  bool historyUneven_ = false;  // the last step was split: a two-step method restarts with BE
  std::unique_ptr<Factorization> substepLu_;
  std::string key_;
  // Device states solved in the present step and how much each solution contradicted them.
  std::vector<std::pair<std::string, double>> visited_;
  std::string solvedState_, nextState_;
  double cycleViolation_ = -1.0;  // least contradiction of the last cycle found (−1: none)
  // The factorisation in use and what it was built for; refetched only when one of these changes.
  const Factorization* current_ = nullptr;
  bool currentBackwardEuler_ = false;
  double currentDt_ = 0.0;
  bool statesChanged_ = true;
  Coefficients method_;
  Coefficients backwardEuler_;
  RunStats stats_;
  // The run in progress (startRun .. finishRun).
  RunClocks clocks_;
  PhaseCursor mainCursor_;
  std::unique_ptr<Recorder> recorder_;
  std::chrono::steady_clock::time_point started_;
};

}  // namespace pesim

// The time loop (see transient.hpp).
#include "transient/transient.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <thread>

#include <Eigen/SVD>

#include "mna/conditioning.hpp"
#include "pesim/errors.hpp"
#include "transient/finite_sum.hpp"
#include "transient/recorder.hpp"
#include "transient/run_control.hpp"

namespace pesim {

namespace {

// Dense LU up to this many unknowns: below it the dense solve (a padded AVX2 product) beats the
// sparse bookkeeping. Measured on an LC ladder behind a switch (docs/benchmarks.md, "Dense or
// sparse"): dense is faster up to about 200 unknowns; 128 keeps a cached factorisation at
// 128 KiB, the 256 the cache holds at most at 32 MiB.
constexpr int kDefaultDenseLimit = 128;
// Steps between two looks at the control flags (cancel/pause take effect within them).
constexpr long kControlInterval = 64;
constexpr double kGateThreshold = 0.5;
// Largest contradiction accepted to end a cycle of the state iteration (volts for diode-like
// devices and VSW controls, amperes for CSW controls): 1 mV is below the resolution of the
// two-state device model itself (e.g. 0.1 A through Ron = 0.01 Ω). Larger ones fail the run with
// the iteration limit, as a device that can never settle must.
constexpr double kCycleTolerance = 1e-3;
// Exact timing: a gate edge closer than this fraction of dt to a step's start or end is taken
// there: a shorter sub-step only adds rounding (its companion conductances C/dt dwarf the
// circuit's), not accuracy.
constexpr double kMinSubstep = 1e-3;
// Gate changes located within one step at most (a gate chattering faster than that is taken at
// the step's end).
constexpr int kMaxEdgesPerStep = 16;

// One character of a state key per device (StateDevice::kMaxStates states at most), and back.
char stateChar(int state) { return static_cast<char>(static_cast<unsigned char>('0' + state)); }
int stateOf(char c) { return static_cast<unsigned char>(c) - '0'; }

}  // namespace

Transient::Transient(Circuit& circuit, const Settings& settings, const RunControl& control)
    : circuit_(circuit),
      settings_(settings),
      control_(control),
      thermal_(circuit.thermalDomain()),
      factorizer_(circuit.pattern(),
                  circuit.unknowns() <= (settings.denseLimit > 0 ? settings.denseLimit : kDefaultDenseLimit)),
      cache_(static_cast<std::size_t>(settings.cacheSize)),
      // Unknowns first, then the nodes driven by sources (their values come from the rhs).
      x_(Eigen::VectorXd::Zero(circuit.solutionSize())),
      rhs_(Eigen::VectorXd::Zero(circuit.solutionSize())),
      values_(static_cast<std::size_t>(circuit.pattern().entries().size()), 0.0),
      signals_(circuit.signalCount(), 0.0),
      method_(coefficientsFor(settings.method)),
      backwardEuler_(backwardEulerCoefficients()) {
  bool leading = true;  // still in the leading run of state-fixed right-hand-side terms
  for (auto& e : circuit_.elements()) {
    if (e->hasRhs()) {
      leading = leading && e->rhsFixedByState();
      if (leading) stateRhsElements_.add(e.get());
      else rhsElements_.add(e.get());
    }
    if (e->hasHistory()) historyElements_.add(e.get());
  }
  for (StateDevice* device : circuit_.devices()) {
    settling_.add(device);
    if (device->gateSignal() >= 0) {
      gated_.add(device);
      gateSignals_.push_back(device->gateSignal());
    } else if (device->decidesBeforeSolve()) {
      deciding_.add(device);
    }
  }
  stats_.unknowns = circuit.unknowns();
  stats_.dense = factorizer_.dense();
  if (settings.timing == Timing::Gecko) {
    // GeckoCIRCUITS' constants hold their values from the start, and its signal-controlled sources
    // take the control values once before the first step (SimulationsKern.initSimulation calls
    // setControlledSourcesFromControlValue).
    circuit_.control().preset(signals_.data());
    latchSourceSignals();
  }
  if (settings.timing == Timing::Exact && !gateSignals_.empty()) {
    edges_ = EdgeLocator(circuit_.control().pureCone(gateSignals_), gateSignals_, signals_.size());
    held_.assign(signals_.size(), 0.0);
  }
}

Transient::~Transient() = default;

Result Transient::run() {
  startRun();
  runMain(clocks_.main.steps);
  return finishRun();
}

void Transient::startRun() {
  started_ = std::chrono::steady_clock::now();
  const Settings& s = settings_;
  const double dtPre = s.dtPre > 0.0 ? s.dtPre : s.dt;
  clocks_ = s.timing == Timing::Gecko ? geckoClocks(s.tEnd, s.dt, s.tPre, dtPre) : exactClocks(s);
  const PhaseClock& pre = clocks_.pre;
  const PhaseClock& main = clocks_.main;
  timeOrigin_ = clocks_.timeOrigin;
  const double t0 = pre.steps > 0 ? pre.start : main.start;
  const double dt0 = pre.steps > 0 ? dtPre : s.dt;

  startAt(t0, dt0);
  if (pre.steps > 0) {
    PhaseCursor cursor = startPhase(pre, 0);
    runPhase(pre, 0, nullptr, cursor, pre.steps);
  }

  double from = s.measureFrom >= 0.0 ? s.measureFrom : 0.8 * s.tEnd;
  double to = s.measureTo >= 0.0 ? s.measureTo : s.tEnd;
  measureFrom_ = from;
  measureTo_ = to;
  const auto& channels = circuit_.control().channels();
  bool gecko = std::any_of(channels.begin(), channels.end(), [](const ScopeChannel& c) { return c.geckoAxis; });
  // Mean-value channels are GeckoCIRCUITS' and count its samples under exact timing as well.
  GeckoAxis axis;
  if (gecko) axis = s.timing == Timing::Gecko ? clocks_.axis : geckoClocks(s.tEnd, s.dt, s.tPre, dtPre).axis;
  recorder_ = std::make_unique<Recorder>(channels, main.steps, s.dt, s.maxPoints, from, to, control_.sampleStorage, axis);
  recorder_->record(0, main.start - timeOrigin_, signals_.data());
  mainCursor_ = startPhase(main, 1);
}

long Transient::runMain(long steps) {
  steps = std::clamp(steps, 0L, clocks_.main.steps - mainCursor_.n);
  runPhase(clocks_.main, 1, recorder_.get(), mainCursor_, steps);
  return steps;
}

Result Transient::finishRun() {
  const Settings& s = settings_;
  Result result;
  recorder_->finish(result);
  recorder_.reset();
  result.warnings = circuit_.warnings();
  circuit_.control().report(result.warnings);
  // Post-run analyses (CISPR16), which may take a while: a cancel still stops the run.
  circuit_.control().finish(result, [&] {
    if (loadFlag(control_, kFlagCancel)) throw Error(ErrorCode::Cancelled, "the run was cancelled", "", "", s.tEnd);
  });
  storeProgress(control_, kProgressPhase, 2.0);
  stats_.steps = mainCursor_.n;
  stats_.preSteps = clocks_.pre.steps;
  stats_.wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started_).count();
  result.stats = stats_;
  if (thermal_ != nullptr) result.losses = thermal_->summaries();
  return result;
}

Result Transient::partialResult() const {
  Result result;
  recorder_->copyTo(result);
  result.warnings = circuit_.warnings();
  RunStats stats = stats_;
  stats.steps = mainCursor_.n;
  stats.preSteps = clocks_.pre.steps;
  stats.wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started_).count();
  result.stats = stats;
  if (thermal_ != nullptr) result.losses = thermal_->summaries();
  return result;
}

void Transient::continueFrom(Transient& other) {
  clocks_ = other.clocks_;
  mainCursor_ = other.mainCursor_;
  recorder_ = std::move(other.recorder_);
  started_ = other.started_;
  timeOrigin_ = other.timeOrigin_;
  measureFrom_ = other.measureFrom_;
  measureTo_ = other.measureTo_;
  startCommitted_ = other.startCommitted_;
  stats_ = other.stats_;
  // The thermal network's arrays (its temperatures are then the state the caller copies).
  if (thermal_ != nullptr) thermal_->resume(x_.data(), settings_.dt);
}

void Transient::begin() {
  timeOrigin_ = 0.0;
  startAt(0.0, settings_.dt);
}

void Transient::startAt(double t0, double dt0) {
  const bool gecko = settings_.timing == Timing::Gecko;
  if (gecko) {
    // GeckoCIRCUITS' first step is at t = 0 and is a step like the others (SimulationsKern:
    // runSimulation steps while t <= tEND from tSTART): a step of dt with the model's method from
    // the start solve (geckoStartSolve), with the sources at t = 0 and the switches as the gates
    // leave them before any control (off unless gated by a constant), committed. The value recorded
    // at t = n·dt is then n + 1 steps from the initial conditions.
    geckoStartSolve(t0);
    step(t0, dt0, false, signals_.data());
    startCommitted_ = true;
  } else {
    initialSolve(t0, dt0);
  }
  if (thermal_ != nullptr) thermal_->start(x_.data(), t0, dt0);
  ControlContext initial{t0, dt0, signals_.data(), x_.data(), true, gecko};
  latchSourceSignals();
  circuit_.control().evaluate(initial);
}

void Transient::runSpan(double start, long steps, Recorder* recorder) {
  storeProgress(control_, kProgressPhase, 1.0);
  storeProgress(control_, kProgressTotalSteps, static_cast<double>(steps));
  const double dt = settings_.dt;
  const bool fromInitial = !startCommitted_;
  startCommitted_ = true;  // every later span continues from committed history
  if (recorder != nullptr) recorder->record(0, 0.0, signals_.data());
  for (long n = 1; n <= steps; ++n) {
    const double t = start + static_cast<double>(n) * dt;
    // With exact timing a gate edge inside the step splits it (advance); the split never crosses
    // the step's end, so a period's last step ends on the period boundary either way.
    advance(start + static_cast<double>(n - 1) * dt, t, dt, n == 1 && fromInitial);
    if (thermal_ != nullptr) thermal_->advance(x_.data(), t, dt, n == 1 && fromInitial, recorder != nullptr);
    ControlContext ctx{t, dt, signals_.data(), x_.data(), false};
    latchSourceSignals();
    circuit_.control().evaluate(ctx);
    if (recorder != nullptr) recorder->record(n, t - start, signals_.data());
    if (n % kControlInterval == 0 || n == steps) checkControl(n, steps, t, 1);
  }
  stats_.steps += steps;
}

void Transient::visitState(StateVisitor& visitor, bool temperatures) {
  for (auto& e : circuit_.elements()) e->visitState(visitor);
  circuit_.control().visitState(visitor);
  if (thermal_ != nullptr) thermal_->visitState(visitor, temperatures);
  for (double& s : signals_) visitor.real(s);
  visitor.held(historyUneven_);  // a split last step makes the next one backward Euler
  statesChanged_ = true;  // device states may have been set: look the factorisation up again
}

Result Transient::finishSpan(Recorder& recorder, long steps, double wallMs) {
  Result result;
  recorder.finish(result);
  result.warnings = circuit_.warnings();
  circuit_.control().report(result.warnings);
  storeProgress(control_, kProgressPhase, 2.0);
  RunStats stats = stats_;
  stats.wallMs = wallMs;
  result.stats = stats;
  result.stats.preSteps = stats_.steps - steps;  // the steps before the recorded period
  result.stats.steps = steps;
  if (thermal_ != nullptr) result.losses = thermal_->summaries();
  return result;
}

void Transient::clearWindowStatistics() {
  if (thermal_ != nullptr) thermal_->clearWindowStatistics();
}

Transient::PhaseCursor Transient::startPhase(const PhaseClock& clock, int phase) {
  storeProgress(control_, kProgressPhase, phase);
  storeProgress(control_, kProgressTotalSteps, static_cast<double>(clock.steps));
  PhaseCursor cursor;
  cursor.t = clock.start;
  cursor.historyValid = startCommitted_;
  startCommitted_ = false;
  return cursor;
}

void Transient::runPhase(const PhaseClock& clock, int phase, Recorder* recorder, PhaseCursor& cursor, long steps) {
  const double dt = clock.dt;
  double t = cursor.t;
  const long last = cursor.n + steps;
  for (long n = cursor.n + 1; n <= last; ++n) {
    const double previous = t;
    if (clock.accumulate) {
      t += n == 1 ? clock.firstStep : dt;
    } else {
      // Time from the step index, not by accumulation, so rounding does not drift.
      t = clock.start + static_cast<double>(n) * dt;
      if (n == clock.steps && phase == 0) t = 0.0;
    }
    // The first step of the run integrates from the initial conditions with backward Euler (no
    // history for the others) unless the start was already such a step.
    advance(previous, t, dt, n == 1 && !cursor.historyValid);
    const double shown = t - timeOrigin_;  // the time users see (and the measurement window's)
    if (thermal_ != nullptr) {
      // Loss statistics cover the steps (t − dt, t] inside the measurement window [from, to].
      thermal_->advance(x_.data(), t, dt, n == 1,
                        recorder != nullptr && shown > measureFrom_ && shown <= measureTo_ + 0.5 * dt);
    }
    ControlContext ctx{t, dt, signals_.data(), x_.data(), false};
    latchSourceSignals();
    circuit_.control().evaluate(ctx);
    if (recorder != nullptr) recorder->record(n, shown, signals_.data());
    if (n % kControlInterval == 0 || n == clock.steps) checkControl(n, clock.steps, shown, phase);
    cursor.n = n;
    cursor.t = t;
  }
}

void Transient::latchSourceSignals() {
  for (const auto& [from, copy] : circuit_.latchedSignals()) {
    signals_[static_cast<std::size_t>(copy)] = signals_[static_cast<std::size_t>(from)];
  }
}

bool Transient::applyGates(const StepContext& ctx, const double* gates) {
  bool changed = false;
  auto count = [&](bool toggled) {
    if (!toggled) return;
    changed = true;
    statesChanged_ = true;
    ++stats_.switchingEvents;
  };
  // Each device decides from its own input only, so the two lists may run one after the other
  // and each list by type.
  const int* signalOf = gateSignals_.data();
  gated_.forEachByType([&](std::size_t i, auto* device) {
    count(device->applyGate(gates[static_cast<std::size_t>(signalOf[i])] > kGateThreshold));
  });
  deciding_.forEach([&](auto* device) { count(device->decide(ctx)); });
  return changed;
}

// A consistent solution at the start time, for the meters of the first recorded point: a
// backward-Euler step 1000 times shorter than dt, in which capacitors hold their initial voltage and
// inductors their initial current (their companion terms dominate). Nothing is committed.
// GeckoCIRCUITS' initial potentials (LKMatrices.initMatrizen, "Anfangsbedingung"): before its
// first step it solves one backward-Euler step of 1 ns ending 1 ns before it, with the devices as
// they start and every capacitor with an initial voltage replaced by a source of it, and its first
// step starts from those potentials. A capacitor starting at 0 V thus starts from the charge that
// nanosecond gives it (5e-4 V behind 10 Ω from 5 V into 1 µF), the others from their initial
// voltage. Without a (finite) solution nothing is taken.
void Transient::geckoStartSolve(double t0) {
  constexpr double kStartStep = 1e-9;
  StepContext ctx{t0 - kStartStep, kStartStep, backwardEuler_, signals_.data()};
  try {
    solveLinear(ctx, true);
  } catch (const Error& error) {
    if (error.code() != ErrorCode::SingularMatrix) throw;
    return;  // a network only the first step's states determine: its first step starts as drawn
  }
  if (!finiteSolution()) return;
  for (auto& e : circuit_.elements()) e->adoptStartSolution(x_.data());
}

void Transient::initialSolve(double t, double dt) {
  // Device states found here are only the starting guess of the first step, which settles them
  // again: a cycle ends with its least inconsistent state whatever its contradiction.
  // A very large capacitor (1 F DC links) makes C/(dt·1e-3) so much larger than the off-state
  // conductances that the matrix is numerically singular; the capacitors then hold their voltage
  // over a full dt as well, so the start is solved with the step itself before giving up.
  for (double fraction : {1e-3, 1.0}) {
    StepContext ctx{t, dt * fraction, backwardEuler_, signals_.data()};
    try {
      solveStep(ctx, true, std::numeric_limits<double>::infinity());
      return;
    } catch (const Error& error) {
      if (error.code() != ErrorCode::SingularMatrix || fraction == 1.0) throw;
    }
  }
}

void Transient::advance(double from, double to, double dt, bool firstOfPhase) {
  if (!edges_.active()) {
    step(to, dt, firstOfPhase, signals_.data());
    return;
  }
  const double tolerance = kMinSubstep * dt;
  edges_.begin(signals_.data(), dt);
  const double* gates = signals_.data();
  double t = from;
  bool split = false;
  for (int edge = 0; edge < kMaxEdgesPerStep; ++edge) {
    const double at = edges_.next(t, to, gates, tolerance);
    if (!(at < to - tolerance)) break;
    if (at > t + tolerance) {
      // The sub-step up to the edge, with the gates before it: backward Euler (one-step, so the
      // uneven spacing needs no history correction).
      substep_ = true;
      step(at, at - t, true, gates);
      substep_ = false;
      split = true;
      t = at;
    }
    std::copy(edges_.probe(), edges_.probe() + held_.size(), held_.begin());
    gates = held_.data();
  }
  substep_ = split;
  step(to, split ? to - t : dt, firstOfPhase || split, gates);
  substep_ = false;
  // A two-step method (a2 ≠ 0) would read the sub-step's point as one dt back.
  historyUneven_ = split && method_.a2 != 0.0;
}

void Transient::step(double t, double dt, bool firstOfPhase, const double* gates) {
  StepContext ctx{t, dt, method_, signals_.data()};
  bool switched = applyGates(ctx, gates);
  // Backward Euler on a phase's first step (no valid history for BDF2/trapezoidal), after a split
  // step with a two-step method and, unless disabled, on a step with a switching event (damps the
  // trapezoidal rule's ringing).
  bool useBackwardEuler = firstOfPhase || historyUneven_ || (settings_.dampAfterSwitch && switched);
  historyUneven_ = false;
  if (useBackwardEuler) ctx.k = backwardEuler_;
  solveStep(ctx, useBackwardEuler, kCycleTolerance);
  // Each element keeps its own history: the elements by type.
  const double* x = x_.data();
  historyElements_.forEachByType([&](std::size_t, auto* e) { e->commit(x, ctx); });
}

// Solves one step, re-solving it while voltage/current-driven devices change state. Ideal
// two-state devices can have no consistent state at all: a diode whose on-state current reverses and
// whose off-state voltage exceeds vf (e.g. a rectifier diode behind a tightly coupled transformer
// while the other windings are open). The iteration then cycles through the same states;
// GeckoCIRCUITS damps this with moving thresholds (docs/engine-notes.md). Here a repeated state vector
// ends the iteration: of the states in the cycle, the one whose solution contradicts its device
// states least (largest violation, SwitchingDevice::violation) is solved and accepted if that
// contradiction is within kCycleTolerance.
void Transient::solveStep(StepContext& ctx, bool useBackwardEuler, double cycleTolerance) {
  const double t = ctx.t;
  visited_.clear();
  cycleViolation_ = -1.0;
  for (int iteration = 0;; ++iteration) {
    solveLinear(ctx, useBackwardEuler);
    if (!finiteSolution()) throwSingular(t);
    toggled_.clear();
    const double* x = x_.data();
    auto settle = [&](std::size_t i, auto* device) {
      const int before = device->state();
      if (device->settle(x, ctx)) toggled_.push_back({i, stateChar(before)});
    };
    // Diodes, IGBTs and switches decide from the solution and their own state only, so they may
    // settle by type; other devices may read another's state (a CSW the current of a diode) and
    // settle in netlist order.
    if (settling_.allListed()) {
      settling_.forEachByType(settle);
    } else {
      for (std::size_t i = 0; i < settling_.size(); ++i) settling_.visit(i, [&](auto* device) { settle(i, device); });
    }
    if (toggled_.empty()) break;
    statesChanged_ = true;
    stats_.switchingEvents += static_cast<long>(toggled_.size());
    ++stats_.extraSolves;
    dampThresholds(ctx, iteration);
    // The states just solved: the present ones with the devices that toggled set back.
    stateBits(solvedState_);
    for (const auto& [i, was] : toggled_) solvedState_[i] = was;
    visited_.push_back({solvedState_, violation(solvedState_)});
    if (settings_.dampAfterSwitch && !useBackwardEuler) {
      useBackwardEuler = true;
      ctx.k = backwardEuler_;
    }
    if (endCycle(cycleTolerance)) {
      solveLinear(ctx, useBackwardEuler);
      ++stats_.extraSolves;
      ++stats_.cyclesResolved;
      break;
    }
    if (iteration + 1 >= settings_.maxSwitchIterations) {
      std::string toggling;  // the devices that changed in this last allowed iteration, in netlist order
      std::sort(toggled_.begin(), toggled_.end());
      for (const auto& toggled : toggled_) toggling += (toggling.empty() ? "" : ", ") + settling_[toggled.first]->name();
      throw Error(ErrorCode::SwitchIterationLimit,
                  "device states did not settle within " + std::to_string(settings_.maxSwitchIterations) +
                      " iterations at t = " + formatTime(t) + " s (still changing: " + toggling + ")" +
                      (cycleViolation_ >= 0.0 ? "; the states cycle and the least inconsistent one contradicts its "
                                                "devices by " + formatTime(cycleViolation_) : std::string()),
                  toggling.substr(0, toggling.find(',')), "", t);
    }
  }
}

// GeckoCIRCUITS' way out of a state iteration that keeps changing states
// (SimulationsKern.doDiodeErrorsRecalculations, LKMatrices.berechneBauteilStroeme): from the
// fourth failed solve on, the forward thresholds shrink by 1 % per solve; after 300 failed solves
// they accept a state within 0.1 V of a change, after 600 within 0.2 V. `failed` counts the
// solves of this step whose states changed, from 0.
void Transient::dampThresholds(StepContext& ctx, int failed) {
  if (failed > 2) ctx.forwardScale *= 0.99;
  const int next = failed + 1;
  ctx.acceptance = next > 600 ? 0.2 : next > 300 ? 0.1 : 0.0;
}

// Builds the right-hand side for the present device states and solves into x_: the unknowns from
// the factorisation, the source-driven node slots after them straight from the right-hand side.
// Each entry sums its terms in element order from 0.0; the leading state-fixed terms come summed
// with the factorisation of the device states (the same sums: the same additions in the same
// order), the other elements add theirs to them.
void Transient::solveLinear(const StepContext& ctx, bool useBackwardEuler) {
  double* rhs = rhs_.data();
  const Factorization& lu = factorization(ctx, useBackwardEuler);
  // Eigen's assignment copies the few entries in registers inline; std::copy and std::fill (or
  // setZero) of a length known only at run time become calls of memmove and memset, which cost
  // more than the copy itself for the dozen unknowns of a converter.
  rhs_ = Eigen::Map<const Eigen::VectorXd>(lu.stateRhs().data(), rhs_.size());
  rhsElements_.forEach([&](auto* e) { e->stampRhs(rhs, ctx); });
  lu.solve(rhs, x_.data());
  if (lu.refines()) lu.refine(rhs, x_.data());
  for (Eigen::Index i = circuit_.unknowns(); i < rhs_.size(); ++i) x_[i] = rhs[i];
}

// A singular or nearly singular system shows as an infinite or NaN solution (finite_sum.hpp).
bool Transient::finiteSolution() const { return finiteSum(x_.data(), static_cast<std::size_t>(x_.size())); }

void Transient::stateBits(std::string& bits) const {
  bits.resize(settling_.size());
  for (std::size_t i = 0; i < settling_.size(); ++i) bits[i] = stateChar(settling_[i]->state());
}

double Transient::violation(const std::string& bits) const {
  double worst = 0.0;
  for (std::size_t i = 0; i < settling_.size(); ++i) {
    worst = std::max(worst, settling_[i]->violation(x_.data(), stateOf(bits[i])));
  }
  return worst;
}

// If the states just set by settle() were already solved in this step and the least inconsistent
// state of that cycle is within the tolerance, forces that state and returns true.
bool Transient::endCycle(double tolerance) {
  stateBits(nextState_);
  std::size_t first = visited_.size();
  for (std::size_t i = 0; i < visited_.size(); ++i) {
    if (visited_[i].first == nextState_) { first = i; break; }
  }
  if (first == visited_.size()) return false;
  std::size_t best = first;
  for (std::size_t i = first; i < visited_.size(); ++i) {
    if (visited_[i].second < visited_[best].second) best = i;
  }
  cycleViolation_ = visited_[best].second;
  if (cycleViolation_ > tolerance) return false;
  const std::string& chosen = visited_[best].first;
  for (std::size_t i = 0; i < settling_.size(); ++i) settling_[i]->forceState(stateOf(chosen[i]));
  statesChanged_ = true;
  return true;
}

const Factorization& Transient::factorization(const StepContext& ctx, bool useBackwardEuler) {
  if (current_ != nullptr && !statesChanged_ && useBackwardEuler == currentBackwardEuler_ && ctx.dt == currentDt_) {
    ++stats_.cacheHits;
    return *current_;
  }
  statesChanged_ = false;
  currentBackwardEuler_ = useBackwardEuler;
  currentDt_ = ctx.dt;
  current_ = lookup(ctx, useBackwardEuler);
  return *current_;
}

const Factorization* Transient::lookup(const StepContext& ctx, bool useBackwardEuler) {
  // Key: device states, method actually used, and dt (the pre-simulation may use another dt).
  key_.resize(settling_.size() + 1 + sizeof(double));
  for (std::size_t i = 0; i < settling_.size(); ++i) key_[i] = stateChar(settling_[i]->state());
  key_[settling_.size()] = useBackwardEuler ? 'B' : 'M';
  std::memcpy(&key_[settling_.size() + 1], &ctx.dt, sizeof(double));
  if (const Factorization* cached = cache_.find(key_)) {
    ++stats_.cacheHits;
    return cached;
  }
  std::fill(values_.begin(), values_.end(), 0.0);
  for (auto& e : circuit_.elements()) e->stampMatrix(values_.data(), ctx);
  for (int slot : circuit_.tieSlots()) values_[static_cast<std::size_t>(slot)] += 1.0;
  auto lu = factorizer_.factorize(values_);
  if (!lu) throwSingular(ctx.t);
  ++stats_.factorizations;
  // Zeros when no element's terms are fixed by the states: every solve starts from this vector.
  std::vector<double> fixed(static_cast<std::size_t>(rhs_.size()), 0.0);
  stateRhsElements_.forEach([&](auto* e) { e->stampRhs(fixed.data(), ctx); });
  lu->keepStateRhs(std::move(fixed));
  if (substep_) {
    // A sub-step's dt is used once: caching it would only push out the run's own factorisations.
    substepLu_ = std::move(lu);
    return substepLu_.get();
  }
  return cache_.insert(key_, std::move(lu));
}

// Names the unknown that the (near) null space of the equilibrated matrix moves most: that node or
// branch current is not determined by the circuit.
void Transient::throwSingular(double t) const {
  std::string culprit;
  std::string node;
  if (circuit_.unknowns() <= 3000) {
    Eigen::MatrixXd a = factorizer_.denseMatrix(values_);
    const Equilibration scale = equilibrate(a);
    Eigen::MatrixXd as = scaled(a, scale);
    Eigen::FullPivLU<Eigen::MatrixXd> lu(as);
    lu.setThreshold(std::sqrt(std::numeric_limits<double>::epsilon()));
    Eigen::VectorXd direction;
    if (lu.dimensionOfKernel() > 0) {
      direction = lu.kernel().col(0);
    } else if (circuit_.unknowns() <= 500) {
      // Singular to working precision without an exact kernel: the right singular vector of the
      // smallest singular value.
      Eigen::JacobiSVD<Eigen::MatrixXd> svd(as, Eigen::ComputeFullV);
      direction = svd.matrixV().col(as.cols() - 1);
    }
    if (direction.size() > 0 && direction.norm() > 0.0) {
      Eigen::Index worst = 0;
      direction.cwiseAbs().maxCoeff(&worst);
      culprit = circuit_.unknownName(static_cast<int>(worst));
      if (worst < static_cast<Eigen::Index>(circuit_.unknowns()) && culprit.rfind("node", 0) == 0) {
        node = circuit_.nodeName(static_cast<int>(worst));
      }
    }
  }
  std::string element;
  if (culprit.rfind("current of '", 0) == 0) element = culprit.substr(12, culprit.size() - 13);
  throw Error(ErrorCode::SingularMatrix,
              "the circuit equations have no unique solution at t = " + formatTime(t) + " s" +
                  (culprit.empty() ? std::string() : " (" + culprit + " is not determined)"),
              element, node, t);
}

void Transient::checkControl(long n, long steps, double t, int phase) {
  storeProgress(control_, kProgressStep, static_cast<double>(n));
  storeProgress(control_, kProgressTime, t);
  (void)steps;
  (void)phase;
  if (loadFlag(control_, kFlagCancel)) throw Error(ErrorCode::Cancelled, "the run was cancelled", "", "", t);
  if (!loadFlag(control_, kFlagPause)) return;
  storeProgress(control_, kProgressPaused, 1.0);
  while (loadFlag(control_, kFlagPause)) {
    if (loadFlag(control_, kFlagCancel)) throw Error(ErrorCode::Cancelled, "the run was cancelled", "", "", t);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  storeProgress(control_, kProgressPaused, 0.0);
}

}  // namespace pesim

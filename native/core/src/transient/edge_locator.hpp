// Exact timing's switching instants: where, between two steps, the gate signals jump.
//
// The control blocks are evaluated once per step, so a gate signal known at t(n) holds the
// switches over (t(n), t(n+1)] and a source's edge would act on the first step after its true
// time (a rectangle of duty d at period T then switches up to dt late, and its duty varies from
// period to period). The gates' pure cone (ControlSystem::pureCone: signal sources, TIME and the
// stateless blocks between them and the gates) is a function of time and of the signals held
// from the last step, so it can be evaluated at any time inside the step. At each jump of a
// source inside the step (Block::nextJump: a rectangle's edges, a sawtooth's return) the locator
// evaluates the cone just after the jump; where the gates change, the time loop ends a sub-step
// and goes on with the new gates: the breakpoints of SPICE's transient analysis (L. W. Nagel,
// SPICE2, UCB/ERL M520, 1975: time points at the sources' breakpoints) for a fixed-step engine.
// Continuous crossings (a carrier against a reference) stay on the steps: locating them would
// cost a factorisation per edge for every sine-triangle modulator.
#pragma once

#include <cstddef>
#include <limits>
#include <vector>

#include "control/block.hpp"

namespace pesim {

class EdgeLocator {
 public:
  EdgeLocator() = default;
  EdgeLocator(std::vector<Block*> cone, std::vector<int> gateSignals, std::size_t signalCount);
  // False when no gate depends on time between steps (no cone): steps are not split.
  bool active() const { return !cone_.empty(); }
  // Starts a step of length dt from the signals of the last evaluation (not copied until needed).
  void begin(const double* signals, double dt);
  // The first source jump in (from + tolerance, to − tolerance) after which the gates differ from
  // `gates`; +infinity if none. After a finite answer, probe() holds the signals just after it.
  double next(double from, double to, const double* gates, double tolerance);
  const double* probe() const { return probe_.data(); }

 private:
  void evaluateAt(double t);
  bool differs(const double* gates) const;
  double nextJump(double after);

  std::vector<Block*> cone_;
  std::vector<Block*> jumping_;  // the cone's time-varying blocks
  std::vector<int> gateSignals_;
  std::vector<double> probe_;   // the cone's values at the last evaluated time
  const double* held_ = nullptr;  // the signals of the last evaluation (copied on first use)
  bool copied_ = false;
  double dt_ = 0.0;
  // The last answer of nextJump: the first jump after jumpAsked_ (none before: +infinity).
  double jumpAsked_ = std::numeric_limits<double>::infinity();
  double jump_ = std::numeric_limits<double>::infinity();
};

}  // namespace pesim

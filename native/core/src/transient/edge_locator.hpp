// Exact timing's switching instants: where, between two steps, the gate signals change.
//
// The control blocks are evaluated once per step, so a gate signal known at t(n) holds the
// switches over (t(n), t(n+1)] and an edge is placed on the first step after its true time (a
// rectangle of duty d at period T then switches up to dt late, and its duty varies from period
// to period). The gates' pure cone (ControlSystem::pureCone: signal sources, TIME and the
// stateless blocks between them and the gates) is a function of time and of the signals held
// from the last step, so it can be evaluated at any time inside the step. The locator finds the
// first time the gates change in there: at a source's jump (Block::nextJump, exact) or, for a
// continuous crossing (a carrier against a reference), by bisection to within a tolerance. The
// time loop then ends a sub-step there and goes on with the new gates: the breakpoint
// mechanism of SPICE's transient analysis (L. W. Nagel, SPICE2, UCB/ERL M520, 1975, ch. 4:
// time points at the sources' breakpoints) for a fixed-step engine.
#pragma once

#include <cstddef>
#include <vector>

#include "control/block.hpp"

namespace pesim {

class EdgeLocator {
 public:
  EdgeLocator() = default;
  EdgeLocator(std::vector<Block*> cone, std::vector<int> gateSignals, std::size_t signalCount);
  // False when no gate depends on time between steps (no cone): steps are not split.
  bool active() const { return !cone_.empty(); }
  // Starts a step of length dt from the signals of the last evaluation.
  void begin(const double* signals, double dt);
  // The first time in (from, to − tolerance) at which the gates differ from `gates`, within
  // `tolerance` after the true time; +infinity if none. After a finite answer, probe() holds the
  // signals just after that time.
  double next(double from, double to, const double* gates, double tolerance);
  const double* probe() const { return probe_.data(); }

 private:
  void evaluateAt(double t);
  bool differs(const double* gates) const;
  double nextJump(double after) const;

  std::vector<Block*> cone_;
  std::vector<Block*> jumping_;  // the cone's time-varying blocks
  std::vector<int> gateSignals_;
  std::vector<double> probe_;
  double dt_ = 0.0;
};

}  // namespace pesim

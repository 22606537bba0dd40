// A transient run taken a few steps at a time, kept alive between the calls (GeckoSCRIPT's
// initSimulation / simulateStep / simulateSteps / simulateTime / endSimulation): the same run as
// simulate() gives, split into pieces. Between the pieces the circuit may be rebuilt from a netlist
// with other parameter values (same elements, blocks and connections); the run then goes on from
// the state it reached, with the new values from the next step.
#pragma once

#include <memory>

#include "pesim/engine.hpp"

namespace pesim {

class StepSession {
 public:
  // Builds the circuit and does all before the main run's first step (the initial step, the
  // pre-simulation); throws pesim::Error as simulate() does.
  StepSession(const Netlist& netlist, const RunControl& control = {});
  ~StepSession();
  StepSession(const StepSession&) = delete;
  StepSession& operator=(const StepSession&) = delete;

  // Runs the next `steps` steps of the main run, at most those left; returns how many ran.
  long step(long steps);
  long stepsDone() const;
  long totalSteps() const;
  // Time of the last step (0 before the first).
  double time() const;
  // What the run recorded so far (samples, measurements over the part of the window reached).
  Result partialResult() const;
  // The circuit built again from `netlist` (the same structure, other parameter values; the
  // settings are the session's): the state reached is carried over. Throws pesim::Error when the
  // netlist does not build or its structure differs.
  void rebuild(const Netlist& netlist);
  // The result of the run as far as it went (the post-run analyses included); the session is
  // over: only the destructor may follow.
  Result finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pesim

// The step times of a run's two phases, the pre-simulation and the main run: exact (t = start + n·dt,
// the main run from 0 and the pre-simulation before it) or GeckoCIRCUITS' (its running sum t += dt
// from 0 through the pre-simulation into the main run: SimulationsKern.runSimulation,
// SimulationRunner.continueCalculation).
#pragma once

#include "pesim/netlist.hpp"
#include "transient/recorder.hpp"

namespace pesim {

// Steps 1..steps of one phase after `start`: at start + n·dt, or, when `accumulate`, by adding
// firstStep and then dt to the previous time as GeckoCIRCUITS does.
struct PhaseClock {
  double start = 0.0;
  double dt = 0.0;
  long steps = 0;
  bool accumulate = false;
  double firstStep = 0.0;
};

struct RunClocks {
  PhaseClock pre, main;
  double timeOrigin = 0.0;  // internal time of the reported t = 0 (GeckoCIRCUITS: T_pre)
  GeckoAxis axis;           // GeckoCIRCUITS' scope axis of the main run (GeckoCIRCUITS' timing only)
};

RunClocks exactClocks(const Settings& settings);
// GeckoCIRCUITS' steps for a run of tEnd with step dt after a pre-simulation of tPre (0: none)
// with step dtPre. The step at t = 0 is the run's first (the one before `pre`).
RunClocks geckoClocks(double tEnd, double dt, double tPre, double dtPre);

}  // namespace pesim

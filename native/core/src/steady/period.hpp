// The period of the steady-state analysis: the common period of the circuit's periodic sources
// (independent sources and control source blocks), or the one given, as a whole number of steps.
#pragma once

#include "circuit/circuit.hpp"

namespace pesim {

struct SteadyPeriod {
  double period = 0.0;  // [s]
  long steps = 0;       // steps of dt per period (period = steps·dt)
  double from = 0.0;    // [s] time from which every source repeats
};

// Throws Error(SteadyStateUnsupported) naming the reason: a source that never repeats, no
// periodic source and no period given, periods without a common multiple (within 1000 periods),
// a period that is not a whole number of steps (within 1000 periods).
SteadyPeriod steadyPeriod(Circuit& circuit, double dt, double given);

// The common period of the circuit's sources as steadyPeriod finds it, or an empty one (0 steps)
// where steadyPeriod refuses (for a transient run, which needs none).
SteadyPeriod sourcePeriod(Circuit& circuit, double dt);

// The smallest common multiple of periods a and b, or 0 when a/b is no fraction p/q with
// q, p ≤ 1000 (to 1e-9 relative).
double commonPeriod(double a, double b);

}  // namespace pesim

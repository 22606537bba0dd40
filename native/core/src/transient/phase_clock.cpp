// The step times of a run (see phase_clock.hpp).
#include "transient/phase_clock.hpp"

#include <cmath>

namespace pesim {

namespace {

long stepCount(double span, double dt) {
  return static_cast<long>(std::ceil(span / dt - 1e-9));
}

// GeckoCIRCUITS' time loop `for (t = start; t <= end; t += step)`: how often it turns and the last
// t it runs with. Where the step is below the rounding of t the sum stalls (GeckoCIRCUITS would
// never end): the count stops there.
struct GeckoLoop {
  long turns = 0;
  double last = 0.0;
};

GeckoLoop geckoLoop(double start, double end, double step) {
  GeckoLoop loop;
  for (double t = start; t <= end; t += step) {
    ++loop.turns;
    loop.last = t;
    if (t + step == t) break;
  }
  return loop;
}

}  // namespace

RunClocks exactClocks(const Settings& s) {
  const double dtPre = s.dtPre > 0.0 ? s.dtPre : s.dt;
  const long preSteps = s.tPre > 0.0 ? stepCount(s.tPre, dtPre) : 0;
  RunClocks c;
  c.pre = PhaseClock{-static_cast<double>(preSteps) * dtPre, dtPre, preSteps, false};
  c.main = PhaseClock{0.0, s.dt, stepCount(s.tEnd, s.dt), false};
  return c;
}

RunClocks geckoClocks(double tEnd, double dt, double tPre, double dtPre) {
  const bool withPre = tPre > 0.0;
  RunClocks c;
  c.timeOrigin = withPre ? tPre : 0.0;
  // The pre-simulation's steps at 0, dtPre, … ≤ tPre; the one at 0 is the run's first step.
  const GeckoLoop pre = withPre ? geckoLoop(0.0, tPre, dtPre) : GeckoLoop{1, 0.0};
  c.pre = PhaseClock{0.0, dtPre, pre.turns - 1, true, dtPre};
  // The main run's sum goes on from the pre-simulation's last step (or the step at 0) to tPre + tEnd.
  const double first = withPre ? dtPre : dt;
  const double mainStart = pre.last + first;
  c.main = PhaseClock{pre.last, dt, geckoLoop(mainStart, c.timeOrigin + tEnd, dt).turns, true, first};
  // GeckoCIRCUITS' scope holds the main run from its first step: the step at 0, or the one after
  // the pre-simulation.
  c.axis = withPre ? geckoAxis(mainStart, dt, c.main.steps - 1) : geckoAxis(0.0, dt, c.main.steps);
  return c;
}

}  // namespace pesim

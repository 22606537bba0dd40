// GeckoCIRCUITS' discrete rectangle and triangle sources (GeckoCIRCUITS classes
// control/calculators/AbstractSignalCalculatorPeriodic, SignalCalculatorRectangle,
// SignalCalculatorTriangle). GeckoCIRCUITS does not evaluate these waves from the time: it keeps a
// triangle that moves by a fixed increment every step and is clamped at its peaks, so each rising
// or falling flank lasts a whole number of steps (rounded up). A 35 kHz rectangle at dt = 1 µs thus
// has a period of 30 steps, not 28.57, and its duty cycle is quantised the same way; pesim
// reproduces this for `.ipes` models (Settings::timing = Gecko).
//
// Rectangle: the unit triangle u rises and falls by 4·f·dt per step and the output is
// offset + A while u > 1 − 2·d. Triangle: the triangle of amplitude |A| rises by 2·|A|·f·dt/d and
// falls by 2·|A|·f·dt/(1 − d) per step. Both start from a state found by running the same triangle
// in 1000 steps per period over the phase (for the rectangle, shifted by (1 − 2d)/(4f) so that the
// pulse starts at the origin) and negating it, without changing its direction.
#pragma once

#include "steady/state_visitor.hpp"

namespace pesim {

class SteppedWave {
 public:
  enum class Kind { Rectangle, Triangle };
  // phaseDegrees: GeckoCIRCUITS' phase φ (the wave is delayed by φ/360° of a period).
  SteppedWave(Kind kind, double amplitude, double frequency, double offset, double phaseDegrees, double duty);

  // The state at the simulation start (GeckoCIRCUITS' initializeAtSimulationStart).
  void start();
  // Advances one step of length dt and returns the output.
  double step(double dt);
  // Steps of one period at step dt: the ramps are clamped at their peaks, so the wave repeats
  // exactly after a whole number of steps, which may differ from 1/(frequency·dt). 0 for a
  // constant (zero amplitude).
  long periodSteps(double dt) const;
  void visitState(StateVisitor& visitor) {
    visitor.held(level_);
    visitor.held(rising_);
  }

 private:
  void advance(double up, double down, double peak, bool clamp);
  void runStartPhase();

  Kind kind_;
  double amplitude_, frequency_, offset_, phase_, duty_;  // phase_ in radians
  double level_ = 0.0;  // the triangle: unit for the rectangle, ±|A| for the triangle
  bool rising_ = true;
};

}  // namespace pesim

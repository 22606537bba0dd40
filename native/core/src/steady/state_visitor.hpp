// The dynamic state of a run, visited part by part: the periodic steady-state analysis
// (steady/shooting.hpp) reads it at the start of a period, sets it again to simulate the same
// period from another start, and solves for the part that must repeat after one period.
//
// Every object that keeps something from one step to the next (an element's companion history,
// a device's state, a control block's memory, the thermal network) shows each of its members to
// the visitor, always in the same order. The visitor reads or writes them through the reference.
#pragma once

#include <string>

namespace pesim {

class StateVisitor {
 public:
  virtual ~StateVisitor() = default;
  // A continuous state variable (capacitor voltage, inductor current, integrator output, stored
  // companion terms, temperatures): one unknown of the shooting method.
  virtual void real(double& value) = 0;
  // A value that is kept but is no unknown (counters, discrete levels, cached decisions): carried
  // from the end of the last simulated period to the start of the next.
  virtual void held(double& value) = 0;
  virtual void held(int& value) = 0;
  virtual void held(long& value) = 0;
  virtual void held(bool& value) = 0;
  // A time stamp (the time of an event in the past): carried like `held`, moved back by the
  // period when the end of a period becomes the start of the next.
  virtual void time(double& value) = 0;
};

// How a source repeats: with `period` (0: constant, no constraint on the period) from time
// `from` on; `refusal` says why it never repeats (random, growing without bound), empty if it does.
struct Periodicity {
  double period = 0.0;
  double from = 0.0;
  std::string refusal;
};

}  // namespace pesim

// Elements with a discrete state that selects their linear model: two-state switches and
// semiconductors (switching.hpp), the op-amp's output limiter (opamp.hpp) and the segments of
// piecewise-linear reactive elements (nonlinear.hpp). The time loop keys its cached
// factorisations by the states of all of them (transient.cpp) and re-solves a step while a state
// changes. A state is a small number, 0 … kMaxStates − 1; switches use 0 (off) and 1 (on).
#pragma once

#include "elements/element.hpp"

namespace pesim {

class StateDevice : public Element {
 public:
  // States are stored as one character of the cache key each ('0' + state, below 256).
  static constexpr int kMaxStates = 200;

  using Element::Element;

  int state() const { return state_; }
  // Gate input (signal index) for gate-driven devices; −1 when ungated.
  void setGateSignal(int index) { gateSignal_ = index; }
  int gateSignal() const { return gateSignal_; }
  virtual bool acceptsGate() const { return false; }
  // Applies the gate value at the start of a step; returns true if the state changed.
  virtual bool applyGate(bool /*gate*/) { return false; }
  // Decides the state from a solution of the present step; returns true if it changed.
  virtual bool settle(const double* /*x*/, const StepContext& /*step*/) { return false; }
  // How far a solution computed with the device in state `solvedState` contradicts that state: 0
  // when consistent; for diode-like devices the volts by which v is on the wrong side of vf, for
  // controlled switches the distance of the control quantity beyond its threshold, for
  // piecewise-linear elements the distance beyond the segment's bounds. Used to pick the least
  // inconsistent state when the state iteration cycles (transient.cpp).
  virtual double violation(const double* /*x*/, int /*solvedState*/) const { return 0.0; }
  // Devices whose state is a known function of time decide it at the start of the step, like a
  // gate (no solve with the old state first); returns true if the state changed.
  virtual bool decidesBeforeSolve() const { return false; }
  virtual bool decide(const StepContext& /*step*/) { return false; }
  // Sets the state chosen by the engine to end a cycle of the state iteration.
  void forceState(int state) { state_ = state; }
  // The device state is decided again in every step; the last one is the next step's first guess.
  void visitState(StateVisitor& visitor) override { visitor.held(state_); }

 protected:
  void setState(int state) { state_ = state; }

 private:
  int state_ = 0;
  int gateSignal_ = -1;
};

}  // namespace pesim

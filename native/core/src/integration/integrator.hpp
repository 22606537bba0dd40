// Integration methods as coefficients of one formula for the derivative at the new point:
//   y'(n+1) ≈ (a0·y(n+1) + a1·y(n) + a2·y(n−1)) / dt + b1·y'(n)
// Reactive elements build their companion models from these (docs/engine-notes.md, "Companion models"):
//   capacitor  i = C·v'  →  geq = a0·C/dt,  ieq = −(C/dt)·(a1·v(n) + a2·v(n−1)) − b1·i(n)
//   inductor   v = L·i'  →  v − (a0·L/dt)·i = (L/dt)·(a1·i(n) + a2·i(n−1)) + b1·v(n)
#pragma once

#include "pesim/netlist.hpp"

namespace pesim {

struct Coefficients {
  double a0 = 1.0;
  double a1 = -1.0;
  double a2 = 0.0;
  double b1 = 0.0;
};

Coefficients backwardEulerCoefficients();
Coefficients trapezoidalCoefficients();
Coefficients gearCoefficients();

inline Coefficients coefficientsFor(Method method) {
  switch (method) {
    case Method::Trapezoidal: return trapezoidalCoefficients();
    case Method::Gear: return gearCoefficients();
    case Method::BackwardEuler: break;
  }
  return backwardEulerCoefficients();
}

}  // namespace pesim

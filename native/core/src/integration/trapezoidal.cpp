// Trapezoidal rule (implicit, second order, A-stable):
//   (y(n+1) − y(n)) / dt = (y'(n+1) + y'(n)) / 2  →  y'(n+1) = 2·(y(n+1) − y(n)) / dt − y'(n).
#include "integration/integrator.hpp"

namespace pesim {

Coefficients trapezoidalCoefficients() { return Coefficients{2.0, -2.0, 0.0, -1.0}; }

}  // namespace pesim

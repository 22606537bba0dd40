// Backward Euler (implicit, first order, L-stable): y'(n+1) = (y(n+1) − y(n)) / dt.
#include "integration/integrator.hpp"

namespace pesim {

Coefficients backwardEulerCoefficients() { return Coefficients{1.0, -1.0, 0.0, 0.0}; }

}  // namespace pesim

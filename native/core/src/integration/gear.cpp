// Gear-Shichman, i.e. the second-order backward differentiation formula (BDF2) at fixed step:
//   y'(n+1) = (1.5·y(n+1) − 2·y(n) + 0.5·y(n−1)) / dt.
// It needs two past points, so a run (and, by default, every switching event) starts it with one
// backward-Euler step (Shichman, IEEE Trans. Circuit Theory 17(3), 1970).
#include "integration/integrator.hpp"

namespace pesim {

Coefficients gearCoefficients() { return Coefficients{1.5, -2.0, 0.5, 0.0}; }

}  // namespace pesim

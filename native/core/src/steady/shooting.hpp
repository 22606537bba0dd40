// The periodic steady state by the shooting method (Aprille and Trick, "Steady-state analysis of
// nonlinear circuits with periodic inputs", Proc. IEEE 60(1), 1972): with Φ(x0) the state after
// one period T simulated from the state x0, solve the periodicity condition
//   F(x0) = Φ(x0) − x0 = 0
// by Newton's method, (M − I)·Δ = −F with M = ∂Φ/∂x0 the period's sensitivity (monodromy) matrix.
// M is not formed: GMRES solves the Newton step from products M·v, each one simulated period from
// x0 + h·v (matrix-free Newton–Krylov shooting: Telichevesky, Kundert and White, "Efficient
// steady-state analysis based on matrix-free Krylov-subspace methods", DAC 1995). A switched
// circuit with time-driven switching is piecewise linear in its state, Φ is then affine and the
// first Newton step lands on the periodic state; closed loops and diodes bend it, and Newton
// iterates. When Newton does not converge, plain periods of transient simulation continue from the
// best state found (the fallback), and the report says so.
#pragma once

#include "pesim/engine.hpp"
#include "steady/period.hpp"
#include "transient/transient.hpp"

namespace pesim {

// Runs the analysis on a transient that begin() has started; returns the settled period.
Result shoot(Transient& run, const Settings& settings, const SteadyPeriod& period, const SteadyOptions& options,
             bool hasThermal);

}  // namespace pesim

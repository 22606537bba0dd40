// The checks of a run's settings (dt, tEnd, pre-simulation, limits) every entry point makes
// before building the circuit: a pesim::Error naming the setting at fault.
#pragma once

#include "pesim/engine.hpp"

namespace pesim {

void checkSettings(const Settings& settings);

}  // namespace pesim

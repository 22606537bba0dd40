// stepSession(netlist): a transient run taken step by step (pesim/step_session.hpp), for
// GeckoSCRIPT's initSimulation/simulateStep/.../endSimulation. Returns an object with
//   step(n) → steps run (at most those left), done(), total(), time(),
//   result() → the result so far (a copy; the run goes on), rebuild(netlist) → the same run
//   continued with the circuit built from `netlist` (other parameter values),
//   finish() → the result of the run as far as it went (the session is over), release().
// The calls run on the calling thread. The session is freed by finish(), release() or when the
// object is collected.
#pragma once

#include <napi.h>

namespace pesim::addon {

Napi::Value StepSessionNew(const Napi::CallbackInfo& info);

}  // namespace pesim::addon

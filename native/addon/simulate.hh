// simulateSync (runs on the calling thread: for worker threads) and simulateAsync (runs on the
// libuv thread pool and returns a Promise). Both take the netlist and an optional control object
// { flags: Int32Array(2), progress: Float64Array(5) } over shared memory. simulateSync takes a
// third, optional argument: Float64Arrays of an earlier result whose memory the run may record
// into (overwriting them), which spares a thread that runs many simulations fresh allocations.
#pragma once

#include <napi.h>

#include "pesim/netlist.hpp"

namespace pesim::addon {

Napi::Value SimulateSync(const Napi::CallbackInfo& info);
// simulateSync's run of a converted netlist on the calling thread: control and reuse as its
// second and third arguments; the result object.
Napi::Value simulateOnThisThread(Napi::Env env, const Netlist& netlist, const Napi::Value& control, const Napi::Value& reuse);
Napi::Value SimulateAsync(const Napi::CallbackInfo& info);
Napi::Value Validate(const Napi::CallbackInfo& info);
// steadySync(netlist, options, control) and steadyAsync (a Promise): the periodic steady state
// (pesim::steadyState); options { period, tolerance, maxIterations, maxPeriods, temperatures,
// initPeriods, perturbation, jacobian ("fast" | "full") }, each optional.
Napi::Value SteadySync(const Napi::CallbackInfo& info);
Napi::Value SteadyAsync(const Napi::CallbackInfo& info);
Napi::Value UnusedParameters(const Napi::CallbackInfo& info);

}  // namespace pesim::addon

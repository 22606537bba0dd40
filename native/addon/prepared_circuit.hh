// A netlist converted for the engine once, run with many parameter sets on one thread (the runs of
// a sweep): prepareCircuit(netlist) returns an opaque handle owning the converted netlist (freed
// with the handle); simulatePreparedSync(handle, names, lists, items, nameIds, values, control,
// reuse) applies one set of assignments (assignments.hh), runs as simulateSync does (control and
// reuse as its second and third arguments) and takes the assignments back, also when the run
// throws. A handle belongs to the thread that made it.
#pragma once

#include <napi.h>

namespace pesim::addon {

Napi::Value PrepareCircuit(const Napi::CallbackInfo& info);
Napi::Value SimulatePreparedSync(const Napi::CallbackInfo& info);

}  // namespace pesim::addon

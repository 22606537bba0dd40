// Netlists converted once, run with many parameter sets (prepared_circuit.hh).
#include "prepared_circuit.hh"

#include <memory>
#include <utility>

#include "args.hh"
#include "assignments.hh"
#include "convert.hh"
#include "simulate.hh"

namespace pesim::addon {

Napi::Value PrepareCircuit(const Napi::CallbackInfo& info) {
  auto netlist = std::make_unique<Netlist>(toNetlist(info[0]));
  Napi::External<Netlist> handle = Napi::External<Netlist>::New(info.Env(), netlist.get(), [](Napi::Env, Netlist* owned) { delete owned; });
  netlist.release();  // owned by the handle's finalizer from here on
  return handle;
}

Napi::Value SimulatePreparedSync(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const Args args(env, "NETLIST_INVALID");
  if (!info[0].IsExternal()) args.expected("circuit", "a handle from prepareCircuit");
  Netlist& netlist = *info[0].As<Napi::External<Netlist>>().Data();
  const AssignmentArrays arrays = readAssignments(args, info[1], info[2], info[3], info[4], info[5]);
  AppliedAssignments assigned(netlist);  // taken back when this returns or throws
  assigned.apply(args, arrays, 0, arrays.size());
  return simulateOnThisThread(env, netlist, info[6], info[7]);
}

}  // namespace pesim::addon

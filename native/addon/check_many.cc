// The engine's checks of a sweep (check_many.hh).
#include "check_many.hh"

#include <cstdint>
#include <string>
#include <vector>

#include "args.hh"
#include "assignments.hh"
#include "convert.hh"
#include "errors.hh"
#include "pesim/engine.hpp"

namespace pesim::addon {

Napi::Value CheckMany(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Netlist netlist = toNetlist(info[0]);
  const Args args(env, "NETLIST_INVALID");
  const AssignmentArrays arrays = readAssignments(args, info[1], info[3], info[4], info[5], info[6]);
  if (!info[2].IsTypedArray() || info[2].As<Napi::TypedArray>().TypedArrayType() != napi_int32_array) args.expected("counts", "an Int32Array");
  const Napi::Int32Array counts = info[2].As<Napi::Int32Array>();
  const std::size_t total = arrays.size();
  AppliedAssignments assigned(netlist);
  std::size_t next = 0;
  for (std::size_t k = 0; k < counts.ElementLength(); ++k) {
    const std::int32_t count = counts[k];
    if (count < 0 || next + static_cast<std::size_t>(count) > total) args.invalid(Args::indexed("counts", k), "counts exceed the assignments given");
    assigned.apply(args, arrays, next, static_cast<std::size_t>(count));
    next += static_cast<std::size_t>(count);
    bool refused = false;
    try {
      validate(netlist);
    } catch (...) {
      refused = true;  // the caller checks this set again on its own for the error
    }
    assigned.restore();
    if (refused) return Napi::Number::New(env, static_cast<double>(k));
  }
  return Napi::Number::New(env, -1);
}

}  // namespace pesim::addon

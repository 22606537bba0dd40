// checkMany(netlist, names, counts, lists, items, nameIds, values): one netlist checked by the engine
// (as validate) with each of many sets of parameter assignments, the netlist converted once. Check
// k applies counts[k] assignments, read in order from the parallel arrays: item `items[i]` of list
// `lists[i]` (0 elements, 1 blocks, 2 thermal) gets parameter `names[nameIds[i]]` = `values[i]`.
// Returns the position of the first set the engine refuses, -1 if none. The sets come from
// OverrideResolver (src/formats/overrides.ts), which owns what an override means.
#pragma once

#include <napi.h>

namespace pesim::addon {

Napi::Value CheckMany(const Napi::CallbackInfo& info);

}  // namespace pesim::addon

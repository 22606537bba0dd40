// Parameter assignments handed to the addon as parallel typed arrays (OverrideResolver in
// src/formats/overrides.ts owns what an override means): assignment i sets parameter
// `names[nameIds[i]]` of item `items[i]` of list `lists[i]` (0 elements, 1 blocks, 2 thermal) to
// `values[i]`. Applied to a netlist the addon converted once (checkMany, simulatePreparedSync), and
// taken back afterwards, so that one conversion serves many parameter sets.
#pragma once

#include <napi.h>

#include <cstddef>
#include <string>
#include <vector>

#include "args.hh"
#include "pesim/netlist.hpp"

namespace pesim::addon {

struct AssignmentArrays {
  std::vector<std::string> names;
  Napi::Int32Array lists;
  Napi::Int32Array items;
  Napi::Int32Array nameIds;
  Napi::Float64Array values;
  std::size_t size() const { return lists.ElementLength(); }
};

// The five arguments; throws (args' code) on a wrong type or arrays of unequal lengths.
AssignmentArrays readAssignments(const Args& args, const Napi::Value& names, const Napi::Value& lists, const Napi::Value& items,
                                 const Napi::Value& nameIds, const Napi::Value& values);

// Assignments made to a netlist, taken back (in reverse order) by restore() or the destructor.
class AppliedAssignments {
 public:
  explicit AppliedAssignments(Netlist& netlist) : netlist_(netlist) {}
  AppliedAssignments(const AppliedAssignments&) = delete;
  AppliedAssignments& operator=(const AppliedAssignments&) = delete;
  ~AppliedAssignments() { restore(); }

  // Applies assignments [from, from + count); throws (args' code) naming the index at fault.
  void apply(const Args& args, const AssignmentArrays& arrays, std::size_t from, std::size_t count);
  void restore();

 private:
  struct Assigned {
    ParameterSet* set;
    const std::string* name;
    bool had;
    double before;
  };
  Netlist& netlist_;
  std::vector<Assigned> assigned_;
};

}  // namespace pesim::addon

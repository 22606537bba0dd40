// The engine's checks of a sweep (check_many.hh).
#include "check_many.hh"

#include <cstdint>
#include <string>
#include <vector>

#include "args.hh"
#include "convert.hh"
#include "errors.hh"
#include "pesim/engine.hpp"

namespace pesim::addon {

namespace {

Napi::Int32Array int32Array(const Args& args, const Napi::Value& value, const char* field) {
  if (!value.IsTypedArray() || value.As<Napi::TypedArray>().TypedArrayType() != napi_int32_array) {
    args.expected(field, "an Int32Array");
  }
  return value.As<Napi::Int32Array>();
}

// The parameters of item `index` of list `list`, or nullptr when there is no such item.
ParameterSet* parametersOf(Netlist& netlist, std::int32_t list, std::int32_t index) {
  if (index < 0) return nullptr;
  const auto at = static_cast<std::size_t>(index);
  switch (list) {
    case 0: return at < netlist.elements.size() ? &netlist.elements[at].params : nullptr;
    case 1: return at < netlist.blocks.size() ? &netlist.blocks[at].params : nullptr;
    case 2: return at < netlist.thermal.size() ? &netlist.thermal[at].params : nullptr;
    default: return nullptr;
  }
}

// A parameter set for one check, and what it held before (put back after the check).
struct Assigned {
  ParameterSet* set;
  const std::string* name;
  bool had;
  double before;
};

void restore(std::vector<Assigned>& assigned) {
  for (auto it = assigned.rbegin(); it != assigned.rend(); ++it) {
    if (it->had) it->set->numbers[*it->name] = it->before;
    else it->set->numbers.erase(*it->name);
  }
  assigned.clear();
}

}  // namespace

Napi::Value CheckMany(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Netlist netlist = toNetlist(info[0]);
  const Args args(env, "NETLIST_INVALID");
  const std::vector<std::string> names = args.strings(info[1], "names");
  const Napi::Int32Array counts = int32Array(args, info[2], "counts");
  const Napi::Int32Array lists = int32Array(args, info[3], "lists");
  const Napi::Int32Array items = int32Array(args, info[4], "items");
  const Napi::Int32Array nameIds = int32Array(args, info[5], "nameIds");
  const Napi::Float64Array values = args.float64Array(info[6], "values");
  const std::size_t total = lists.ElementLength();
  if (items.ElementLength() != total || nameIds.ElementLength() != total || values.ElementLength() != total) {
    args.invalid("items", "lists, items, nameIds and values must have the same length");
  }
  std::vector<Assigned> assigned;
  std::size_t next = 0;
  for (std::size_t k = 0; k < counts.ElementLength(); ++k) {
    const std::int32_t count = counts[k];
    if (count < 0 || next + static_cast<std::size_t>(count) > total) args.invalid(Args::indexed("counts", k), "counts exceed the assignments given");
    for (std::int32_t a = 0; a < count; ++a, ++next) {
      ParameterSet* set = parametersOf(netlist, lists[next], items[next]);
      if (set == nullptr) args.invalid(Args::indexed("items", next), "no such item in its list");
      const std::int32_t id = nameIds[next];
      if (id < 0 || static_cast<std::size_t>(id) >= names.size()) args.invalid(Args::indexed("nameIds", next), "not an index of names");
      const std::string& name = names[static_cast<std::size_t>(id)];
      const auto found = set->numbers.find(name);
      assigned.push_back({set, &name, found != set->numbers.end(), found != set->numbers.end() ? found->second : 0.0});
      set->numbers[name] = values[next];
    }
    bool refused = false;
    try {
      validate(netlist);
    } catch (...) {
      refused = true;  // the caller checks this set again on its own for the error
    }
    restore(assigned);
    if (refused) return Napi::Number::New(env, static_cast<double>(k));
  }
  return Napi::Number::New(env, -1);
}

}  // namespace pesim::addon

// Parameter assignments as typed arrays (assignments.hh).
#include "assignments.hh"

#include <cstdint>

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

}  // namespace

AssignmentArrays readAssignments(const Args& args, const Napi::Value& names, const Napi::Value& lists, const Napi::Value& items,
                                 const Napi::Value& nameIds, const Napi::Value& values) {
  AssignmentArrays arrays;
  arrays.names = args.strings(names, "names");
  arrays.lists = int32Array(args, lists, "lists");
  arrays.items = int32Array(args, items, "items");
  arrays.nameIds = int32Array(args, nameIds, "nameIds");
  arrays.values = args.float64Array(values, "values");
  const std::size_t total = arrays.size();
  if (arrays.items.ElementLength() != total || arrays.nameIds.ElementLength() != total || arrays.values.ElementLength() != total) {
    args.invalid("items", "lists, items, nameIds and values must have the same length");
  }
  return arrays;
}

void AppliedAssignments::apply(const Args& args, const AssignmentArrays& arrays, std::size_t from, std::size_t count) {
  for (std::size_t i = from; i < from + count; ++i) {
    ParameterSet* set = parametersOf(netlist_, arrays.lists[i], arrays.items[i]);
    if (set == nullptr) args.invalid(Args::indexed("items", i), "no such item in its list");
    const std::int32_t id = arrays.nameIds[i];
    if (id < 0 || static_cast<std::size_t>(id) >= arrays.names.size()) args.invalid(Args::indexed("nameIds", i), "not an index of names");
    const std::string& name = arrays.names[static_cast<std::size_t>(id)];
    const auto found = set->numbers.find(name);
    assigned_.push_back({set, &name, found != set->numbers.end(), found != set->numbers.end() ? found->second : 0.0});
    set->numbers[name] = arrays.values[i];
  }
}

void AppliedAssignments::restore() {
  for (auto it = assigned_.rbegin(); it != assigned_.rend(); ++it) {
    if (it->had) it->set->numbers[*it->name] = it->before;
    else it->set->numbers.erase(*it->name);
  }
  assigned_.clear();
}

}  // namespace pesim::addon

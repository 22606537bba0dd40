// The one set of argument readers of the addon's entry points (simulate, validate, analysis and the
// Parquet encoder): each checks the shape of a JavaScript value and, when it is wrong, throws a
// TypeError carrying the entry point's `code` (NETLIST_INVALID, ANALYSIS_INVALID, ENCODE_INVALID)
// and the `field` at fault, with the message "<field> must be <what was expected>".
#pragma once

#include <napi.h>

#include <cstddef>
#include <string>
#include <vector>

namespace pesim::addon {

class Args {
 public:
  Args(Napi::Env env, const char* code) : env_(env), code_(code) {}

  // A TypeError with this reader's code, `field`, and `message` as it is.
  [[noreturn]] void invalid(const std::string& field, const std::string& message) const;
  // "<field> must be <what>".
  [[noreturn]] void expected(const std::string& field, const std::string& what) const;

  Napi::Object object(const Napi::Value& value, const std::string& field) const;
  Napi::Array array(const Napi::Value& value, const std::string& field, const std::string& of) const;
  std::string string(const Napi::Value& value, const std::string& field) const;
  double number(const Napi::Value& value, const std::string& field) const;
  bool boolean(const Napi::Value& value, const std::string& field) const;
  Napi::Float64Array float64Array(const Napi::Value& value, const std::string& field) const;
  // An array of strings; undefined reads as none.
  std::vector<std::string> strings(const Napi::Value& value, const std::string& field) const;

  static std::string indexed(const std::string& field, std::size_t i);

 private:
  Napi::Env env_;
  const char* code_;
};

// The readers of netlist input (simulate, validate): code NETLIST_INVALID.
inline Args netlistArgs(const Napi::Value& value) { return Args(value.Env(), "NETLIST_INVALID"); }

}  // namespace pesim::addon

// Argument readers of the addon's entry points (see args.hh).
#include "args.hh"

namespace pesim::addon {

void Args::invalid(const std::string& field, const std::string& message) const {
  Napi::Error js = Napi::TypeError::New(env_, message);
  js.Value().Set("code", code_);
  js.Value().Set("field", field);
  throw js;
}

void Args::expected(const std::string& field, const std::string& what) const { invalid(field, field + " must be " + what); }

Napi::Object Args::object(const Napi::Value& value, const std::string& field) const {
  if (!value.IsObject() || value.IsArray() || value.IsFunction()) expected(field, "an object");
  return value.As<Napi::Object>();
}

Napi::Array Args::array(const Napi::Value& value, const std::string& field, const std::string& of) const {
  if (!value.IsArray()) expected(field, "an array of " + of);
  return value.As<Napi::Array>();
}

std::string Args::string(const Napi::Value& value, const std::string& field) const {
  if (!value.IsString()) expected(field, "a string");
  return value.As<Napi::String>().Utf8Value();  // keeps embedded NUL characters
}

double Args::number(const Napi::Value& value, const std::string& field) const {
  if (!value.IsNumber()) expected(field, "a number");
  return value.As<Napi::Number>().DoubleValue();
}

bool Args::boolean(const Napi::Value& value, const std::string& field) const {
  if (!value.IsBoolean()) expected(field, "a boolean");
  return value.As<Napi::Boolean>().Value();
}

Napi::Float64Array Args::float64Array(const Napi::Value& value, const std::string& field) const {
  if (!value.IsTypedArray() || value.As<Napi::TypedArray>().TypedArrayType() != napi_float64_array) {
    expected(field, "a Float64Array");
  }
  return value.As<Napi::Float64Array>();
}

std::vector<std::string> Args::strings(const Napi::Value& value, const std::string& field) const {
  std::vector<std::string> out;
  if (value.IsUndefined()) return out;
  const Napi::Array list = array(value, field, "strings");
  out.reserve(list.Length());
  for (uint32_t i = 0; i < list.Length(); ++i) out.push_back(string(list.Get(i), indexed(field, i)));
  return out;
}

std::string Args::indexed(const std::string& field, std::size_t i) { return field + "[" + std::to_string(i) + "]"; }

}  // namespace pesim::addon

// columnChecksum (see checksum.hh).
#include "checksum.hh"

#include "errors.hh"
#include "pesim/checksum.hpp"
#include "pesim/errors.hpp"

namespace pesim::addon {

Napi::Value ColumnChecksum(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  try {
    if (info.Length() < 1 || !info[0].IsTypedArray() || info[0].As<Napi::TypedArray>().TypedArrayType() != napi_float64_array) {
      throw InputError(ErrorCode::EncodeInvalid, "values", "values must be a Float64Array");
    }
    const Napi::Float64Array values = info[0].As<Napi::Float64Array>();
    return Napi::Number::New(env, checksum::columnCrc32(values.Data(), values.ElementLength()));
  } catch (const Napi::Error&) {
    throw;
  } catch (...) {
    throw toJsError(env, capture(std::current_exception()));
  }
}

}  // namespace pesim::addon

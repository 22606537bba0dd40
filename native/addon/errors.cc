// C++ exception → JavaScript error translation (see errors.hh).
#include "errors.hh"

#include <new>

namespace pesim::addon {

CapturedError capture(const std::exception_ptr& failure) {
  CapturedError out;
  try {
    std::rethrow_exception(failure);
  } catch (const ParameterError& e) {
    out = {errorCodeName(e.code()), e.what(), e.element(), "", e.time(), e.parameter()};
  } catch (const InputError& e) {
    out = {errorCodeName(e.code()), e.what(), "", "", std::nan(""), e.field()};
  } catch (const Error& e) {
    out = {errorCodeName(e.code()), e.what(), e.element(), e.node(), e.time(), ""};
  } catch (const std::bad_alloc&) {
    out = {"OUT_OF_MEMORY", "the engine ran out of memory", "", "", std::nan(""), ""};
  } catch (const Napi::Error& e) {
    out = {"NETLIST_INVALID", e.Message(), "", "", std::nan(""), ""};
  } catch (const std::exception& e) {
    out = {"ENGINE_ERROR", e.what(), "", "", std::nan(""), ""};
  } catch (...) {
    out = {"ENGINE_ERROR", "unknown engine failure", "", "", std::nan(""), ""};
  }
  return out;
}

Napi::Error toJsError(Napi::Env env, const CapturedError& error) {
  Napi::Error js = Napi::Error::New(env, error.message);
  Napi::Object object = js.Value();
  object.Set("code", error.code);
  if (!error.element.empty()) object.Set("element", error.element);
  if (!error.node.empty()) object.Set("node", error.node);
  if (!std::isnan(error.time)) object.Set("time", error.time);
  if (!error.field.empty()) object.Set("field", error.field);
  return js;
}

}  // namespace pesim::addon

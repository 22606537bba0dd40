// `scriptSession(options)`: scripts of `pesim script` on the engine's Java (see script.cc).
#pragma once

#include <napi.h>

namespace pesim::addon {

Napi::Value ScriptSession(const Napi::CallbackInfo& info);

}  // namespace pesim::addon

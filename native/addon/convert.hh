// JavaScript values ⇄ engine structs. Every shape error names the field at fault.
#pragma once

#include <napi.h>

#include "pesim/engine.hpp"

namespace pesim::addon {

Netlist toNetlist(const Napi::Value& value);
Napi::Object fromResult(Napi::Env env, const Result& result);
Napi::Array fromWarnings(Napi::Env env, const std::vector<std::string>& warnings);

}  // namespace pesim::addon

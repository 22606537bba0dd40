// JavaScript values ⇄ engine structs. Every shape error names the field at fault.
#pragma once

#include <napi.h>

#include "pesim/engine.hpp"

namespace pesim::addon {

Netlist toNetlist(const Napi::Value& value);
// `samples`: the arrays the run wrote into (RunControl::sampleStorage: time, then each channel),
// used instead of copying result.time and the channels' values.
Napi::Object fromResult(Napi::Env env, const Result& result,
                        const std::vector<Napi::Float64Array>* samples = nullptr);
Napi::Array fromWarnings(Napi::Env env, const std::vector<std::string>& warnings);

}  // namespace pesim::addon

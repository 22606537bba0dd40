// JavaScript values ⇄ engine structs. Every shape error names the field at fault.
#pragma once

#include <napi.h>

#include <map>
#include <string>
#include <vector>

#include "pesim/engine.hpp"

namespace pesim::addon {

Netlist toNetlist(const Napi::Value& value);
// `samples`: the arrays the run wrote into (RunControl::sampleStorage: time, then each channel),
// used instead of copying result.time and the channels' values.
Napi::Object fromResult(Napi::Env env, const Result& result,
                        const std::vector<Napi::Float64Array>* samples = nullptr);
// The netlist's `lossModels` (undefined: none) and the run's device loss summaries
// (convert_losses.cc).
std::map<std::string, LossModelSpec> toLossModels(const Napi::Value& value);
Napi::Array fromLosses(Napi::Env env, const std::vector<DeviceLossSummary>& losses);
// The spectra of the CISPR16 blocks (convert_receivers.cc).
Napi::Array fromReceivers(Napi::Env env, const std::vector<ReceiverResult>& receivers);
Napi::Array fromWarnings(Napi::Env env, const std::vector<std::string>& warnings);

}  // namespace pesim::addon

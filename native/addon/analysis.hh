// Signal-analysis entry points of the addon: characteristics, fourier, rms and spectrum, each as a
// *Sync function (runs on the calling thread: for worker threads) and an *Async one (runs on the
// libuv thread pool and returns a Promise). Data must be a Float64Array; it is read in place, so
// the caller must not modify it until an async call settles.
#pragma once

#include <napi.h>

namespace pesim::addon {

Napi::Value CharacteristicsSync(const Napi::CallbackInfo& info);
Napi::Value CharacteristicsAsync(const Napi::CallbackInfo& info);
Napi::Value FourierSync(const Napi::CallbackInfo& info);
Napi::Value FourierAsync(const Napi::CallbackInfo& info);
Napi::Value RmsSync(const Napi::CallbackInfo& info);
Napi::Value RmsAsync(const Napi::CallbackInfo& info);
Napi::Value SpectrumSync(const Napi::CallbackInfo& info);
Napi::Value SpectrumAsync(const Napi::CallbackInfo& info);

}  // namespace pesim::addon

namespace pesim::addon {

// Adds the functions above to the module exports.
inline void registerAnalysis(Napi::Env env, Napi::Object exports) {
  exports.Set("characteristicsSync", Napi::Function::New(env, CharacteristicsSync, "characteristicsSync"));
  exports.Set("characteristicsAsync", Napi::Function::New(env, CharacteristicsAsync, "characteristicsAsync"));
  exports.Set("fourierSync", Napi::Function::New(env, FourierSync, "fourierSync"));
  exports.Set("fourierAsync", Napi::Function::New(env, FourierAsync, "fourierAsync"));
  exports.Set("rmsSync", Napi::Function::New(env, RmsSync, "rmsSync"));
  exports.Set("rmsAsync", Napi::Function::New(env, RmsAsync, "rmsAsync"));
  exports.Set("spectrumSync", Napi::Function::New(env, SpectrumSync, "spectrumSync"));
  exports.Set("spectrumAsync", Napi::Function::New(env, SpectrumAsync, "spectrumAsync"));
}

}  // namespace pesim::addon

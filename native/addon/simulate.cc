// Run entry points of the addon (see simulate.hh).
#include "simulate.hh"

#include "convert.hh"
#include "errors.hh"
#include "promise_worker.hh"
#include "pesim/engine.hpp"

namespace pesim::addon {

namespace {

// Reads the optional control object; the typed arrays must outlive the run (the caller keeps them).
RunControl toRunControl(const Napi::Value& value) {
  RunControl control;
  if (value.IsUndefined() || value.IsNull()) return control;
  if (!value.IsObject()) throwInvalid(value.Env(), "control", "an object");
  Napi::Object o = value.As<Napi::Object>();
  Napi::Value flags = o.Get("flags");
  if (!flags.IsUndefined()) {
    if (!flags.IsTypedArray() || flags.As<Napi::TypedArray>().TypedArrayType() != napi_int32_array ||
        flags.As<Napi::Int32Array>().ElementLength() < kFlagCount) {
      throwInvalid(value.Env(), "control.flags", "an Int32Array of at least 2 elements");
    }
    control.flags = flags.As<Napi::Int32Array>().Data();
  }
  Napi::Value progress = o.Get("progress");
  if (!progress.IsUndefined()) {
    if (!progress.IsTypedArray() || progress.As<Napi::TypedArray>().TypedArrayType() != napi_float64_array ||
        progress.As<Napi::Float64Array>().ElementLength() < kProgressCount) {
      throwInvalid(value.Env(), "control.progress", "a Float64Array of at least 5 elements");
    }
    control.progress = progress.As<Napi::Float64Array>().Data();
  }
  return control;
}

class SimulationWorker : public PromiseWorker<Result> {
 public:
  SimulationWorker(Napi::Env env, Netlist netlist, RunControl control, Napi::Value controlObject)
      : PromiseWorker<Result>(env, "pesim.simulate"), netlist_(std::move(netlist)), control_(control) {
    if (controlObject.IsObject()) controlRef_ = Napi::Persistent(controlObject.As<Napi::Object>());
  }

 protected:
  Result compute() override { return simulate(netlist_, control_); }
  Napi::Value resolve(Napi::Env env, Result& result) override { return fromResult(env, result); }

 private:
  Netlist netlist_;
  RunControl control_;
  Napi::ObjectReference controlRef_;  // keeps the shared buffers alive during the run
};

}  // namespace

Napi::Value SimulateSync(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Netlist netlist = toNetlist(info[0]);
  RunControl control = toRunControl(info[1]);
  // On the JS thread the run records straight into the Float64Arrays of the result.
  std::vector<Napi::Float64Array> samples;
  control.sampleStorage = [&samples, env](std::size_t array, std::size_t points) {
    if (samples.size() <= array) samples.resize(array + 1);
    samples[array] = Napi::Float64Array::New(env, points);
    return samples[array].Data();
  };
  Result result;
  try {
    result = simulate(netlist, control);
  } catch (...) {
    throw toJsError(env, capture(std::current_exception()));
  }
  return fromResult(env, result, samples.empty() ? nullptr : &samples);
}

Napi::Value SimulateAsync(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Netlist netlist = toNetlist(info[0]);
  RunControl control = toRunControl(info[1]);
  auto* worker = new SimulationWorker(env, std::move(netlist), control, info[1]);  // owned by libuv
  Napi::Promise promise = worker->promise();
  worker->Queue();
  return promise;
}

Napi::Value Validate(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Netlist netlist = toNetlist(info[0]);
  try {
    return fromWarnings(env, validate(netlist));
  } catch (...) {
    throw toJsError(env, capture(std::current_exception()));
  }
}

}  // namespace pesim::addon

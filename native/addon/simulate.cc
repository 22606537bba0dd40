// Run entry points of the addon (see simulate.hh).
#include "simulate.hh"

#include "convert.hh"
#include "errors.hh"
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

class SimulationWorker : public Napi::AsyncWorker {
 public:
  SimulationWorker(Napi::Env env, Netlist netlist, RunControl control, Napi::Value controlObject)
      : Napi::AsyncWorker(env, "pesim.simulate"),
        deferred_(Napi::Promise::Deferred::New(env)),
        netlist_(std::move(netlist)),
        control_(control) {
    if (controlObject.IsObject()) controlRef_ = Napi::Persistent(controlObject.As<Napi::Object>());
  }

  Napi::Promise promise() const { return deferred_.Promise(); }

  void Execute() override {
    try {
      result_ = simulate(netlist_, control_);
    } catch (...) {
      error_ = capture(std::current_exception());
      failed_ = true;
    }
  }

  void OnOK() override {
    Napi::Env env = Env();
    Napi::HandleScope scope(env);
    if (failed_) {
      deferred_.Reject(toJsError(env, error_).Value());
      return;
    }
    try {
      deferred_.Resolve(fromResult(env, result_));
    } catch (const Napi::Error& e) {
      deferred_.Reject(e.Value());
    }
  }

  void OnError(const Napi::Error& e) override { deferred_.Reject(e.Value()); }

 private:
  Napi::Promise::Deferred deferred_;
  Netlist netlist_;
  RunControl control_;
  Napi::ObjectReference controlRef_;  // keeps the shared buffers alive during the run
  Result result_;
  CapturedError error_;
  bool failed_ = false;
};

}  // namespace

Napi::Value SimulateSync(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Netlist netlist = toNetlist(info[0]);
  RunControl control = toRunControl(info[1]);
  Result result;
  try {
    result = simulate(netlist, control);
  } catch (...) {
    throw toJsError(env, capture(std::current_exception()));
  }
  return fromResult(env, result);
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

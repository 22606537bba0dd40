// Run entry points of the addon (see simulate.hh).
#include "simulate.hh"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "convert.hh"
#include "args.hh"
#include "errors.hh"
#include "promise_worker.hh"
#include "sample_pages.hh"
#include "pesim/engine.hpp"

namespace pesim::addon {

namespace {

// Reads the optional control object; the typed arrays must outlive the run (the caller keeps them).
RunControl toRunControl(const Napi::Value& value) {
  RunControl control;
  if (value.IsUndefined() || value.IsNull()) return control;
  if (!value.IsObject()) netlistArgs(value).expected("control", "an object");
  Napi::Object o = value.As<Napi::Object>();
  Napi::Value flags = o.Get("flags");
  if (!flags.IsUndefined()) {
    if (!flags.IsTypedArray() || flags.As<Napi::TypedArray>().TypedArrayType() != napi_int32_array ||
        flags.As<Napi::Int32Array>().ElementLength() < kFlagCount) {
      netlistArgs(value).expected("control.flags", "an Int32Array of at least 2 elements");
    }
    control.flags = flags.As<Napi::Int32Array>().Data();
  }
  Napi::Value progress = o.Get("progress");
  if (!progress.IsUndefined()) {
    if (!progress.IsTypedArray() || progress.As<Napi::TypedArray>().TypedArrayType() != napi_float64_array ||
        progress.As<Napi::Float64Array>().ElementLength() < kProgressCount) {
      netlistArgs(value).expected("control.progress", "a Float64Array of at least 5 elements");
    }
    control.progress = progress.As<Napi::Float64Array>().Data();
  }
  return control;
}

// ArrayBuffers of an earlier result that its owner will not read again (a worker thread that has
// written that result to a file), offered for the next run's samples. Each buffer is used at most
// once, whole arrays only, so two channels never share memory; the sample arrays need 8-byte
// alignment, which an ArrayBuffer's start has.
class ReusableMemory {
 public:
  void offer(Napi::ArrayBuffer buffer) {
    if (buffer.ByteLength() == 0) return;  // detached (transferred away) or empty
    for (Napi::ArrayBuffer& known : buffers_) {
      if (known.Data() == buffer.Data()) return;  // offered twice
    }
    buffers_.push_back(buffer);
    taken_.push_back(false);
  }

  // The smallest free buffer of at least `bytes` bytes, or nullptr.
  Napi::ArrayBuffer* take(std::size_t bytes) {
    std::size_t best = buffers_.size();
    for (std::size_t i = 0; i < buffers_.size(); ++i) {
      if (taken_[i] || buffers_[i].ByteLength() < bytes) continue;
      if (best == buffers_.size() || buffers_[i].ByteLength() < buffers_[best].ByteLength()) best = i;
    }
    if (best == buffers_.size()) return nullptr;
    taken_[best] = true;
    return &buffers_[best];
  }

 private:
  std::vector<Napi::ArrayBuffer> buffers_;
  std::vector<bool> taken_;
};

// The optional third argument of simulateSync: an array of Float64Arrays whose memory may be
// reused (their contents are overwritten; the caller must not read them afterwards).
ReusableMemory toReusableMemory(const Napi::Value& value) {
  ReusableMemory memory;
  if (value.IsUndefined() || value.IsNull()) return memory;
  if (!value.IsArray()) netlistArgs(value).expected("reuse", "an array of Float64Array");
  const Napi::Array list = value.As<Napi::Array>();
  for (uint32_t i = 0; i < list.Length(); ++i) {
    const Napi::Value item = list.Get(i);
    if (!item.IsTypedArray() || item.As<Napi::TypedArray>().TypedArrayType() != napi_float64_array) {
      netlistArgs(value).expected("reuse[" + std::to_string(i) + "]", "a Float64Array");
    }
    const Napi::Value buffer = item.As<Napi::TypedArray>().ArrayBuffer();
    if (buffer.IsArrayBuffer()) memory.offer(buffer.As<Napi::ArrayBuffer>());  // never a SharedArrayBuffer
  }
  return memory;
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

// The steady-state options; every field optional (undefined: the default).
SteadyOptions toSteadyOptions(const Napi::Value& value) {
  SteadyOptions options;
  if (value.IsUndefined() || value.IsNull()) return options;
  const Args args = netlistArgs(value);
  Napi::Object o = args.object(value, "steady");
  auto number = [&](const char* key, double fallback) {
    Napi::Value v = o.Get(key);
    return v.IsUndefined() ? fallback : args.number(v, std::string("steady.") + key);
  };
  options.period = number("period", options.period);
  options.tolerance = number("tolerance", options.tolerance);
  options.maxIterations = static_cast<int>(number("maxIterations", options.maxIterations));
  options.maxPeriods = static_cast<long>(number("maxPeriods", static_cast<double>(options.maxPeriods)));
  Napi::Value temperatures = o.Get("temperatures");
  if (!temperatures.IsUndefined()) options.temperatures = args.boolean(temperatures, "steady.temperatures");
  options.initPeriods = static_cast<long>(number("initPeriods", static_cast<double>(options.initPeriods)));
  options.perturbation = number("perturbation", options.perturbation);
  Napi::Value jacobian = o.Get("jacobian");
  if (!jacobian.IsUndefined()) {
    const std::string how = args.string(jacobian, "steady.jacobian");
    if (how != "fast" && how != "full") args.expected("steady.jacobian", "\"fast\" or \"full\"");
    options.jacobian = how == "full" ? SteadyJacobian::Full : SteadyJacobian::Fast;
  }
  return options;
}

class SteadyWorker final : public PromiseWorker<Result> {
 public:
  SteadyWorker(Napi::Env env, Netlist netlist, SteadyOptions options, RunControl control, const Napi::Value& controlValue)
      : PromiseWorker(env, "pesim.steady"), netlist_(std::move(netlist)), options_(options), control_(control) {
    if (controlValue.IsObject()) controlRef_ = Napi::Persistent(controlValue.As<Napi::Object>());
  }

 protected:
  Result compute() override { return steadyState(netlist_, options_, control_); }
  Napi::Value resolve(Napi::Env env, Result& result) override { return fromResult(env, result); }

 private:
  Netlist netlist_;
  SteadyOptions options_;
  RunControl control_;
  Napi::ObjectReference controlRef_;
};

}  // namespace

Napi::Value SteadySync(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Netlist netlist = toNetlist(info[0]);
  SteadyOptions options = toSteadyOptions(info[1]);
  RunControl control = toRunControl(info[2]);
  try {
    return fromResult(env, steadyState(netlist, options, control));
  } catch (...) {
    throw toJsError(env, capture(std::current_exception()));
  }
}

Napi::Value SteadyAsync(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Netlist netlist = toNetlist(info[0]);
  SteadyOptions options = toSteadyOptions(info[1]);
  RunControl control = toRunControl(info[2]);
  auto* worker = new SteadyWorker(env, std::move(netlist), options, control, info[2]);  // owned by libuv
  Napi::Promise promise = worker->promise();
  worker->Queue();
  return promise;
}

Napi::Value SimulateSync(const Napi::CallbackInfo& info) {
  const Netlist netlist = toNetlist(info[0]);
  return simulateOnThisThread(info.Env(), netlist, info[1], info[2]);
}

Napi::Value simulateOnThisThread(Napi::Env env, const Netlist& netlist, const Napi::Value& controlArgument, const Napi::Value& reuse) {
  RunControl control = toRunControl(controlArgument);
  ReusableMemory reusable = toReusableMemory(reuse);
  // On the JS thread the run records straight into the Float64Arrays of the result: over memory
  // the caller hands back for reuse where it is large enough, else over a fresh Node Buffer,
  // which Node allocates without zero-filling (a Float64Array of its own would be cleared first:
  // a pass over every sample page for values the recorder overwrites anyway).
  std::vector<Napi::Float64Array> samples;
  SamplePages pages;
  control.sampleStorage = [&samples, &pages, &reusable, env](std::size_t array, std::size_t points) {
    if (samples.size() <= array) samples.resize(array + 1);
    const std::size_t bytes = points * sizeof(double);
    if (Napi::ArrayBuffer* memory = reusable.take(bytes)) {
      samples[array] = Napi::Float64Array::New(env, points, *memory, 0);
      return samples[array].Data();  // mapped already: no pages to fault in
    }
    Napi::Buffer<uint8_t> fresh = Napi::Buffer<uint8_t>::New(env, bytes);
    samples[array] = Napi::Float64Array::New(env, points, fresh.ArrayBuffer(), fresh.ByteOffset());
    pages.add(samples[array].Data(), points);
    return samples[array].Data();
  };
  Result result;
  try {
    result = simulate(netlist, control);
  } catch (...) {
    pages.finish();
    throw toJsError(env, capture(std::current_exception()));
  }
  pages.finish();
  // Points a run did not reach are never left uninitialised (a completed run reaches them all).
  for (Napi::Float64Array& array : samples) {
    if (result.points < array.ElementLength()) std::fill(array.Data() + result.points, array.Data() + array.ElementLength(), 0.0);
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

Napi::Value UnusedParameters(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Netlist netlist = toNetlist(info[0]);
  try {
    std::vector<UnusedParameter> unused = unusedParameters(netlist);
    Napi::Array out = Napi::Array::New(env, unused.size());
    for (uint32_t i = 0; i < unused.size(); ++i) {
      Napi::Object item = Napi::Object::New(env);
      item.Set("owner", unused[i].owner);
      item.Set("type", unused[i].type);
      item.Set("key", unused[i].key);
      Napi::Array asked = Napi::Array::New(env, unused[i].asked.size());
      for (uint32_t k = 0; k < unused[i].asked.size(); ++k) asked.Set(k, unused[i].asked[k]);
      item.Set("asked", asked);
      out.Set(i, item);
    }
    return out;
  } catch (...) {
    throw toJsError(env, capture(std::current_exception()));
  }
}

}  // namespace pesim::addon

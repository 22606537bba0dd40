// Signal-analysis entry points (see analysis.hh). Argument shape errors are pesim::InputError like
// the core's own checks, so both reach JavaScript through errors.cc with code ANALYSIS_INVALID and
// the field at fault. The spectrum writes straight into the Float64Array it returns and takes its
// FFT plans from a SpectrumPlans cache owned by the Node environment (instance data: one per
// main or worker thread, shared with that environment's pool jobs by reference count).
#include "analysis.hh"

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include <cmath>
#include <complex>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

#include "args.hh"
#include "errors.hh"
#include "promise_worker.hh"
#include "pesim/analysis.hpp"
#include "pesim/errors.hpp"
#include "pesim/spectrum.hpp"

namespace pesim::addon {

namespace {

Args analysisArgs(const Napi::CallbackInfo& info) { return Args(info.Env(), "ANALYSIS_INVALID"); }

// The arguments of one call, read on the main thread.
struct Request {
  Napi::Float64Array array;
  const double* data = nullptr;
  std::size_t size = 0;
  double sampleRate = 0.0;
  std::optional<double> baseFrequency;
  int harmonics = analysis::kDefaultHarmonics;
};

void readData(const Napi::CallbackInfo& info, Request& request) {
  request.array = analysisArgs(info).float64Array(info[0], "data");
  request.data = request.array.Data();
  request.size = request.array.ElementLength();
}

// (data, sampleRate, baseFrequency?, harmonics?)
Request readRequest(const Napi::CallbackInfo& info, bool withRate, bool withHarmonics) {
  Request request;
  readData(info, request);
  if (!withRate) return request;
  const Args args = analysisArgs(info);
  request.sampleRate = args.number(info[1], "sampleRate");
  if (!info[2].IsUndefined() && !info[2].IsNull()) request.baseFrequency = args.number(info[2], "baseFrequency");
  if (withHarmonics && !info[3].IsUndefined() && !info[3].IsNull()) {
    const double h = args.number(info[3], "harmonics");
    if (!(h >= 1 && h <= analysis::kMaxHarmonics) || std::floor(h) != h) {
      args.expected("harmonics", "an integer from 1 to " + std::to_string(analysis::kMaxHarmonics));
    }
    request.harmonics = static_cast<int>(h);
  }
  return request;
}

Napi::Value toJs(Napi::Env env, const analysis::Characteristics& c) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("average", c.average);
  o.Set("rms", c.rms);
  o.Set("thd", c.thd);
  o.Set("min", c.min);
  o.Set("max", c.max);
  o.Set("peakToPeak", c.peakToPeak);
  o.Set("ripple", c.ripple);
  o.Set("klirr", c.klirr);
  o.Set("shapeFactor", c.shapeFactor);
  o.Set("sampleCount", static_cast<double>(c.sampleCount));
  o.Set("baseFrequency", c.baseFrequency);
  return o;
}

Napi::Array toJsArray(Napi::Env env, const std::vector<double>& values) {
  Napi::Array array = Napi::Array::New(env, values.size());
  for (std::size_t i = 0; i < values.size(); ++i) array.Set(static_cast<uint32_t>(i), values[i]);
  return array;
}

Napi::Value toJs(Napi::Env env, const analysis::FourierResult& f) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("baseFrequency", f.baseFrequency);
  o.Set("harmonics", f.harmonics);
  o.Set("dcComponent", f.dcComponent);
  o.Set("fundamentalAmplitude", f.fundamentalAmplitude);
  o.Set("fundamentalPhaseDegrees", f.fundamentalPhaseDegrees);
  o.Set("cnAmplitudes", toJsArray(env, f.amplitudes));
  o.Set("jnPhases", toJsArray(env, f.phasesDegrees));
  o.Set("periods", static_cast<double>(f.periods));
  o.Set("windowSamples", static_cast<double>(f.windowSamples));
  return o;
}

Napi::Value toJs(Napi::Env env, const double& value) { return Napi::Number::New(env, value); }

template <typename Result>
class AnalysisWorker : public PromiseWorker<Result> {
 public:
  AnalysisWorker(Napi::Env env, const Napi::Float64Array& data, std::function<Result()> compute)
      : PromiseWorker<Result>(env, "pesim.analysis"),
        data_(Napi::Persistent(data)),  // keeps the samples alive while the pool thread reads them
        compute_(std::move(compute)) {}

 protected:
  Result compute() override { return compute_(); }
  Napi::Value resolve(Napi::Env env, Result& result) override { return toJs(env, result); }

 private:
  Napi::Reference<Napi::Float64Array> data_;
  std::function<Result()> compute_;
};

// Reads the arguments, then runs `compute` here (sync) or on the pool (async).
template <typename Result>
Napi::Value dispatch(const Napi::CallbackInfo& info, bool async, bool withRate, bool withHarmonics,
                     std::function<Result(const Request&)> compute) {
  Napi::Env env = info.Env();
  Request request;
  try {
    request = readRequest(info, withRate, withHarmonics);
  } catch (const Napi::Error&) {
    throw;  // an argument of the wrong shape, already a JS error with code and field
  } catch (...) {
    throw toJsError(env, capture(std::current_exception()));
  }
  if (!async) {
    try {
      return toJs(env, compute(request));
    } catch (const Napi::Error&) {
      throw;
    } catch (...) {
      throw toJsError(env, capture(std::current_exception()));
    }
  }
  Napi::Float64Array array = request.array;
  Request plain = request;
  plain.array = Napi::Float64Array();  // the worker touches only the raw pointer, off the main thread
  auto* worker = new AnalysisWorker<Result>(env, array, [plain, compute]() { return compute(plain); });  // owned by libuv
  Napi::Promise promise = worker->promise();
  worker->Queue();
  return promise;
}

analysis::Characteristics runCharacteristics(const Request& r) {
  return analysis::characteristics(r.data, r.size, r.sampleRate, r.baseFrequency);
}
analysis::FourierResult runFourier(const Request& r) {
  return analysis::fourier(r.data, r.size, r.sampleRate, r.baseFrequency, r.harmonics);
}
double runRms(const Request& r) { return analysis::rms(r.data, r.size); }

// The environment's plan cache: at most 4 sizes and 256 MB of tables (1 M points: ~12 MB).
struct AnalysisInstance {
  std::shared_ptr<analysis::SpectrumPlans> plans = std::make_shared<analysis::SpectrumPlans>();
};

std::shared_ptr<analysis::SpectrumPlans> spectrumPlans(Napi::Env env) {
  auto* instance = env.GetInstanceData<AnalysisInstance>();
  if (instance == nullptr) {
    instance = new AnalysisInstance();
    env.SetInstanceData(instance);  // deleted by Node when the environment goes away
  }
  return instance->plans;
}

// Outputs of megabytes are fresh pages, and faulting them in 4 KiB at a time cost about a third
// of a 1 M-point transform; asking for transparent huge pages over the 2 MiB-aligned interior
// (honoured when the kernel's THP mode is "always" or "madvise") makes that one fault per 2 MiB.
// Only a hint about memory this call just allocated: contents are unchanged, failure is harmless.
void adviseHugePages(double* data, std::size_t count) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr std::uintptr_t huge = std::uintptr_t{1} << 21;
  const auto begin = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t lo = (begin + huge - 1) & ~(huge - 1);
  const std::uintptr_t hi = (begin + count * sizeof(double)) & ~(huge - 1);
  if (hi > lo) static_cast<void>(madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE));
#else
  static_cast<void>(data);
  static_cast<void>(count);
#endif
}

// Interleaved re, im of bins 0..N/2: the caller's array when it passed one (argument `out`, reused
// across calls as fft.js and FFTW users do: no allocation, no fresh pages), else allocated here
// (main thread) and filled in place.
Napi::Float64Array spectrumOutput(Napi::Env env, const Request& request, const Napi::Value& given) {
  const std::size_t length = 2 * (request.size / 2 + 1);
  if (!given.IsUndefined() && !given.IsNull()) {
    const Args args(env, "ANALYSIS_INVALID");
    const std::string wanted = "a Float64Array of 2·(⌊N/2⌋+1) = " + std::to_string(length) + " elements";
    if (!given.IsTypedArray() || given.As<Napi::TypedArray>().TypedArrayType() != napi_float64_array) args.expected("out", wanted);
    Napi::Float64Array out = given.As<Napi::Float64Array>();
    if (out.ElementLength() != length) args.expected("out", wanted);
    if (out.ArrayBuffer().Data() == request.array.ArrayBuffer().Data()) args.invalid("out", "out must not share memory with data");
    return out;
  }
  Napi::Float64Array out = Napi::Float64Array::New(env, length);
  adviseHugePages(out.Data(), out.ElementLength());
  return out;
}

void runSpectrumInto(const Request& request, double* out, analysis::SpectrumPlans& plans) {
  // One thread: splitting the large stages over a second one measured no gain on the shared
  // 2-core machine (the pool and other work keep both cores busy); see bench/analysis.ts.
  analysis::spectrumInto(request.data, request.size, reinterpret_cast<std::complex<double>*>(out), plans, 1);
}

// Writes the spectrum straight into the Float64Array it resolves with.
class SpectrumWorker : public PromiseWorker<bool> {
 public:
  SpectrumWorker(Napi::Env env, const Request& request, const Napi::Value& out,
                 std::shared_ptr<analysis::SpectrumPlans> plans)
      : PromiseWorker<bool>(env, "pesim.analysis"),
        data_(Napi::Persistent(request.array)),
        output_(Napi::Persistent(spectrumOutput(env, request, out))),
        out_(output_.Value().Data()),
        plans_(std::move(plans)) {
    request_ = request;
    request_.array = Napi::Float64Array();  // the pool thread touches only raw pointers
  }

 protected:
  bool compute() override {
    runSpectrumInto(request_, out_, *plans_);
    return true;
  }
  Napi::Value resolve(Napi::Env, bool&) override { return output_.Value(); }

 private:
  Napi::Reference<Napi::Float64Array> data_;    // keeps the samples alive while the pool reads them
  Napi::Reference<Napi::Float64Array> output_;  // and the result while the pool writes it
  double* out_;
  std::shared_ptr<analysis::SpectrumPlans> plans_;
  Request request_;
};

Request readSpectrumRequest(const Napi::CallbackInfo& info) {
  try {
    return readRequest(info, false, false);
  } catch (const Napi::Error&) {
    throw;  // an argument of the wrong shape, already a JS error with code and field
  } catch (...) {
    throw toJsError(info.Env(), capture(std::current_exception()));
  }
}

}  // namespace

Napi::Value CharacteristicsSync(const Napi::CallbackInfo& info) {
  return dispatch<analysis::Characteristics>(info, false, true, false, runCharacteristics);
}
Napi::Value CharacteristicsAsync(const Napi::CallbackInfo& info) {
  return dispatch<analysis::Characteristics>(info, true, true, false, runCharacteristics);
}
Napi::Value FourierSync(const Napi::CallbackInfo& info) {
  return dispatch<analysis::FourierResult>(info, false, true, true, runFourier);
}
Napi::Value FourierAsync(const Napi::CallbackInfo& info) {
  return dispatch<analysis::FourierResult>(info, true, true, true, runFourier);
}
Napi::Value RmsSync(const Napi::CallbackInfo& info) { return dispatch<double>(info, false, false, false, runRms); }
Napi::Value RmsAsync(const Napi::CallbackInfo& info) { return dispatch<double>(info, true, false, false, runRms); }
Napi::Value SpectrumSync(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const Request request = readSpectrumRequest(info);
  try {
    Napi::Float64Array out = spectrumOutput(env, request, info[1]);
    runSpectrumInto(request, out.Data(), *spectrumPlans(env));
    return out;
  } catch (const Napi::Error&) {
    throw;
  } catch (...) {
    throw toJsError(env, capture(std::current_exception()));
  }
}
Napi::Value SpectrumAsync(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const Request request = readSpectrumRequest(info);
  SpectrumWorker* worker = nullptr;
  try {
    worker = new SpectrumWorker(env, request, info[1], spectrumPlans(env));  // owned by libuv once queued
  } catch (const Napi::Error&) {
    throw;
  } catch (...) {
    throw toJsError(env, capture(std::current_exception()));
  }
  Napi::Promise promise = worker->promise();
  worker->Queue();
  return promise;
}

}  // namespace pesim::addon

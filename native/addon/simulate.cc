// Run entry points of the addon (see simulate.hh).
#include "simulate.hh"

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "convert.hh"
#include "args.hh"
#include "errors.hh"
#include "promise_worker.hh"
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

// Faults in the pages of the fresh sample arrays on a helper thread while the run computes. The
// first write to each 4 KiB page of fresh memory costs a kernel trap plus zeroing, for the arrays
// of a long run a large fraction of the run again (the engine section of `npm run bench`). The
// recorder writes the arrays front to back, all at the same index, so the helper walks them the same way, one chunk of each at a time, and runs ahead of it. MADV_POPULATE_WRITE
// (Linux ≥ 5.14) maps pages writable without touching their contents: it never races with the
// recorder's writes. Pages already mapped (memory that malloc reuses) cost it little; where the
// call is unavailable the helper stops and the recorder takes the faults itself, as before.
class SamplePages {
 public:
  SamplePages() = default;
  SamplePages(const SamplePages&) = delete;
  SamplePages& operator=(const SamplePages&) = delete;
  ~SamplePages() { finish(); }

  void add(double* data, std::size_t count) {
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
    const std::size_t bytes = count * sizeof(double);
    if (bytes < kSmallest) return;  // small runs: not worth a thread
    const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    const auto begin = (reinterpret_cast<std::uintptr_t>(data) + page - 1) & ~(page - 1);
    const auto end = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(page - 1);
    if (end <= begin) return;
    std::lock_guard<std::mutex> lock(mutex_);
    ranges_.emplace_back(begin, end - begin);
    if (thread_.joinable()) return;
    try {
      thread_ = std::thread([this] { populate(); });
    } catch (const std::system_error&) {
      // No thread to spare: the recorder takes the faults itself.
    }
#else
    static_cast<void>(data);
    static_cast<void>(count);
#endif
  }

  // Stops the helper (within one chunk) and waits for it; the run has written every page by then.
  void finish() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    if (thread_.joinable()) thread_.join();
  }

 private:
  static constexpr std::size_t kSmallest = std::size_t{1} << 20;
  static constexpr std::size_t kChunk = std::size_t{64} << 10;  // a multiple of the page size

  void populate() {
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
    std::vector<std::pair<std::uintptr_t, std::size_t>> ranges;
    for (std::size_t offset = 0;; offset += kChunk) {
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (done_) return;
        ranges = ranges_;  // arrays registered after the helper started join at the next chunk
      }
      bool more = false;
      for (const auto& [begin, length] : ranges) {
        if (offset >= length) continue;
        more = true;
        void* chunk = reinterpret_cast<void*>(begin + offset);
        const std::size_t size = std::min(kChunk, length - offset);
        if (resident(chunk, size)) continue;  // reused memory: nothing to fault in
        if (madvise(chunk, size, MADV_POPULATE_WRITE) != 0) return;  // e.g. EINVAL before Linux 5.14
      }
      if (!more) return;
    }
#endif
  }

#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  // True when every page of the chunk is mapped already (a few times cheaper to ask than to
  // populate mapped pages).
  bool resident(void* chunk, std::size_t size) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    residency_.resize((size + page - 1) / page);
    if (mincore(chunk, size, residency_.data()) != 0) return false;
    return std::all_of(residency_.begin(), residency_.end(), [](unsigned char r) { return (r & 1) != 0; });
  }
#endif

  std::mutex mutex_;
  std::vector<std::pair<std::uintptr_t, std::size_t>> ranges_;  // page-aligned interiors of the arrays
  std::vector<unsigned char> residency_;  // mincore() output, used by the helper only
  bool done_ = false;
  std::thread thread_;
};

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
  Napi::Env env = info.Env();
  Netlist netlist = toNetlist(info[0]);
  RunControl control = toRunControl(info[1]);
  ReusableMemory reusable = toReusableMemory(info[2]);
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

}  // namespace pesim::addon

// A Napi::AsyncWorker that settles a promise: `compute()` runs on a libuv pool thread, any C++
// failure there is captured and rejected through the one translation point (errors.cc), and the
// result is converted by `resolve()` on the main thread. Subclasses hold what their run reads (and
// the JS references that keep it alive while the pool thread reads it).
#pragma once

#include <napi.h>

#include <exception>

#include "errors.hh"

namespace pesim::addon {

template <typename Result>
class PromiseWorker : public Napi::AsyncWorker {
 public:
  PromiseWorker(Napi::Env env, const char* resourceName)
      : Napi::AsyncWorker(env, resourceName), deferred_(Napi::Promise::Deferred::New(env)) {}

  Napi::Promise promise() const { return deferred_.Promise(); }

 protected:
  // Runs on the pool thread: must not touch JavaScript values.
  virtual Result compute() = 0;
  // Runs on the main thread with the computed result.
  virtual Napi::Value resolve(Napi::Env env, Result& result) = 0;

 private:
  void Execute() final {
    try {
      result_ = compute();
    } catch (...) {
      error_ = capture(std::current_exception());
      failed_ = true;
    }
  }

  void OnOK() final {
    Napi::Env env = Env();
    Napi::HandleScope scope(env);
    if (failed_) {
      deferred_.Reject(toJsError(env, error_).Value());
      return;
    }
    try {
      deferred_.Resolve(resolve(env, result_));
    } catch (const Napi::Error& e) {
      deferred_.Reject(e.Value());
    }
  }

  void OnError(const Napi::Error& e) final { deferred_.Reject(e.Value()); }

  Napi::Promise::Deferred deferred_;
  Result result_{};
  CapturedError error_;
  bool failed_ = false;
};

}  // namespace pesim::addon

// The step-wise run object (see step_session.hh).
#include "step_session.hh"

#include <memory>
#include <string>
#include <utility>

#include "convert.hh"
#include "errors.hh"
#include "pesim/step_session.hpp"

namespace pesim::addon {

namespace {

// The session, shared by the object's functions; empty once finished or released.
struct Holder {
  std::unique_ptr<StepSession> session;
};

StepSession& live(const Napi::CallbackInfo& info, const std::shared_ptr<Holder>& holder) {
  if (!holder->session) throw Napi::Error::New(info.Env(), "stepSession: the step-wise run has ended");
  return *holder->session;
}

// Calls `body` and turns an engine failure into the JS error the other entry points throw.
template <typename Body>
Napi::Value guarded(const Napi::CallbackInfo& info, Body body) {
  try {
    return body();
  } catch (const Napi::Error&) {
    throw;
  } catch (...) {
    throw toJsError(info.Env(), capture(std::current_exception()));
  }
}

}  // namespace

Napi::Value StepSessionNew(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Netlist netlist = toNetlist(info[0]);
  auto holder = std::make_shared<Holder>();
  guarded(info, [&]() -> Napi::Value {
    holder->session = std::make_unique<StepSession>(netlist);
    return env.Undefined();
  });
  Napi::Object out = Napi::Object::New(env);
  out.Set("step", Napi::Function::New(env, [holder](const Napi::CallbackInfo& i) {
    if (!i[0].IsNumber()) throw Napi::TypeError::New(i.Env(), "stepSession.step: the number of steps must be a number");
    const double steps = i[0].As<Napi::Number>().DoubleValue();
    return guarded(i, [&]() -> Napi::Value {
      const long done = live(i, holder).step(steps > 0 ? static_cast<long>(steps) : 0L);
      return Napi::Number::New(i.Env(), static_cast<double>(done));
    });
  }, "step"));
  out.Set("done", Napi::Function::New(env, [holder](const Napi::CallbackInfo& i) {
    return Napi::Number::New(i.Env(), static_cast<double>(live(i, holder).stepsDone()));
  }, "done"));
  out.Set("total", Napi::Function::New(env, [holder](const Napi::CallbackInfo& i) {
    return Napi::Number::New(i.Env(), static_cast<double>(live(i, holder).totalSteps()));
  }, "total"));
  out.Set("time", Napi::Function::New(env, [holder](const Napi::CallbackInfo& i) {
    return Napi::Number::New(i.Env(), live(i, holder).time());
  }, "time"));
  out.Set("result", Napi::Function::New(env, [holder](const Napi::CallbackInfo& i) {
    return guarded(i, [&]() -> Napi::Value { return fromResult(i.Env(), live(i, holder).partialResult()); });
  }, "result"));
  out.Set("rebuild", Napi::Function::New(env, [holder](const Napi::CallbackInfo& i) {
    Netlist next = toNetlist(i[0]);
    return guarded(i, [&]() -> Napi::Value {
      live(i, holder).rebuild(next);
      return i.Env().Undefined();
    });
  }, "rebuild"));
  out.Set("finish", Napi::Function::New(env, [holder](const Napi::CallbackInfo& i) {
    return guarded(i, [&]() -> Napi::Value {
      Result result = live(i, holder).finish();
      holder->session.reset();
      return fromResult(i.Env(), result);
    });
  }, "finish"));
  out.Set("release", Napi::Function::New(env, [holder](const Napi::CallbackInfo& i) {
    holder->session.reset();
    return i.Env().Undefined();
  }, "release"));
  return out;
}

}  // namespace pesim::addon

// `scriptSession(options)`: a script session of the engine's Java (pesim/script.hpp) for
// `pesim script`. The caller lists its host functions with their signatures (type names as Java
// writes them: double, int, long, boolean, String, Object, double[], double[][], String[]) and
// answers their calls through `call(function, signature, args)`, at once or with a promise; a call
// that throws or rejects ends the script with the error's message at the call. compile() runs on
// the calling thread; run() runs the piece on a thread of its own and returns a promise, while
// host calls and output come back to the calling thread (so they may wait for simulations).
#include "script.hh"

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "pesim/script.hpp"

namespace pesim::addon {

namespace {

// A host value as JS: by its Java type name (arrays as arrays, null as null).
Napi::Value toJs(Napi::Env env, const std::string& type, const script::HostValue& v) {
  if (v.null) return env.Null();
  if (type.size() > 2 && type.compare(type.size() - 2, 2, "[]") == 0) {
    const std::string element = type.substr(0, type.size() - 2);
    auto out = Napi::Array::New(env, v.items.size());
    for (std::size_t i = 0; i < v.items.size(); ++i) out.Set(i, toJs(env, element, v.items[i]));
    return out;
  }
  if (type == "String" || type == "Object") return Napi::String::New(env, v.text);
  if (type == "boolean") return Napi::Boolean::New(env, v.number != 0.0);
  return Napi::Number::New(env, v.number);
}

script::HostValue fromJs(const Napi::Value& v) {
  script::HostValue out;
  if (v.IsNull() || v.IsUndefined()) out.null = true;
  else if (v.IsArray()) {
    auto a = v.As<Napi::Array>();
    for (uint32_t i = 0; i < a.Length(); ++i) out.items.push_back(fromJs(a.Get(i)));
  } else if (v.IsString()) out.text = v.As<Napi::String>().Utf8Value();
  else if (v.IsBoolean()) out.number = v.As<Napi::Boolean>().Value() ? 1.0 : 0.0;
  else if (v.IsNumber()) out.number = v.As<Napi::Number>().DoubleValue();
  else if (v.IsTypedArray()) {
    auto t = v.As<Napi::TypedArray>();
    for (uint32_t i = 0; i < t.ElementLength(); ++i) out.items.push_back(fromJs(t.Get(i)));
  }
  return out;
}

// What the script's thread asks of the JS thread: text to write, a host call, or the end of the run.
struct Message {
  enum Kind { Write, Call, Done };
  explicit Message(Kind k, std::string t = "") : kind(k), text(std::move(t)) {}
  Kind kind;
  std::string text;  // Write; Done: the error's message
  std::size_t function = 0, signature = 0;
  std::vector<script::HostValue> arguments;
  bool failed = false;  // Done
  script::Error error;
};

struct Session {
  Napi::FunctionReference call;
  Napi::FunctionReference write;
  Napi::Reference<Napi::Value> interruptBuffer;  // keeps the flag's memory alive
  std::vector<script::HostFunction> functions;
  std::unique_ptr<script::Session> script;
  // The run in progress: its thread, the channel to the JS thread and the host call's answer.
  std::thread thread;
  Napi::ThreadSafeFunction channel;
  std::unique_ptr<Napi::Promise::Deferred> deferred;
  std::mutex mutex;
  std::condition_variable answered;
  bool hasAnswer = false;
  script::HostValue answer;
  bool answerFailed = false;
  std::string failure;
  // Torn down with its JS functions: a run still going ends first (its host calls fail then).
  ~Session() {
    if (thread.joinable()) thread.join();
  }
};

std::vector<script::HostFunction> hostFunctions(const Napi::Array& list) {
  std::vector<script::HostFunction> out;
  for (uint32_t i = 0; i < list.Length(); ++i) {
    Napi::Object f = list.Get(i).As<Napi::Object>();
    script::HostFunction h{f.Get("name").As<Napi::String>().Utf8Value(), {}};
    Napi::Array signatures = f.Get("signatures").As<Napi::Array>();
    for (uint32_t s = 0; s < signatures.Length(); ++s) {
      Napi::Object sig = signatures.Get(s).As<Napi::Object>();
      script::HostSignature hs;
      hs.result = sig.Get("returns").As<Napi::String>().Utf8Value();
      hs.inPlace = sig.Has("inPlace") && sig.Get("inPlace").ToBoolean().Value();
      Napi::Array params = sig.Get("params").As<Napi::Array>();
      for (uint32_t p = 0; p < params.Length(); ++p) hs.parameters.push_back(params.Get(p).As<Napi::String>().Utf8Value());
      h.signatures.push_back(std::move(hs));
    }
    out.push_back(std::move(h));
  }
  return out;
}

void answer(Session* session, script::HostValue value, bool failed, std::string failure) {
  std::lock_guard<std::mutex> lock(session->mutex);
  session->answer = std::move(value);
  session->answerFailed = failed;
  session->failure = std::move(failure);
  session->hasAnswer = true;
  session->answered.notify_one();
}

std::string errorText(const Napi::Value& error) {
  if (error.IsObject()) {
    Napi::Value message = error.As<Napi::Object>().Get("message");
    if (message.IsString()) return message.As<Napi::String>().Utf8Value();
  }
  return error.ToString().Utf8Value();
}

// On the JS thread: calls the host function; a returned promise answers when it settles.
void startCall(Napi::Env env, Session* session, Message* m) {
  std::unique_ptr<Message> message(m);
  const script::HostSignature& sig = session->functions[m->function].signatures[m->signature];
  auto jsArgs = Napi::Array::New(env, m->arguments.size());
  for (std::size_t i = 0; i < m->arguments.size(); ++i) jsArgs.Set(i, toJs(env, sig.parameters[i], m->arguments[i]));
  Napi::Value result;
  try {
    result = session->call.Call({Napi::Number::New(env, double(m->function)), Napi::Number::New(env, double(m->signature)), jsArgs});
  } catch (const Napi::Error& e) {
    answer(session, {}, true, e.Message());
    return;
  }
  if (!result.IsPromise()) {
    answer(session, fromJs(result), false, "");
    return;
  }
  auto then = result.As<Napi::Object>().Get("then").As<Napi::Function>();
  auto onValue = Napi::Function::New(env, [session](const Napi::CallbackInfo& info) { answer(session, fromJs(info[0]), false, ""); });
  auto onError = Napi::Function::New(env, [session](const Napi::CallbackInfo& info) { answer(session, {}, true, errorText(info[0])); });
  then.Call(result, {onValue, onError});
}

// On the JS thread, after the script's thread ended: settles run()'s promise.
void finishRun(Napi::Env env, Session* session, Message* m) {
  std::unique_ptr<Message> message(m);
  if (session->thread.joinable()) session->thread.join();
  session->channel.Release();
  auto deferred = std::move(session->deferred);
  if (!m->failed) {
    deferred->Resolve(env.Undefined());
    return;
  }
  Napi::Error error = Napi::Error::New(env, m->error.message);
  error.Set("kind", Napi::String::New(env, m->error.kind));
  error.Set("reason", Napi::String::New(env, m->error.message));
  error.Set("line", Napi::Number::New(env, m->error.line));
  error.Set("column", Napi::Number::New(env, m->error.column));
  deferred->Reject(error.Value());
}

// Called on the script's thread: the JS thread answers through answer().
script::HostValue hostCall(Session* session, std::size_t function, std::size_t signature, std::vector<script::HostValue>& args) {
  {
    std::lock_guard<std::mutex> lock(session->mutex);
    session->hasAnswer = false;
  }
  auto* message = new Message(Message::Call);
  message->function = function;
  message->signature = signature;
  message->arguments = std::move(args);
  if (session->channel.BlockingCall(message, [session](Napi::Env env, Napi::Function, Message* m) { startCall(env, session, m); }) != napi_ok) {
    delete message;  // the JS side is shutting down: no answer will come
    throw script::HostFailure{"the script's host is shutting down"};
  }
  std::unique_lock<std::mutex> lock(session->mutex);
  session->answered.wait(lock, [session] { return session->hasAnswer; });
  if (session->answerFailed) throw script::HostFailure{session->failure};
  return std::move(session->answer);
}

[[noreturn]] void throwScriptError(Napi::Env env, const script::Error& e) {
  Napi::Error error = Napi::Error::New(env, e.message);
  error.Set("kind", Napi::String::New(env, e.kind));
  error.Set("reason", Napi::String::New(env, e.message));
  error.Set("line", Napi::Number::New(env, e.line));
  error.Set("column", Napi::Number::New(env, e.column));
  throw error;
}

script::Part partNamed(const std::string& name) {
  if (name == "input") return script::Part::Input;
  if (name == "declarations") return script::Part::Declarations;
  return script::Part::Statements;
}

Napi::Value compile(const Napi::CallbackInfo& info, const std::shared_ptr<Session>& session) {
  Napi::Env env = info.Env();
  script::Source source{info[0].As<Napi::String>().Utf8Value(), info[1].As<Napi::String>().Utf8Value(),
                            info[2].As<Napi::Number>().Int32Value()};
  std::vector<script::CallSite> calls;
  try {
    calls = session->script->compile(source, partNamed(info[3].As<Napi::String>().Utf8Value()));
  } catch (const script::Error& e) {
    throwScriptError(env, e);
  }
  auto out = Napi::Array::New(env, calls.size());
  for (std::size_t i = 0; i < calls.size(); ++i) {
    auto call = Napi::Array::New(env, 2);
    call.Set(0u, Napi::String::New(env, calls[i].function));
    call.Set(1u, calls[i].constantFirst ? Napi::Value(Napi::String::New(env, calls[i].first)) : env.Null());
    out.Set(i, call);
  }
  return out;
}

// run(): the compiled piece runs on its own thread; host calls and output come back to this one.
Napi::Value startRun(const Napi::CallbackInfo& info, const std::shared_ptr<Session>& session) {
  Napi::Env env = info.Env();
  if (session->deferred) throw Napi::Error::New(env, "the script is already running");
  session->deferred = std::make_unique<Napi::Promise::Deferred>(env);
  Napi::Promise promise = session->deferred->Promise();
  session->channel = Napi::ThreadSafeFunction::New(env, Napi::Function::New(env, [](const Napi::CallbackInfo&) {}), "pesim script", 0, 1);
  Session* raw = session.get();
  raw->thread = std::thread([raw] {
    auto* done = new Message(Message::Done);
    try {
      raw->script->run();
    } catch (const script::Error& e) {
      done->failed = true;
      done->error = e;
    } catch (const std::exception& e) {
      done->failed = true;
      done->error = script::Error{"runtime", e.what(), 0, 0};
    }
    if (raw->channel.BlockingCall(done, [raw](Napi::Env e, Napi::Function, Message* m) { finishRun(e, raw, m); }) != napi_ok) delete done;
  });
  return promise;
}

}  // namespace

Napi::Value ScriptSession(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Object options = info[0].As<Napi::Object>();
  auto session = std::make_shared<Session>();
  session->call = Napi::Persistent(options.Get("call").As<Napi::Function>());
  session->write = Napi::Persistent(options.Get("write").As<Napi::Function>());
  script::Setup setup;
  session->functions = hostFunctions(options.Get("functions").As<Napi::Array>());
  setup.functions = session->functions;
  Napi::Array unsupported = options.Get("unsupported").As<Napi::Array>();
  for (uint32_t i = 0; i < unsupported.Length(); ++i) setup.unsupported.push_back(unsupported.Get(i).As<Napi::String>().Utf8Value());
  Session* raw = session.get();
  setup.call = [raw](std::size_t function, std::size_t signature, std::vector<script::HostValue>& args) { return hostCall(raw, function, signature, args); };
  setup.write = [raw](const std::string& text) {
    auto* message = new Message(Message::Write, text);
    const napi_status status = raw->channel.BlockingCall(message, [raw](Napi::Env env, Napi::Function, Message* m) {
      std::unique_ptr<Message> owned(m);
      try {
        raw->write.Call({Napi::String::New(env, m->text)});
      } catch (const Napi::Error&) {
        // The write function failed: the text is lost, the script goes on (nothing else could report it).
      }
    });
    if (status != napi_ok) delete message;
  };
  if (options.Get("maxSteps").IsNumber()) setup.maxSteps = options.Get("maxSteps").As<Napi::Number>().Int64Value();
  if (options.Get("interrupt").IsTypedArray()) {
    auto flag = options.Get("interrupt").As<Napi::Int32Array>();
    session->interruptBuffer = Napi::Persistent(Napi::Value(flag));
    setup.interrupt = flag.Data();
  }
  if (options.Get("outputDir").IsString()) setup.outputDir = options.Get("outputDir").As<Napi::String>().Utf8Value();
  try {
    session->script = std::make_unique<script::Session>(std::move(setup));
  } catch (const std::invalid_argument& e) {
    throw Napi::TypeError::New(env, std::string("scriptSession: ") + e.what());
  }

  Napi::Object out = Napi::Object::New(env);
  out.Set("compile", Napi::Function::New(env, [session](const Napi::CallbackInfo& i) {
    if (session->deferred) throw Napi::Error::New(i.Env(), "the script is running");
    return compile(i, session);
  }, "compile"));
  out.Set("run", Napi::Function::New(env, [session](const Napi::CallbackInfo& i) { return startRun(i, session); }, "run"));
  out.Set("steps", Napi::Function::New(env, [session](const Napi::CallbackInfo& i) {
    return Napi::Number::New(i.Env(), double(session->script->steps()));
  }, "steps"));
  return out;
}

}  // namespace pesim::addon

// Conversion of the (resolved) JSON netlist to pesim::Netlist and of results to JS objects.
#include "convert.hh"

#include <cmath>
#include <cstring>

#include "args.hh"
#include "errors.hh"

namespace pesim::addon {

namespace {

// Readers whose field name (`field`, a callable) is only built when the value is wrong: a netlist
// of a few hundred parameters is converted once per run and per check, and the names of its fields
// were most of that time.
template <typename Field>
std::string stringAt(const Napi::Value& value, Field field) {
  if (!value.IsString()) netlistArgs(value).expected(field(), "a string");
  return value.As<Napi::String>().Utf8Value();  // keeps embedded NUL characters
}

template <typename Field>
std::vector<std::string> stringsAt(const Napi::Value& value, Field field) {
  std::vector<std::string> out;
  if (value.IsUndefined()) return out;
  if (!value.IsArray()) netlistArgs(value).expected(field(), "an array of strings");
  const Napi::Array list = value.As<Napi::Array>();
  const uint32_t length = list.Length();
  out.reserve(length);
  for (uint32_t i = 0; i < length; ++i) out.push_back(stringAt(list.Get(i), [&] { return Args::indexed(field(), i); }));
  return out;
}

template <typename Field>
Napi::Object objectAt(const Napi::Value& value, Field field) {
  if (!value.IsObject() || value.IsArray() || value.IsFunction()) netlistArgs(value).expected(field(), "an object");
  return value.As<Napi::Object>();
}

template <typename Field>
ParameterSet toParams(const Napi::Value& value, Field field) {
  ParameterSet set;
  if (value.IsUndefined()) return set;
  Napi::Object object = objectAt(value, field);
  Napi::Array keys = object.GetPropertyNames();
  for (uint32_t i = 0; i < keys.Length(); ++i) {
    Napi::Value keyValue = keys.Get(i);
    std::string key = keyValue.As<Napi::String>().Utf8Value();
    Napi::Value v = object.Get(keyValue);  // by the key's own value: no second string made from UTF-8
    auto path = [&] { return field() + "." + key; };
    if (v.IsNumber()) {
      set.numbers[key] = v.As<Napi::Number>().DoubleValue();
    } else if (v.IsString()) {
      set.strings[key] = v.As<Napi::String>().Utf8Value();
    } else if (v.IsArray()) {
      Napi::Array array = v.As<Napi::Array>();
      const uint32_t length = array.Length();
      bool numbers = length == 0 || array.Get(0u).IsNumber();
      for (uint32_t j = 0; j < length; ++j) {
        Napi::Value item = array.Get(j);
        auto itemPath = [&] { return path() + "[" + std::to_string(j) + "]"; };
        if (numbers) {
          if (!item.IsNumber()) netlistArgs(item).expected(itemPath(), "a number");
          set.arrays[key].push_back(item.As<Napi::Number>().DoubleValue());
        } else {
          set.names[key].push_back(stringAt(item, itemPath));
        }
      }
      if (length == 0) set.arrays[key];
    } else if (v.IsBoolean()) {
      set.numbers[key] = v.As<Napi::Boolean>().Value() ? 1.0 : 0.0;
    } else {
      netlistArgs(value).expected(path(), "a number, a string or an array");
    }
  }
  return set;
}

Method toMethod(const Napi::Value& value) {
  if (value.IsUndefined()) return Method::BackwardEuler;
  std::string name = netlistArgs(value).string(value, "settings.solver");
  if (name == "backward-euler") return Method::BackwardEuler;
  if (name == "trapezoidal") return Method::Trapezoidal;
  if (name == "gear-shichman") return Method::Gear;
  netlistArgs(value).expected("settings.solver", "one of backward-euler, trapezoidal, gear-shichman");
}

Settings toSettings(const Napi::Value& value) {
  Napi::Object o = netlistArgs(value).object(value, "settings");
  Settings s;
  const Napi::Value tEnd = o.Get("tEnd");
  const Napi::Value dt = o.Get("dt");
  s.tEnd = netlistArgs(tEnd).number(tEnd, "settings.tEnd");
  s.dt = netlistArgs(dt).number(dt, "settings.dt");
  s.method = toMethod(o.Get("solver"));
  auto optional = [&](const char* key, double fallback) {
    Napi::Value v = o.Get(key);
    if (v.IsUndefined()) return fallback;
    if (!v.IsNumber()) netlistArgs(v).expected(std::string("settings.") + key, "a number");
    return v.As<Napi::Number>().DoubleValue();
  };
  const Settings defaults;  // the engine's defaults (pesim/netlist.hpp), stated once
  s.tPre = optional("tPre", defaults.tPre);
  s.dtPre = optional("dtPre", defaults.dtPre);
  s.maxPoints = static_cast<long>(optional("maxPoints", static_cast<double>(defaults.maxPoints)));
  s.measureFrom = optional("measureFrom", defaults.measureFrom);
  s.measureTo = optional("measureTo", defaults.measureTo);
  s.maxSwitchIterations = static_cast<int>(optional("maxSwitchIterations", defaults.maxSwitchIterations));
  s.cacheSize = static_cast<int>(optional("cacheSize", defaults.cacheSize));
  s.denseLimit = static_cast<int>(optional("denseLimit", defaults.denseLimit));
  double seed = optional("seed", static_cast<double>(kDefaultSeed));
  if (!(seed >= 0.0 && seed <= 9007199254740991.0 && seed == std::floor(seed))) {
    netlistArgs(value).expected("settings.seed", "an integer from 0 to 2^53 − 1");
  }
  s.seed = static_cast<std::uint64_t>(seed);
  Napi::Value timing = o.Get("timing");
  if (!timing.IsUndefined()) {
    std::string name = netlistArgs(timing).string(timing, "settings.timing");
    if (name == "gecko") s.timing = Timing::Gecko;
    else if (name != "exact") netlistArgs(value).expected("settings.timing", "one of exact, gecko");
  }
  Napi::Value damp = o.Get("dampAfterSwitch");
  if (!damp.IsUndefined()) {
    if (!damp.IsBoolean()) netlistArgs(value).expected("settings.dampAfterSwitch", "a boolean");
    s.dampAfterSwitch = damp.As<Napi::Boolean>().Value();
  }
  return s;
}

// Elements of the power circuit (`elements`) or of the thermal network (`thermal`): same shape.
std::vector<ElementSpec> toElements(const Napi::Array& array, const std::string& list) {
  std::vector<ElementSpec> out;
  const uint32_t length = array.Length();
  out.reserve(length);
  for (uint32_t i = 0; i < length; ++i) {
    auto field = [&] { return Args::indexed(list, i); };
    Napi::Object e = objectAt(array.Get(i), field);
    ElementSpec spec;
    spec.name = stringAt(e.Get("name"), [&] { return field() + ".name"; });
    spec.type = stringAt(e.Get("type"), [&] { return field() + ".type"; });
    spec.nodes = stringsAt(e.Get("nodes"), [&] { return field() + ".nodes"; });
    spec.params = toParams(e.Get("params"), [&] { return field() + ".params"; });
    out.push_back(std::move(spec));
  }
  return out;
}

}  // namespace

Netlist toNetlist(const Napi::Value& value) {
  Napi::Object o = netlistArgs(value).object(value, "netlist");
  Netlist n;
  if (o.Get("name").IsString()) n.name = o.Get("name").As<Napi::String>().Utf8Value();
  n.settings = toSettings(o.Get("settings"));
  Napi::Value elements = o.Get("elements");
  if (!elements.IsArray()) netlistArgs(value).expected("elements", "an array");
  n.elements = toElements(elements.As<Napi::Array>(), "elements");
  Napi::Value blocks = o.Get("blocks");
  if (!blocks.IsUndefined()) {
    if (!blocks.IsArray()) netlistArgs(value).expected("blocks", "an array");
    Napi::Array blockArray = blocks.As<Napi::Array>();
    const uint32_t length = blockArray.Length();
    n.blocks.reserve(length);
    for (uint32_t i = 0; i < length; ++i) {
      auto field = [&] { return Args::indexed("blocks", i); };
      Napi::Object b = objectAt(blockArray.Get(i), field);
      BlockSpec spec;
      spec.name = stringAt(b.Get("name"), [&] { return field() + ".name"; });
      spec.type = stringAt(b.Get("type"), [&] { return field() + ".type"; });
      spec.inputs = stringsAt(b.Get("inputs"), [&] { return field() + ".inputs"; });
      spec.outputs = stringsAt(b.Get("outputs"), [&] { return field() + ".outputs"; });
      spec.params = toParams(b.Get("params"), [&] { return field() + ".params"; });
      n.blocks.push_back(std::move(spec));
    }
  }
  Napi::Value thermal = o.Get("thermal");
  if (!thermal.IsUndefined()) {
    if (!thermal.IsArray()) netlistArgs(value).expected("thermal", "an array");
    n.thermal = toElements(thermal.As<Napi::Array>(), "thermal");
  }
  n.lossModels = toLossModels(o.Get("lossModels"));
  return n;
}

namespace {
// A copy into V8's own ArrayBuffer memory. (An external ArrayBuffer adopting the vector would save
// the copy, but Node runs its finalizer only from the event loop, so a thread simulating in a
// synchronous loop would keep every run's samples until it yields.)
Napi::Float64Array toFloat64Array(Napi::Env env, const std::vector<double>& values) {
  Napi::Float64Array array = Napi::Float64Array::New(env, values.size());
  if (!values.empty()) std::memcpy(array.Data(), values.data(), values.size() * sizeof(double));
  return array;
}
}  // namespace

Napi::Array fromWarnings(Napi::Env env, const std::vector<std::string>& warnings) {
  Napi::Array array = Napi::Array::New(env, warnings.size());
  for (uint32_t i = 0; i < warnings.size(); ++i) array.Set(i, warnings[i]);
  return array;
}

Napi::Object fromResult(Napi::Env env, const Result& result, const std::vector<Napi::Float64Array>* samples) {
  Napi::Object out = Napi::Object::New(env);
  out.Set("time", samples != nullptr ? (*samples)[0] : toFloat64Array(env, result.time));
  Napi::Array channels = Napi::Array::New(env, result.channels.size());
  for (uint32_t i = 0; i < result.channels.size(); ++i) {
    const Channel& c = result.channels[i];
    Napi::Object channel = Napi::Object::New(env);
    channel.Set("key", c.key);
    channel.Set("scope", c.scope);
    channel.Set("index", c.index);
    channel.Set("label", c.label);
    channel.Set("values", samples != nullptr ? (*samples)[i + 1] : toFloat64Array(env, c.values));
    channels.Set(i, channel);
  }
  out.Set("channels", channels);
  Napi::Object measurements = Napi::Object::New(env);
  for (const auto& m : result.measurements) measurements.Set(m.key, m.value);
  out.Set("measurements", measurements);
  const RunStats& s = result.stats;
  Napi::Object stats = Napi::Object::New(env);
  stats.Set("steps", static_cast<double>(s.steps));
  stats.Set("preSteps", static_cast<double>(s.preSteps));
  stats.Set("factorizations", static_cast<double>(s.factorizations));
  stats.Set("cacheHits", static_cast<double>(s.cacheHits));
  stats.Set("switchingEvents", static_cast<double>(s.switchingEvents));
  stats.Set("extraSolves", static_cast<double>(s.extraSolves));
  stats.Set("unknowns", static_cast<double>(s.unknowns));
  stats.Set("solver", s.dense ? "dense" : "sparse");
  stats.Set("wallMs", s.wallMs);
  out.Set("stats", stats);
  out.Set("warnings", fromWarnings(env, result.warnings));
  out.Set("losses", fromLosses(env, result.losses));
  out.Set("receivers", fromReceivers(env, result.receivers));
  if (result.steady) {
    const SteadyReport& r = *result.steady;
    Napi::Object steady = Napi::Object::New(env);
    steady.Set("converged", r.converged);
    steady.Set("method", r.method);
    steady.Set("iterations", r.iterations);
    steady.Set("periods", static_cast<double>(r.periods));
    steady.Set("period", r.period);
    steady.Set("stepsPerPeriod", static_cast<double>(r.stepsPerPeriod));
    steady.Set("unknowns", static_cast<double>(r.unknowns));
    steady.Set("error", r.error);
    steady.Set("periodStart", r.periodStart);
    steady.Set("message", r.message);
    out.Set("steady", steady);
  }
  return out;
}

}  // namespace pesim::addon

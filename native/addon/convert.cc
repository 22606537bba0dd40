// Conversion of the (resolved) JSON netlist to pesim::Netlist and of results to JS objects.
#include "convert.hh"

#include <cmath>
#include <cstring>

#include "args.hh"
#include "errors.hh"

namespace pesim::addon {

namespace {

ParameterSet toParams(const Napi::Value& value, const std::string& field) {
  ParameterSet set;
  if (value.IsUndefined()) return set;
  Napi::Object object = netlistArgs(value).object(value, field);
  Napi::Array keys = object.GetPropertyNames();
  for (uint32_t i = 0; i < keys.Length(); ++i) {
    std::string key = keys.Get(i).As<Napi::String>().Utf8Value();
    Napi::Value v = object.Get(key);
    std::string path = field + "." + key;
    if (v.IsNumber()) {
      set.numbers[key] = v.As<Napi::Number>().DoubleValue();
    } else if (v.IsString()) {
      set.strings[key] = v.As<Napi::String>().Utf8Value();
    } else if (v.IsArray()) {
      Napi::Array array = v.As<Napi::Array>();
      bool numbers = array.Length() == 0 || array.Get(0u).IsNumber();
      for (uint32_t j = 0; j < array.Length(); ++j) {
        std::string item = path + "[" + std::to_string(j) + "]";
        if (numbers) set.arrays[key].push_back(netlistArgs(array.Get(j)).number(array.Get(j), item));
        else set.names[key].push_back(netlistArgs(array.Get(j)).string(array.Get(j), item));
      }
      if (array.Length() == 0) set.arrays[key];
    } else if (v.IsBoolean()) {
      set.numbers[key] = v.As<Napi::Boolean>().Value() ? 1.0 : 0.0;
    } else {
      netlistArgs(value).expected(path, "a number, a string or an array");
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
  s.tEnd = netlistArgs(o.Get("tEnd")).number(o.Get("tEnd"), "settings.tEnd");
  s.dt = netlistArgs(o.Get("dt")).number(o.Get("dt"), "settings.dt");
  s.method = toMethod(o.Get("solver"));
  auto optional = [&](const char* key, double fallback) {
    Napi::Value v = o.Get(key);
    return v.IsUndefined() ? fallback : netlistArgs(v).number(v, std::string("settings.") + key);
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
  for (uint32_t i = 0; i < array.Length(); ++i) {
    std::string field = list + "[" + std::to_string(i) + "]";
    Napi::Object e = netlistArgs(array.Get(i)).object(array.Get(i), field);
    ElementSpec spec;
    spec.name = netlistArgs(e.Get("name")).string(e.Get("name"), field + ".name");
    spec.type = netlistArgs(e.Get("type")).string(e.Get("type"), field + ".type");
    spec.nodes = netlistArgs(e.Get("nodes")).strings(e.Get("nodes"), field + ".nodes");
    spec.params = toParams(e.Get("params"), field + ".params");
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
    for (uint32_t i = 0; i < blockArray.Length(); ++i) {
      std::string field = "blocks[" + std::to_string(i) + "]";
      Napi::Object b = netlistArgs(blockArray.Get(i)).object(blockArray.Get(i), field);
      BlockSpec spec;
      spec.name = netlistArgs(b.Get("name")).string(b.Get("name"), field + ".name");
      spec.type = netlistArgs(b.Get("type")).string(b.Get("type"), field + ".type");
      spec.inputs = netlistArgs(b.Get("inputs")).strings(b.Get("inputs"), field + ".inputs");
      spec.outputs = netlistArgs(b.Get("outputs")).strings(b.Get("outputs"), field + ".outputs");
      spec.params = toParams(b.Get("params"), field + ".params");
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

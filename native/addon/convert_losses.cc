// Conversion of the netlist's detailed loss models (`lossModels`) to engine structs, and of the
// run's per-device loss summaries to JS objects.
#include "convert.hh"

#include "args.hh"
#include "errors.hh"

namespace pesim::addon {

namespace {

std::vector<double> numbersAt(const Napi::Value& value, const std::string& field) {
  Napi::Array array = netlistArgs(value).array(value, field, "numbers");
  std::vector<double> out;
  for (uint32_t i = 0; i < array.Length(); ++i) out.push_back(netlistArgs(array.Get(i)).number(array.Get(i), field + "[" + std::to_string(i) + "]"));
  return out;
}

// conduction: [{T, i, u}]; turnOn / turnOff: [{T, uRef, i, E}].
std::vector<LossCurve> curves(const Napi::Value& value, const std::string& field, bool switching) {
  std::vector<LossCurve> out;
  if (!value.IsArray()) netlistArgs(value).expected(field, "an array of measured curves");
  Napi::Array array = value.As<Napi::Array>();
  for (uint32_t k = 0; k < array.Length(); ++k) {
    const std::string at = field + "[" + std::to_string(k) + "]";
    Napi::Object c = netlistArgs(array.Get(k)).object(array.Get(k), at);
    LossCurve curve;
    curve.T = netlistArgs(c.Get("T")).number(c.Get("T"), at + ".T");
    curve.i = numbersAt(c.Get("i"), at + ".i");
    if (switching) {
      curve.uRef = netlistArgs(c.Get("uRef")).number(c.Get("uRef"), at + ".uRef");
      curve.y = numbersAt(c.Get("E"), at + ".E");
    } else {
      curve.y = numbersAt(c.Get("u"), at + ".u");
    }
    out.push_back(std::move(curve));
  }
  return out;
}

}  // namespace

std::map<std::string, LossModelSpec> toLossModels(const Napi::Value& value) {
  std::map<std::string, LossModelSpec> out;
  if (value.IsUndefined()) return out;
  Napi::Object models = netlistArgs(value).object(value, "lossModels");
  Napi::Array keys = models.GetPropertyNames();
  for (uint32_t i = 0; i < keys.Length(); ++i) {
    const std::string key = keys.Get(i).As<Napi::String>().Utf8Value();
    const std::string field = "lossModels." + key;
    Napi::Object m = netlistArgs(models.Get(key)).object(models.Get(key), field);
    LossModelSpec spec;
    spec.conduction = curves(m.Get("conduction"), field + ".conduction", false);
    spec.turnOn = curves(m.Get("turnOn"), field + ".turnOn", true);
    spec.turnOff = curves(m.Get("turnOff"), field + ".turnOff", true);
    out.emplace(key, std::move(spec));
  }
  return out;
}

Napi::Array fromLosses(Napi::Env env, const std::vector<DeviceLossSummary>& losses) {
  Napi::Array array = Napi::Array::New(env, losses.size());
  for (uint32_t i = 0; i < losses.size(); ++i) {
    const DeviceLossSummary& s = losses[i];
    Napi::Object o = Napi::Object::New(env);
    o.Set("device", s.device);
    o.Set("conductionLoss", s.conductionLoss);
    o.Set("switchingLoss", s.switchingLoss);
    o.Set("totalLoss", s.totalLoss);
    o.Set("switchingEvents", static_cast<double>(s.switchingEvents));
    o.Set("averageCurrent", s.averageCurrent);
    o.Set("rmsCurrent", s.rmsCurrent);
    if (s.hasJunction) {
      o.Set("junctionTemperature", s.junctionTemperature);
      o.Set("maxJunctionTemperature", s.maxJunctionTemperature);
    }
    array.Set(i, o);
  }
  return array;
}

}  // namespace pesim::addon

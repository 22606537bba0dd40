// Conversion of the spectra of the CISPR16 test receiver blocks (Result::receivers) to JS objects:
// {block, resolution, frequency, peak, quasiPeak, average}, the lists as Float64Arrays (levels in
// dBµV, NaN where a detector is off).
#include <cstring>

#include "convert.hh"

namespace pesim::addon {

namespace {

Napi::Float64Array levels(Napi::Env env, const std::vector<double>& values) {
  Napi::Float64Array array = Napi::Float64Array::New(env, values.size());
  if (!values.empty()) std::memcpy(array.Data(), values.data(), values.size() * sizeof(double));
  return array;
}

}  // namespace

Napi::Array fromReceivers(Napi::Env env, const std::vector<ReceiverResult>& receivers) {
  Napi::Array array = Napi::Array::New(env, receivers.size());
  for (uint32_t i = 0; i < receivers.size(); ++i) {
    const Cispr16Spectrum& s = receivers[i].spectrum;
    Napi::Object out = Napi::Object::New(env);
    out.Set("block", receivers[i].block);
    out.Set("resolution", s.resolution);
    out.Set("frequency", levels(env, s.frequency));
    out.Set("peak", levels(env, s.peak));
    out.Set("quasiPeak", levels(env, s.quasiPeak));
    out.Set("average", levels(env, s.average));
    array.Set(i, out);
  }
  return array;
}

}  // namespace pesim::addon

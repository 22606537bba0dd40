// Module exports of the pesim addon. The addon keeps no mutable global state, so it loads in
// several worker threads at once.
#include <napi.h>

#include "analysis.hh"
#include "check_many.hh"
#include "checksum.hh"
#include "parquet.hh"
#include "pesim/engine.hpp"
#include "script.hh"
#include "simulate.hh"
#include "step_session.hh"

namespace {

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  exports.Set("simulateSync", Napi::Function::New(env, pesim::addon::SimulateSync, "simulateSync"));
  exports.Set("simulateAsync", Napi::Function::New(env, pesim::addon::SimulateAsync, "simulateAsync"));
  exports.Set("steadySync", Napi::Function::New(env, pesim::addon::SteadySync, "steadySync"));
  exports.Set("steadyAsync", Napi::Function::New(env, pesim::addon::SteadyAsync, "steadyAsync"));
  exports.Set("stepSession", Napi::Function::New(env, pesim::addon::StepSessionNew, "stepSession"));
  exports.Set("validate", Napi::Function::New(env, pesim::addon::Validate, "validate"));
  exports.Set("checkMany", Napi::Function::New(env, pesim::addon::CheckMany, "checkMany"));
  exports.Set("unusedParameters", Napi::Function::New(env, pesim::addon::UnusedParameters, "unusedParameters"));
  pesim::addon::registerAnalysis(env, exports);
  exports.Set("encodeParquet", Napi::Function::New(env, pesim::addon::EncodeParquet, "encodeParquet"));
  exports.Set("writeParquetFile", Napi::Function::New(env, pesim::addon::WriteParquetFile, "writeParquetFile"));
  exports.Set("encodeParquetRowGroup", Napi::Function::New(env, pesim::addon::EncodeParquetRowGroup, "encodeParquetRowGroup"));
  exports.Set("encodeParquetTableFooter", Napi::Function::New(env, pesim::addon::EncodeParquetTableFooter, "encodeParquetTableFooter"));
  exports.Set("scriptSession", Napi::Function::New(env, pesim::addon::ScriptSession, "scriptSession"));
  exports.Set("columnChecksum", Napi::Function::New(env, pesim::addon::ColumnChecksum, "columnChecksum"));
  exports.Set("version", pesim::engineVersion());
  exports.Set("eigenVersion", pesim::eigenVersion());
  return exports;
}

}  // namespace

NODE_API_MODULE(pesim, Init)

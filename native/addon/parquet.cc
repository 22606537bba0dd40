// encodeParquet (see parquet.hh). Arguments: columns (Float64Array[] of one common length), names
// (string[], one per column), metadata (object of string values: the file's key-value metadata,
// in property order), codec ("none" | "snappy" | "gzip" | "lz4").
#include "parquet.hh"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "errors.hh"
#include "pesim/errors.hpp"
#include "pesim/parquet.hpp"

namespace pesim::addon {

namespace {

[[noreturn]] void invalid(const std::string& field, const std::string& message) {
  throw InputError(ErrorCode::EncodeInvalid, field, message);
}

std::string indexed(const char* field, std::size_t i) { return std::string(field) + "[" + std::to_string(i) + "]"; }

struct Arguments {
  std::vector<std::string> names;
  std::vector<const double*> columns;
  std::size_t rows = 0;
  parquet::WriteOptions options;
};

void readColumns(const Napi::Value& value, Arguments& out) {
  if (!value.IsArray()) invalid("columns", "columns must be an array of Float64Array");
  const Napi::Array array = value.As<Napi::Array>();
  const uint32_t count = array.Length();
  if (count == 0) invalid("columns", "columns must hold at least one column");
  out.columns.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    const Napi::Value item = array.Get(i);
    if (!item.IsTypedArray() || item.As<Napi::TypedArray>().TypedArrayType() != napi_float64_array) {
      invalid(indexed("columns", i), indexed("columns", i) + " must be a Float64Array");
    }
    const Napi::Float64Array column = item.As<Napi::Float64Array>();
    if (i == 0) out.rows = column.ElementLength();
    if (column.ElementLength() != out.rows) {
      invalid(indexed("columns", i), indexed("columns", i) + " has " + std::to_string(column.ElementLength()) +
                                         " values but columns[0] has " + std::to_string(out.rows));
    }
    out.columns.push_back(column.Data());  // read in place: the caller keeps the arrays alive
  }
}

void readNames(const Napi::Value& value, Arguments& out) {
  if (!value.IsArray()) invalid("names", "names must be an array of strings");
  const Napi::Array array = value.As<Napi::Array>();
  if (array.Length() != out.columns.size()) {
    invalid("names", "names has " + std::to_string(array.Length()) + " entries but there are " +
                         std::to_string(out.columns.size()) + " columns");
  }
  out.names.reserve(array.Length());
  for (uint32_t i = 0; i < array.Length(); ++i) {
    const Napi::Value item = array.Get(i);
    if (!item.IsString()) invalid(indexed("names", i), indexed("names", i) + " must be a string");
    out.names.push_back(item.As<Napi::String>().Utf8Value());  // keeps embedded NUL characters
  }
}

void readMetadata(const Napi::Value& value, Arguments& out) {
  if (!value.IsObject() || value.IsArray() || value.IsFunction()) {
    invalid("metadata", "metadata must be an object whose values are strings");
  }
  const Napi::Object object = value.As<Napi::Object>();
  const Napi::Array keys = object.GetPropertyNames();
  for (uint32_t i = 0; i < keys.Length(); ++i) {
    const Napi::Value key = keys.Get(i);
    const std::string name = key.ToString().Utf8Value();
    const Napi::Value item = object.Get(key);
    if (!item.IsString()) invalid("metadata." + name, "metadata." + name + " must be a string");
    out.options.metadata.emplace_back(name, item.As<Napi::String>().Utf8Value());
  }
}

Arguments readArguments(const Napi::CallbackInfo& info) {
  Arguments args;
  readColumns(info[0], args);
  readNames(info[1], args);
  readMetadata(info[2], args);
  if (!info[3].IsString()) invalid("codec", "codec must be one of none, snappy, gzip, lz4");
  args.options.codec = parquet::codecFromName(info[3].As<Napi::String>().Utf8Value());
  args.options.createdBy = "pesim";
  return args;
}

}  // namespace

Napi::Value EncodeParquet(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::unique_ptr<std::vector<std::uint8_t>> file;
  try {
    const Arguments args = readArguments(info);
    file = std::make_unique<std::vector<std::uint8_t>>(parquet::writeDoubleColumns(args.names, args.columns, args.rows, args.options));
  } catch (const Napi::Error&) {
    throw;
  } catch (...) {
    throw toJsError(env, capture(std::current_exception()));
  }
  // The ArrayBuffer takes the vector's memory as it is; V8 is told about it so that its GC paces
  // itself by these (possibly large, short-lived) buffers too.
  const std::size_t size = file->size();
  const auto external = static_cast<int64_t>(file->capacity());
  Napi::MemoryManagement::AdjustExternalMemory(env, external);
  std::vector<std::uint8_t>* owned = file.get();
  Napi::ArrayBuffer buffer = Napi::ArrayBuffer::New(
      env, owned->data(), size,
      [external](Napi::Env finalizeEnv, void*, std::vector<std::uint8_t>* bytes) {
        delete bytes;
        Napi::MemoryManagement::AdjustExternalMemory(finalizeEnv, -external);
      },
      owned);
  file.release();  // owned by the ArrayBuffer's finalizer from here on
  return Napi::Uint8Array::New(env, size, buffer, 0);
}

}  // namespace pesim::addon

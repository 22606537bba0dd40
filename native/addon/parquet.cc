// encodeParquet (see parquet.hh). Arguments: columns (Float64Array[] of one common length), names
// (string[], one per column), metadata (object of string values: the file's key-value metadata,
// in property order), codec ("none" | "snappy" | "gzip" | "lz4").
#include "parquet.hh"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include "args.hh"
#include "errors.hh"
#include "pesim/errors.hpp"
#include "pesim/parquet.hpp"

namespace pesim::addon {

namespace {

Args encoderArgs(const Napi::Value& value) { return Args(value.Env(), "ENCODE_INVALID"); }

struct Arguments {
  std::vector<std::string> names;
  std::vector<const double*> columns;
  std::size_t rows = 0;
  parquet::WriteOptions options;
};

void readColumns(const Napi::Value& value, Arguments& out) {
  const Args args = encoderArgs(value);
  const Napi::Array array = args.array(value, "columns", "Float64Array");
  const uint32_t count = array.Length();
  if (count == 0) args.invalid("columns", "columns must hold at least one column");
  out.columns.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    const std::string field = Args::indexed("columns", i);
    const Napi::Float64Array column = args.float64Array(array.Get(i), field);
    if (i == 0) out.rows = column.ElementLength();
    if (column.ElementLength() != out.rows) {
      args.invalid(field, field + " has " + std::to_string(column.ElementLength()) + " values but columns[0] has " + std::to_string(out.rows));
    }
    out.columns.push_back(column.Data());  // read in place: the caller keeps the arrays alive
  }
}

void readNames(const Napi::Value& value, Arguments& out) {
  const Args args = encoderArgs(value);
  const Napi::Array array = args.array(value, "names", "strings");
  if (array.Length() != out.columns.size()) {
    args.invalid("names", "names has " + std::to_string(array.Length()) + " entries but there are " + std::to_string(out.columns.size()) + " columns");
  }
  out.names = args.strings(array, "names");
}

void readMetadata(const Napi::Value& value, Arguments& out) {
  const Args args = encoderArgs(value);
  if (!value.IsObject() || value.IsArray() || value.IsFunction()) args.expected("metadata", "an object whose values are strings");
  const Napi::Object object = value.As<Napi::Object>();
  const Napi::Array keys = object.GetPropertyNames();
  for (uint32_t i = 0; i < keys.Length(); ++i) {
    const Napi::Value key = keys.Get(i);
    const std::string name = key.ToString().Utf8Value();
    out.options.metadata.emplace_back(name, args.string(object.Get(key), "metadata." + name));
  }
}

// (columns, names, metadata, codec) from info[first] on: encodeParquet's arguments, and
// writeParquetFile's after its descriptor.
Arguments readArguments(const Napi::CallbackInfo& info, std::size_t first = 0) {
  Arguments args;
  readColumns(info[first], args);
  readNames(info[first + 1], args);
  readMetadata(info[first + 2], args);
  if (!info[first + 3].IsString()) encoderArgs(info[first + 3]).expected("codec", "one of none, snappy, gzip, lz4");
  args.options.codec = parquet::codecFromName(info[first + 3].As<Napi::String>().Utf8Value());
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

namespace {

// A failed write(2), carried out of the writer to be reported as Node's fs reports one.
struct WriteFailure {
  int error;
};

// Streams the file to a descriptor: small pieces (page headers, the footer) gather in a buffer,
// page data goes to write(2) as it is.
class FileDescriptorSink final : public parquet::ByteSink {
 public:
  explicit FileDescriptorSink(int fd) : fd_(fd) { buffer_.reserve(kBuffer); }

  void append(const std::uint8_t* bytes, std::size_t size) override {
    size_ += size;
    if (buffer_.size() + size <= kBuffer) {
      buffer_.insert(buffer_.end(), bytes, bytes + size);
      return;
    }
    flush();
    if (size < kBuffer) {
      buffer_.insert(buffer_.end(), bytes, bytes + size);
    } else {
      writeAll(bytes, size);
    }
  }

  std::size_t size() const { return size_; }  // bytes handed over so far

  void flush() {
    writeAll(buffer_.data(), buffer_.size());
    buffer_.clear();
  }

 private:
  static constexpr std::size_t kBuffer = std::size_t{64} << 10;

  void writeAll(const std::uint8_t* bytes, std::size_t size) {
    while (size > 0) {
      const ssize_t written = ::write(fd_, bytes, size);
      if (written < 0) {
        if (errno == EINTR) continue;
        throw WriteFailure{errno};
      }
      bytes += written;
      size -= static_cast<std::size_t>(written);
    }
  }

  int fd_;
  std::size_t size_ = 0;
  std::vector<std::uint8_t> buffer_;
};

// A failed write as Node reports one: code = the errno name (ENOSPC, EIO, EBADF, ...).
Napi::Error writeError(Napi::Env env, int error) {
  const char* name = strerrorname_np(error);
  Napi::Error js = Napi::Error::New(env, std::string("writing the Parquet file failed: ") + std::strerror(error));
  js.Value().Set("code", name != nullptr ? name : "EIO");
  js.Value().Set("errno", -error);
  js.Value().Set("syscall", "write");
  return js;
}

}  // namespace

Napi::Value WriteParquetFile(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const bool validFd = info[0].IsNumber() && info[0].As<Napi::Number>().DoubleValue() >= 0 &&
                       info[0].As<Napi::Number>().DoubleValue() == static_cast<double>(info[0].As<Napi::Number>().Int32Value());
  if (!validFd) {
    Napi::Error js = Napi::TypeError::New(env, "fd must be a file descriptor (a non-negative integer)");
    js.Value().Set("code", "ENCODE_INVALID");
    js.Value().Set("field", "fd");
    throw js;
  }
  FileDescriptorSink sink(info[0].As<Napi::Number>().Int32Value());
  try {
    Arguments args = readArguments(info, 1);
    // keepCodec (optional Int32Array, one entry per column): 1 keeps the codec, 0 writes the column
    // uncompressed, -1 everywhere tries the codec on each column and writes the decisions back.
    Napi::Int32Array keepCodec;
    bool decided = false;
    if (info.Length() > 5 && !info[5].IsUndefined()) {
      if (!info[5].IsTypedArray() || info[5].As<Napi::TypedArray>().TypedArrayType() != napi_int32_array) {
        encoderArgs(info[5]).expected("keepCodec", "an Int32Array");
      }
      keepCodec = info[5].As<Napi::Int32Array>();
      if (keepCodec.ElementLength() != args.columns.size()) encoderArgs(info[5]).invalid("keepCodec", "keepCodec must have one entry per column");
      decided = keepCodec.ElementLength() > 0 && keepCodec[0] >= 0;
      for (std::size_t i = 0; i < keepCodec.ElementLength(); ++i) {
        const bool valid = decided ? keepCodec[i] == 0 || keepCodec[i] == 1 : keepCodec[i] == -1;
        if (!valid) encoderArgs(info[5]).invalid(Args::indexed("keepCodec", i), "keepCodec must be all -1, or each 0 or 1");
        if (decided) args.options.keepCodec.push_back(keepCodec[i] == 1);
      }
    }
    const std::vector<bool> kept = parquet::writeDoubleColumns(sink, args.names, args.columns, args.rows, args.options);
    sink.flush();
    if (!keepCodec.IsEmpty() && !decided && kept.size() == keepCodec.ElementLength()) {
      for (std::size_t i = 0; i < kept.size(); ++i) keepCodec[i] = kept[i] ? 1 : 0;
    }
  } catch (const Napi::Error&) {
    throw;
  } catch (const WriteFailure& failure) {
    throw writeError(env, failure.error);
  } catch (...) {
    throw toJsError(env, capture(std::current_exception()));
  }
  return Napi::Number::New(env, static_cast<double>(sink.size()));
}

namespace {

// The numbers of a ChunkMeta in the `chunks` array: kind, codec, data page offset, compressed and
// uncompressed size, NaN count, has min/max, min, max.
constexpr std::size_t kChunkFields = 9;

class BytesSink final : public parquet::ByteSink {
 public:
  void append(const std::uint8_t* bytes, std::size_t size) override { bytes_->insert(bytes_->end(), bytes, bytes + size); }
  std::unique_ptr<std::vector<std::uint8_t>> bytes_ = std::make_unique<std::vector<std::uint8_t>>();
};

// A Uint8Array that owns the vector's memory (as EncodeParquet returns its file).
Napi::Uint8Array ownedBytes(Napi::Env env, std::unique_ptr<std::vector<std::uint8_t>> bytes) {
  const std::size_t size = bytes->size();
  const auto external = static_cast<int64_t>(bytes->capacity());
  Napi::MemoryManagement::AdjustExternalMemory(env, external);
  std::vector<std::uint8_t>* owned = bytes.get();
  Napi::ArrayBuffer buffer = Napi::ArrayBuffer::New(
      env, owned->data(), size,
      [external](Napi::Env finalizeEnv, void*, std::vector<std::uint8_t>* data) {
        delete data;
        Napi::MemoryManagement::AdjustExternalMemory(finalizeEnv, -external);
      },
      owned);
  bytes.release();
  return Napi::Uint8Array::New(env, size, buffer, 0);
}

parquet::Codec codecArgument(const Napi::Value& value) {
  if (!value.IsString()) encoderArgs(value).expected("codec", "one of none, snappy, gzip, lz4");
  return parquet::codecFromName(value.As<Napi::String>().Utf8Value());
}

}  // namespace

Napi::Value EncodeParquetRowGroup(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const Args args = encoderArgs(info[0]);
  BytesSink sink;
  Napi::Float64Array chunks;
  try {
    const Napi::Array array = args.array(info[0], "columns", "Float64Array or string[]");
    const uint32_t count = array.Length();
    if (count == 0) args.invalid("columns", "columns must hold at least one column");
    std::vector<parquet::TableColumn> schema(count);
    std::vector<parquet::ColumnValues> values(count);
    std::vector<std::vector<std::string>> strings(count);
    std::size_t rows = 0;
    for (uint32_t i = 0; i < count; ++i) {
      const std::string field = Args::indexed("columns", i);
      const Napi::Value column = array.Get(i);
      std::size_t length = 0;
      if (column.IsArray()) {
        strings[i] = args.strings(column, field);
        schema[i].kind = parquet::ColumnKind::String;
        values[i].strings = &strings[i];
        length = strings[i].size();
      } else {
        const Napi::Float64Array doubles = args.float64Array(column, field);
        values[i].doubles = doubles.Data();  // read in place: the caller keeps the arrays alive
        length = doubles.ElementLength();
      }
      if (i == 0) rows = length;
      if (length != rows) args.invalid(field, field + " has " + std::to_string(length) + " values but columns[0] has " + std::to_string(rows));
    }
    if (!info[1].IsNumber() || info[1].As<Napi::Number>().DoubleValue() < static_cast<double>(parquet::kTableHeaderBytes)) {
      args.expected("offset", "the file position of the row group (at least 4)");
    }
    parquet::WriteOptions options;
    options.codec = codecArgument(info[2]);
    const auto offset = static_cast<std::size_t>(info[1].As<Napi::Number>().DoubleValue());
    const parquet::RowGroupMeta group = parquet::writeRowGroup(sink, offset, schema, values, rows, options);
    chunks = Napi::Float64Array::New(env, kChunkFields * group.chunks.size());
    for (std::size_t i = 0; i < group.chunks.size(); ++i) {
      const parquet::ChunkMeta& c = group.chunks[i];
      const double fields[kChunkFields] = {static_cast<double>(c.kind), static_cast<double>(c.codec), static_cast<double>(c.dataPageOffset),
                                           static_cast<double>(c.compressedSize), static_cast<double>(c.uncompressedSize),
                                           static_cast<double>(c.nanCount), c.hasMinMax ? 1.0 : 0.0, c.min, c.max};
      for (std::size_t k = 0; k < kChunkFields; ++k) chunks[kChunkFields * i + k] = fields[k];
    }
  } catch (const Napi::Error&) {
    throw;
  } catch (...) {
    throw toJsError(env, capture(std::current_exception()));
  }
  Napi::Object result = Napi::Object::New(env);
  result.Set("bytes", ownedBytes(env, std::move(sink.bytes_)));
  result.Set("chunks", chunks);
  return result;
}

Napi::Value EncodeParquetTableFooter(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const Args args = encoderArgs(info[0]);
  BytesSink sink;
  try {
    const std::vector<std::string> names = args.strings(info[0], "names");
    const std::vector<std::string> kinds = args.strings(info[1], "kinds");
    if (kinds.size() != names.size()) args.invalid("kinds", "kinds has " + std::to_string(kinds.size()) + " entries but names has " + std::to_string(names.size()));
    std::vector<parquet::TableColumn> schema(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (kinds[i] != "double" && kinds[i] != "string") args.invalid(Args::indexed("kinds", i), Args::indexed("kinds", i) + " must be \"double\" or \"string\"");
      schema[i] = {names[i], kinds[i] == "string" ? parquet::ColumnKind::String : parquet::ColumnKind::Double};
    }
    const Napi::Array array = args.array(info[2], "groups", "{rows, chunks}");
    std::vector<parquet::RowGroupMeta> groups(array.Length());
    for (uint32_t g = 0; g < array.Length(); ++g) {
      const std::string field = Args::indexed("groups", g);
      const Napi::Value value = array.Get(g);
      if (!value.IsObject()) args.expected(field, "an object {rows, chunks}");
      const Napi::Object group = value.As<Napi::Object>();
      if (!group.Get("rows").IsNumber()) args.expected(field + ".rows", "a number");
      const Napi::Float64Array chunks = args.float64Array(group.Get("chunks"), field + ".chunks");
      if (chunks.ElementLength() != kChunkFields * schema.size()) args.invalid(field + ".chunks", field + ".chunks does not describe " + std::to_string(schema.size()) + " columns");
      groups[g].rows = static_cast<std::size_t>(group.Get("rows").As<Napi::Number>().DoubleValue());
      for (std::size_t i = 0; i < schema.size(); ++i) {
        const double* c = chunks.Data() + kChunkFields * i;
        parquet::ChunkMeta meta;
        meta.kind = static_cast<parquet::ColumnKind>(static_cast<std::int32_t>(c[0]));
        meta.codec = static_cast<parquet::Codec>(static_cast<std::int32_t>(c[1]));
        meta.dataPageOffset = static_cast<std::int64_t>(c[2]);
        meta.compressedSize = static_cast<std::int64_t>(c[3]);
        meta.uncompressedSize = static_cast<std::int64_t>(c[4]);
        meta.nanCount = static_cast<std::int64_t>(c[5]);
        meta.hasMinMax = c[6] != 0.0;
        meta.min = c[7];
        meta.max = c[8];
        groups[g].chunks.push_back(meta);
      }
    }
    Arguments metadata;
    readMetadata(info[3], metadata);
    metadata.options.createdBy = "pesim";
    parquet::writeTableFooter(sink, schema, groups, metadata.options);
  } catch (const Napi::Error&) {
    throw;
  } catch (...) {
    throw toJsError(env, capture(std::current_exception()));
  }
  return ownedBytes(env, std::move(sink.bytes_));
}

}  // namespace pesim::addon

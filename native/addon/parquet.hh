// Parquet encoding of a result for the job runtime: encodeParquet(columns, names, metadata, codec)
// → Uint8Array holding the whole file (pesim/parquet.hpp: one row group, PLAIN doubles, pages of
// at most 1 MiB). Synchronous (it runs on the caller's thread: piscina workers); the columns are
// read in place, and the bytes are returned without a copy (the ArrayBuffer owns the writer's
// buffer). Bad arguments throw TypeErrors with code ENCODE_INVALID and the field at fault.
#pragma once

#include <napi.h>

namespace pesim::addon {

Napi::Value EncodeParquet(const Napi::CallbackInfo& info);
// writeParquetFile(fd, columns, names, metadata, codec) → bytes written: the same file, written
// to an open file descriptor from here, so that its bytes never become a JavaScript buffer (which
// V8 counts as external memory, pacing its garbage collections by it). A failed write throws an
// Error with the errno name as `code`, as Node's fs does.
Napi::Value WriteParquetFile(const Napi::CallbackInfo& info);

}  // namespace pesim::addon

// Parquet encoding of a result for the job runtime: encodeParquet(columns, names, metadata, codec)
// → Uint8Array holding the whole file (pesim/parquet.hpp: one row group, PLAIN doubles, pages of
// at most 1 MiB). Synchronous (it runs on the caller's thread: piscina workers); the columns are
// read in place, and the bytes are returned without a copy (the ArrayBuffer owns the writer's
// buffer). Bad arguments throw TypeErrors with code ENCODE_INVALID and the field at fault.
#pragma once

#include <napi.h>

namespace pesim::addon {

Napi::Value EncodeParquet(const Napi::CallbackInfo& info);
// writeParquetFile(fd, columns, names, metadata, codec, keepCodec?) → bytes written: the same file,
// written to an open file descriptor from here, so that its bytes never become a JavaScript buffer
// (which V8 counts as external memory, pacing its garbage collections by it). A failed write throws
// an Error with the errno name as `code`, as Node's fs does. keepCodec, an Int32Array of one entry
// per column, lets files of the same columns (a sweep's runs) share one codec trial: all -1, each
// column's codec is tried and the decisions (1 kept, 0 uncompressed) are written into it; each 0
// or 1, they are used as they are.
Napi::Value WriteParquetFile(const Napi::CallbackInfo& info);
// Parquet tables written one row group at a time (pesim/parquet.hpp, "Tables"); the caller writes
// "PAR1", then each group's bytes, then the footer:
// encodeParquetRowGroup(columns: (Float64Array | string[])[], offset, codec)
//   → {bytes: Uint8Array, chunks: Float64Array} (chunks: kChunkFields numbers per column, opaque
//   to the caller, handed back to the footer);
// encodeParquetTableFooter(names: string[], kinds: ("double" | "string")[], groups: {rows, chunks}[],
//   metadata) → Uint8Array (FileMetaData, its length, "PAR1").
Napi::Value EncodeParquetRowGroup(const Napi::CallbackInfo& info);
Napi::Value EncodeParquetTableFooter(const Napi::CallbackInfo& info);

}  // namespace pesim::addon

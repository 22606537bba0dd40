// Parquet storage of a result. Layout: one non-nullable Float64 column `time`, then one per signal,
// named exactly as the signal (in the result's key order) except that the empty name is written as
// `(unnamed)` (kept from the first writer, which could not write an empty name, so that files of
// both writers read alike); the metadata document (meta.ts: rows, signal names, checksums,
// measurements, stats) is the file's key-value metadata under the key `pesim`. Columns are read
// back by position and checked against that document, so any signal name works (even one called
// "time": duplicate column names are allowed).
//
// Writing is native: the addon's encodeParquet (native/core/src/io/parquet_writer.cpp) reads the
// Float64Arrays in place and returns the whole file (one row group, PLAIN doubles in pages of at
// most 1 MiB, created_by `pesim`; a column the codec would shrink by less than an eighth (snappy,
// lz4) or 3 % (gzip) on a sample is stored uncompressed, see native/core/include/pesim/parquet.hpp);
// writeParquetFile writes that file to a file descriptor instead. Reading goes through parquet-wasm, an independent
// implementation, so every round trip also checks the writer against another reader.
//
// Library notes: `#vendor/parquet-wasm` is parquet-wasm's CommonJS `node/` build, copied into
// dist/vendor at build time (scripts/build-vendor.mjs), as is the part of apache-arrow used here.
// That build instantiates its wasm
// synchronously on import, so no init() call is needed; the `esm/` build would need `await init()`
// and a fetch of the .wasm, which Node cannot do from a file path. The reader path is
// readParquet → Table.intoIPCStream → arrow tableFromIPC.
import { readFile, writeFile } from 'node:fs/promises';
import { DataType, Precision, tableFromIPC } from '#vendor/apache-arrow/index.js';
import { readParquet, readSchema } from '#vendor/parquet-wasm/parquet_wasm.js';
import { encodeParquet, writeParquetFile } from '../../../engine/result-codec.js';
import type { Compression, StoredResult } from '../../types.js';
import { DecodeError } from './errors.js';
import { assemble, decodeMeta, encodeMeta, owned, type ResultMeta } from './meta.js';

/** Key of the metadata document in the Parquet key-value metadata. */
export const PARQUET_META_KEY = 'pesim';

/** pesim compression → Parquet codec (lz4 is the LZ4_RAW codec; the old LZ4 one is deprecated). */
export const PARQUET_CODECS: Readonly<Partial<Record<Compression, string>>> = {
  none: 'UNCOMPRESSED',
  snappy: 'SNAPPY',
  gzip: 'GZIP',
  lz4: 'LZ4_RAW',
};

/** The Parquet column name of a signal. */
export function columnName(name: string): string {
  return name === '' ? '(unnamed)' : name;
}

/**
 * Runs a parquet-wasm call; a Rust panic (on damaged data) surfaces as a bare
 * WebAssembly.RuntimeError ("unreachable"), which is reworded. The module stays usable after one.
 */
function wasmCall<T>(what: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (!(error instanceof WebAssembly.RuntimeError)) throw error;
    throw new DecodeError(`the Parquet decoder aborted while reading the ${what} (${error.message}): damaged data`);
  }
}

/** The encoder's arguments for a result: columns, their names, the key-value metadata. */
function parquetArguments(result: StoredResult, names: string[], compression: Compression): [Float64Array[], string[], Record<string, string>] {
  if (PARQUET_CODECS[compression] === undefined) throw new Error(`parquet has no codec for ${compression}`);
  const columns = [result.time, ...names.map((name) => result.signals[name])];
  const columnNames = ['time', ...names.map(columnName)];
  return [columns, columnNames, { [PARQUET_META_KEY]: encodeMeta(result, names) }];
}

/** The result as the bytes of a Parquet file with the given codec. */
export function encodeParquetResult(result: StoredResult, names: string[], compression: Compression): Uint8Array {
  return encodeParquet(...parquetArguments(result, names, compression), compression);
}

/**
 * Writes the result as a Parquet file to the open file descriptor `fd`; returns its size.
 * `keepCodec`: the codec decisions files of the same columns share (writeParquetFile).
 */
export function writeParquetResultToFd(fd: number, result: StoredResult, names: string[], compression: Compression, keepCodec?: Int32Array): number {
  return writeParquetFile(fd, ...parquetArguments(result, names, compression), compression, keepCodec);
}

/** Writes the result to `path` as Parquet with the given codec. */
export async function writeParquetResult(path: string, result: StoredResult, names: string[], compression: Compression): Promise<void> {
  await writeFile(path, encodeParquetResult(result, names, compression));
}

/** The metadata document from the footer (read before any column data). */
function readMeta(bytes: Uint8Array): ResultMeta {
  const schema = readSchema(bytes);
  let text: string | undefined;
  try {
    text = schema.metadata().get(PARQUET_META_KEY);
  } finally {
    schema.free();
  }
  if (typeof text !== 'string') throw new DecodeError(`the file has no "${PARQUET_META_KEY}" key-value metadata (not written by pesim)`);
  return decodeMeta(text);
}

/** Reads a result written by writeParquetResult; throws on anything else. */
export async function readParquetResult(path: string): Promise<StoredResult> {
  const bytes = new Uint8Array(await readFile(path));
  if (bytes.length < 12) throw new DecodeError(`the file is ${bytes.length} bytes long, too short for Parquet`);
  const meta = wasmCall('footer', () => readMeta(bytes));
  // One batch for the whole file, so each column comes back as one contiguous array.
  const ipc = wasmCall('columns', () => readParquet(bytes, { batchSize: Math.max(meta.rows, 1) }).intoIPCStream());
  const table = tableFromIPC(ipc);
  const expected = ['time', ...meta.signals.map(columnName)];
  if (table.numCols !== expected.length) throw new DecodeError(`the file has ${table.numCols} columns, metadata lists ${expected.length}`);
  if (table.numRows !== meta.rows) throw new DecodeError(`the file has ${table.numRows} rows, metadata says ${meta.rows}`);
  const columns = expected.map((name, i) => {
    const field = table.schema.fields[i];
    if (field.name !== name) throw new DecodeError(`column ${i} is ${JSON.stringify(field.name)}, metadata says ${JSON.stringify(name)}`);
    if (!DataType.isFloat(field.type) || field.type.precision !== Precision.DOUBLE) throw new DecodeError(`column ${JSON.stringify(name)} is ${String(field.type)}, not Float64`);
    const vector = table.getChildAt(i);
    if (!vector || vector.nullCount > 0) throw new DecodeError(`column ${JSON.stringify(name)} is missing or has nulls`);
    const values: unknown = vector.toArray();
    if (!(values instanceof Float64Array)) throw new DecodeError(`column ${JSON.stringify(name)} did not decode to Float64 values`);
    return owned(values);
  });
  return assemble(meta, columns[0], columns.slice(1));
}

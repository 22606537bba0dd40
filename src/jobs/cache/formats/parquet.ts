// Parquet storage of a result. Layout: one non-nullable Float64 column `time`, then one per signal,
// named exactly as the signal (in the result's key order) except that the empty name, which
// parquet-wasm cannot write (it panics), is written as `(unnamed)`; the metadata document (meta.ts:
// rows, signal names, checksums, measurements, stats) is the file's key-value metadata under the
// key `pesim`. Columns are read back by position and checked against that document, so any signal
// name works (even one called "time": duplicate column names are allowed).
//
// Library notes: `parquet-wasm` resolves to its CommonJS `node/` build under Node (the "node"
// export condition; `parquet-wasm/node` is the same file). That build instantiates its wasm
// synchronously on import, so no init() call is needed; the `esm/` build would need `await init()`
// and a fetch of the .wasm, which Node cannot do from a file path. The writer path is
// apache-arrow Table → IPC stream → wasm Table.fromIPCStream → writeParquet (which consumes the
// wasm Table); the reader path is readParquet → Table.intoIPCStream → arrow tableFromIPC.
import { readFile, writeFile } from 'node:fs/promises';
import { DataType, Field, Float64, makeData, Precision, RecordBatch, Schema, Struct, Table, tableFromIPC, tableToIPC } from 'apache-arrow';
import {
  Compression as ParquetCompression,
  readParquet,
  readSchema,
  Table as WasmTable,
  writeParquet,
  WriterPropertiesBuilder,
} from 'parquet-wasm';
import type { Compression, StoredResult } from '../../types.js';
import { DecodeError } from './errors.js';
import { assemble, decodeMeta, encodeMeta, owned, type ResultMeta } from './meta.js';

/** Key of the metadata document in the Parquet key-value metadata. */
export const PARQUET_META_KEY = 'pesim';

/** pesim compression → Parquet codec (lz4 is the LZ4_RAW codec; the old LZ4 one is deprecated). */
export const PARQUET_CODECS: Partial<Record<Compression, ParquetCompression>> = {
  none: ParquetCompression.UNCOMPRESSED,
  snappy: ParquetCompression.SNAPPY,
  gzip: ParquetCompression.GZIP,
  lz4: ParquetCompression.LZ4_RAW,
};

/** The Parquet column name of a signal. */
export function columnName(name: string): string {
  return name === '' ? '(unnamed)' : name;
}

/** Whether two arrays share bytes of one ArrayBuffer. */
function overlaps(a: Float64Array, b: Float64Array): boolean {
  return a.buffer === b.buffer && a.byteOffset < b.byteOffset + b.byteLength && b.byteOffset < a.byteOffset + a.byteLength;
}

/**
 * The columns as given, except that a column sharing bytes with an earlier one is copied:
 * apache-arrow's IPC writer merges chunks that overlap in one ArrayBuffer and then writes a stream
 * that parquet-wasm rejects ("failed to fill whole buffer").
 */
function distinctColumns(columns: Float64Array[]): Float64Array[] {
  const out: Float64Array[] = [];
  for (const column of columns) out.push(out.some((earlier) => overlaps(earlier, column)) ? column.slice() : column);
  return out;
}

/** The result as an apache-arrow Table; the column data are the result's own arrays (no copy). */
function toArrowTable(result: StoredResult, names: string[]): Table {
  const columns = distinctColumns([result.time, ...names.map((name) => result.signals[name])]);
  const fields = ['time', ...names].map((name) => new Field(columnName(name), new Float64(), false));
  const schema = new Schema(fields);
  const length = result.time.length;
  const children = columns.map((data) => makeData({ type: new Float64(), length, nullCount: 0, data }));
  const batch = new RecordBatch(schema, makeData({ type: new Struct(fields), length, nullCount: 0, children }));
  return new Table(schema, [batch]);
}

/**
 * Runs a parquet-wasm call; a Rust panic (on damaged data, or on an empty column name) surfaces
 * as a bare WebAssembly.RuntimeError ("unreachable"), which is reworded. The module stays usable
 * after one.
 */
function wasmCall<T>(what: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (!(error instanceof WebAssembly.RuntimeError)) throw error;
    if (what === 'writing') throw new Error(`parquet-wasm aborted while writing (${error.message})`);
    throw new DecodeError(`the Parquet decoder aborted while reading the ${what} (${error.message}): damaged data`);
  }
}

/** The result as the bytes of a Parquet file with the given codec. */
export function encodeParquetResult(result: StoredResult, names: string[], compression: Compression): Uint8Array {
  const codec = PARQUET_CODECS[compression];
  if (codec === undefined) throw new Error(`parquet has no codec for ${compression}`);
  const ipc = tableToIPC(toArrowTable(result, names), 'stream');
  const properties = new WriterPropertiesBuilder()
    .setCompression(codec)
    // Waveform samples are nearly all distinct: a dictionary only costs time (≈ 4× the write).
    .setDictionaryEnabled(false)
    .setKeyValueMetadata(new Map([[PARQUET_META_KEY, encodeMeta(result, names)]]))
    .setCreatedBy('pesim')
    .build();
  // writeParquet consumes both the wasm table and the properties.
  return wasmCall('writing', () => writeParquet(WasmTable.fromIPCStream(ipc), properties));
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

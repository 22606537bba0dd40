// The addon's result-file helpers (native/addon/parquet.cc, native/addon/checksum.cc), typed: the
// result files (src/jobs/cache/formats) reach the native code only through these functions.
import { bindingFeature } from './binding.js';

export type ParquetCodec = 'none' | 'snappy' | 'gzip' | 'lz4';

interface ResultCodecBinding {
  columnChecksum(values: Float64Array): number;
  encodeParquet(columns: Float64Array[], names: string[], metadata: Record<string, string>, codec: ParquetCodec): Uint8Array;
  writeParquetFile(fd: number, columns: Float64Array[], names: string[], metadata: Record<string, string>, codec: ParquetCodec, keepCodec?: Int32Array): number;
  encodeParquetRowGroup(columns: (Float64Array | string[])[], offset: number, codec: ParquetCodec): ParquetRowGroup;
  encodeParquetTableFooter(names: string[], kinds: ParquetColumnKind[], groups: ParquetRowGroup[], metadata: Record<string, string>): Uint8Array;
}

export type ParquetColumnKind = 'double' | 'string';

/** One encoded row group of a Parquet table: its bytes and what the footer needs to know of them. */
export interface ParquetRowGroup {
  bytes: Uint8Array;
  /** Opaque to the caller: handed back to encodeParquetTableFooter. */
  chunks: Float64Array;
  rows?: number;
}

/** "PAR1": the first bytes of a Parquet file, before its first row group. */
export const PARQUET_MAGIC = Uint8Array.from([0x50, 0x41, 0x52, 0x31]);

/**
 * One row group of a Parquet table (native/core/include/pesim/parquet.hpp, "Tables"): columns of
 * doubles (Float64Array) or strings, of one common length; `offset` is the file position its first
 * byte goes to (4 for the first group, after "PAR1").
 */
export function encodeParquetRowGroup(columns: (Float64Array | string[])[], offset: number, codec: ParquetCodec): ParquetRowGroup {
  return bindingFeature<ResultCodecBinding>(['encodeParquetRowGroup'], 'Parquet table encoder').encodeParquetRowGroup(columns, offset, codec);
}

/** The end of a Parquet table: its FileMetaData for these columns and row groups, its length, "PAR1". */
export function encodeParquetTableFooter(names: string[], kinds: ParquetColumnKind[], groups: { rows: number; chunks: Float64Array }[], metadata: Record<string, string>): Uint8Array {
  return bindingFeature<ResultCodecBinding>(['encodeParquetTableFooter'], 'Parquet table encoder').encodeParquetTableFooter(names, kinds, groups as ParquetRowGroup[], metadata);
}

/**
 * CRC-32 of the column's bytes, with every NaN taken as the canonical NaN (formats that store text
 * cannot keep NaN payloads, and the checksum must not depend on them); carry-less multiplication
 * where the CPU has it.
 */
export function columnChecksum(values: Float64Array): number {
  return bindingFeature<ResultCodecBinding>(['columnChecksum'], 'column checksum').columnChecksum(values);
}

/**
 * A whole Parquet file: `columns` (one common length) under `names`, `metadata` as the key-value
 * metadata. Throws errors with code ENCODE_INVALID and `field` (columns[2], names, metadata.key,
 * codec) for bad arguments.
 */
export function encodeParquet(columns: Float64Array[], names: string[], metadata: Record<string, string>, codec: ParquetCodec): Uint8Array {
  return bindingFeature<ResultCodecBinding>(['encodeParquet'], 'Parquet encoder').encodeParquet(columns, names, metadata, codec);
}

/**
 * The same file written to the open file descriptor `fd` from native code (its bytes never become
 * a JavaScript buffer); returns its size. A failed write throws with the errno name as `code`.
 * `keepCodec` (one entry per column) lets files of the same columns share one codec trial: all -1,
 * each column's codec is tried and the decisions (1 kept, 0 uncompressed) are written into it;
 * each 0 or 1, they are used as they are (native/addon/parquet.hh).
 */
export function writeParquetFile(
  fd: number, columns: Float64Array[], names: string[], metadata: Record<string, string>, codec: ParquetCodec, keepCodec?: Int32Array,
): number {
  return bindingFeature<ResultCodecBinding>(['writeParquetFile'], 'Parquet encoder').writeParquetFile(fd, columns, names, metadata, codec, keepCodec);
}

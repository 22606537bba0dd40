// The addon's result-file helpers (native/addon/parquet.cc, native/addon/checksum.cc), typed: the
// result files (src/jobs/cache/formats) reach the native code only through these functions.
import { bindingFeature } from './binding.js';

export type ParquetCodec = 'none' | 'snappy' | 'gzip' | 'lz4';

interface ResultCodecBinding {
  columnChecksum(values: Float64Array): number;
  encodeParquet(columns: Float64Array[], names: string[], metadata: Record<string, string>, codec: ParquetCodec): Uint8Array;
  writeParquetFile(fd: number, columns: Float64Array[], names: string[], metadata: Record<string, string>, codec: ParquetCodec): number;
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
 */
export function writeParquetFile(fd: number, columns: Float64Array[], names: string[], metadata: Record<string, string>, codec: ParquetCodec): number {
  return bindingFeature<ResultCodecBinding>(['writeParquetFile'], 'Parquet encoder').writeParquetFile(fd, columns, names, metadata, codec);
}

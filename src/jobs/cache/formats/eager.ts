// Result-file writing inside worker threads. The Parquet and CSV codecs are imported statically
// (the wasm module loads once when the worker starts, not on its first task; under tsx, dynamic
// imports inside worker threads are not compiled). Parquet is encoded and written by the addon
// with blocking calls, which cost a worker nothing. HDF5 is not available here: h5wasm is an ES module
// that initialises asynchronously, which a worker loaded through require() (piscina under tsx)
// cannot import statically; workers return HDF5 results as arrays and the scheduler writes them.
import type { Compression, StorageFormat, StoredResult } from '../../types.js';
import { readCsvResult, writeCsvResult } from './csv.js';
import { checkCombination, preloadCodec, writeFileAtomicSyncWith, writeResult, type WriteOptions } from './index.js';
import { checkResult } from './meta.js';
import { readParquetResult, writeParquetResult, writeParquetResultToFd } from './parquet.js';

preloadCodec('parquet', { write: writeParquetResult, read: readParquetResult });
preloadCodec('csv', { write: writeCsvResult, read: readCsvResult });

/** Whether a worker thread can write results of this format itself. */
export function writableInWorker(format: StorageFormat): boolean {
  return format === 'parquet' || format === 'csv';
}

export interface WorkerWriteOptions extends WriteOptions {
  /**
   * Parquet: the codec decisions that files of the same columns share (the runs of a sweep), so
   * that the codec is tried on the columns of the first file only (writeParquetFile's keepCodec:
   * one entry per column, all -1 before that first file).
   */
  keepCodec?: Int32Array;
}

/** Writes a result file from a worker thread; returns its size in bytes. */
export async function writeResultInWorker(
  path: string,
  result: StoredResult,
  format: StorageFormat,
  compression: Compression,
  options: WorkerWriteOptions = {},
): Promise<number> {
  if (format !== 'parquet') return writeResult(path, result, format, compression, options);
  checkCombination(format, compression);
  const names = checkResult(result);
  return writeFileAtomicSyncWith(path, (fd) => writeParquetResultToFd(fd, result, names, compression, options.keepCodec), options);
}

// Imports the Parquet and CSV codecs statically and registers them, for worker threads that write
// result files: the wasm module loads once when the worker starts instead of on its first task.
// HDF5 is not among them: h5wasm is an ES module that initialises asynchronously, which a worker
// loaded through require() (piscina under tsx) cannot import statically; workers return HDF5 results
// as arrays and the scheduler writes them.
import { readCsvResult, writeCsvResult } from './csv.js';
import { preloadCodec, writeResult } from './index.js';
import { readParquetResult, writeParquetResult } from './parquet.js';
import type { StorageFormat } from '../../types.js';

preloadCodec('parquet', { write: writeParquetResult, read: readParquetResult });
preloadCodec('csv', { write: writeCsvResult, read: readCsvResult });

export const EAGER_FORMATS: readonly StorageFormat[] = ['parquet', 'csv'];
export { writeResult };

// Result files in the three storage formats: which format/compression pairs exist, file
// extensions, atomic writing (temporary file in the same directory, fsync, rename) and reading
// that turns every decoding failure into a CORRUPT_RESULT error. The layouts are described in
// parquet.ts, hdf5.ts and csv.ts; the metadata document they share in meta.ts. Each format module
// is imported on first use: parquet-wasm, apache-arrow and h5wasm compile or load wasm when
// imported (≈ 0.4 s together), which nothing that merely imports the job runtime should pay.
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Compression, StorageFormat, StoredResult } from '../../types.js';
import { CorruptResultError, UnsupportedCombinationError } from './errors.js';
import { checkResult } from './meta.js';

export { CorruptResultError, InvalidResultError, UnsupportedCombinationError } from './errors.js';

/** The compressions each format offers (Parquet's lz4 is the LZ4_RAW codec). */
export const SUPPORTED_COMPRESSIONS: Readonly<Record<StorageFormat, readonly Compression[]>> = {
  parquet: ['snappy', 'gzip', 'lz4', 'none'],
  hdf5: ['gzip', 'none'],
  csv: ['gzip', 'none'],
};

export interface FormatCodec {
  write(path: string, result: StoredResult, names: string[], compression: Compression): Promise<void>;
  read(path: string): Promise<StoredResult>;
}

const LOADERS: Readonly<Record<StorageFormat, () => Promise<FormatCodec>>> = {
  parquet: async () => {
    const { readParquetResult, writeParquetResult } = await import('./parquet.js');
    return { write: writeParquetResult, read: readParquetResult };
  },
  hdf5: async () => {
    const { readHdf5Result, writeHdf5Result } = await import('./hdf5.js');
    return { write: writeHdf5Result, read: readHdf5Result };
  },
  csv: async () => {
    const { readCsvResult, writeCsvResult } = await import('./csv.js');
    return { write: writeCsvResult, read: readCsvResult };
  },
};

// Codecs a module imported statically (eager.ts, for worker threads: under tsx, dynamic imports
// inside worker threads are not compiled) take precedence over the lazy loaders.
const preloaded = new Map<StorageFormat, FormatCodec>();

export function preloadCodec(format: StorageFormat, codec: FormatCodec): void {
  preloaded.set(format, codec);
}

const CODECS: Readonly<Record<StorageFormat, () => Promise<FormatCodec>>> = {
  parquet: async () => preloaded.get('parquet') ?? LOADERS.parquet(),
  hdf5: async () => preloaded.get('hdf5') ?? LOADERS.hdf5(),
  csv: async () => preloaded.get('csv') ?? LOADERS.csv(),
};

function isFormat(format: string): format is StorageFormat {
  return Object.hasOwn(SUPPORTED_COMPRESSIONS, format);
}

/** Throws UNSUPPORTED_COMBINATION unless `format` can store with `compression`. */
export function checkCombination(format: StorageFormat, compression: Compression): void {
  if (!isFormat(format)) throw new UnsupportedCombinationError(format, compression, []);
  const supported = SUPPORTED_COMPRESSIONS[format];
  if (!supported.includes(compression)) throw new UnsupportedCombinationError(format, compression, supported);
}

/** File name suffix, with its dot: .parquet, .h5, .csv or .csv.gz. */
export function fileExtension(format: StorageFormat, compression: Compression): string {
  switch (format) {
    case 'parquet':
      return '.parquet';
    case 'hdf5':
      return '.h5';
    case 'csv':
      return compression === 'gzip' ? '.csv.gz' : '.csv';
  }
}

/** A hidden temporary name beside `path`, unique across processes and threads (48 random bits). */
export function temporaryPath(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}-${randomHex6()}.tmp`);
}

/** Random bytes for temporary names, drawn from the system a block at a time (this thread's). */
const RANDOM_BLOCK = 6 * 256;
let randomBlock = Buffer.alloc(0);
let randomOffset = 0;

/** Six random bytes in hex: one call to the system per 256 names (one per name cost ≈ 0.02 ms). */
function randomHex6(): string {
  if (randomOffset + 6 > randomBlock.length) {
    randomBlock = randomBytes(RANDOM_BLOCK);
    randomOffset = 0;
  }
  randomOffset += 6;
  return randomBlock.toString('hex', randomOffset - 6, randomOffset);
}

/** A name temporaryPath makes; group 1 is the writer's process id. */
export const TEMPORARY_NAME = /^\..+\.(\d+)-[0-9a-f]{12}\.tmp$/;

/** Flushes a written file to the disk, so the rename never publishes a file still in flight. */
async function fsyncFile(path: string): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export interface WriteOptions {
  /** Flush the file to the device before it is renamed into place (default true). Without it the
   *  file survives a crash of the process but not necessarily an OS crash or power loss. */
  sync?: boolean;
}

/**
 * Writes the result to `path` (replacing any file there) and returns the file's size in bytes.
 * The data go to a temporary file beside it that is renamed into place when complete, so `path`
 * is either the old file, the new one, or absent — never half written.
 */
export async function writeResult(
  path: string,
  result: StoredResult,
  format: StorageFormat,
  compression: Compression,
  options: WriteOptions = {},
): Promise<number> {
  checkCombination(format, compression);
  const names = checkResult(result);
  const codec = await CODECS[format]();
  const temporary = temporaryPath(path);
  try {
    await codec.write(temporary, result, names, compression);
    if (options.sync !== false) await fsyncFile(temporary);
    const { size } = await stat(temporary);
    await rename(temporary, path);
    return size;
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * writeResult's protocol (temporary file, fsync, rename) with blocking calls, for worker threads
 * that have encoded the file already: a blocked worker costs nothing, and each asynchronous file
 * call would be a round trip through the shared libuv pool (the Parquet section of `npm run bench`).
 */
export function writeFileAtomicSync(path: string, bytes: Uint8Array, options: WriteOptions = {}): number {
  return writeFileAtomicSyncWith(path, (fd) => {
    for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset);
    return bytes.length;
  }, options);
}

/** writeFileAtomicSync with the content written by `write` to the temporary file's descriptor. */
export function writeFileAtomicSyncWith(path: string, write: (fd: number) => number, options: WriteOptions = {}): number {
  const file = new AtomicFileSync(path);
  let size: number;
  try {
    size = file.fill(write);
  } catch (error) {
    file.abort();
    throw error;
  }
  file.commit(options);
  return size;
}

/**
 * A file written in pieces with writeFileAtomicSync's protocol (temporary file beside `path`, fsync
 * when asked, rename into place): commit() publishes it, abort() removes what was written.
 */
export class AtomicFileSync {
  private readonly temporary: string;
  private fd: number;

  constructor(private readonly path: string) {
    this.temporary = temporaryPath(path);
    this.fd = openSync(this.temporary, 'w');
  }

  write(bytes: Uint8Array, offset: number, length: number): void {
    for (let done = 0; done < length; ) done += writeSync(this.fd, bytes, offset + done, length - done);
  }

  /** Content written by `write` to the temporary file's descriptor; returns what `write` returns. */
  fill(write: (fd: number) => number): number {
    return write(this.fd);
  }

  commit(options: WriteOptions = {}): void {
    try {
      if (options.sync !== false) fsyncSync(this.fd);
      this.closeFile();
      renameSync(this.temporary, this.path);
    } catch (error) {
      this.abort();
      throw error;
    }
  }

  abort(): void {
    this.closeFile();
    rmSync(this.temporary, { force: true });
  }

  private closeFile(): void {
    if (this.fd < 0) return;
    const fd = this.fd;
    this.fd = -1;
    closeSync(fd);
  }
}

/**
 * Reads a result file of the given format (the compression is found in the file). A missing or
 * unreadable file fails with the file system's error; a file whose content is not a result of
 * that format (truncated, garbage, another format) fails with CORRUPT_RESULT.
 */
export async function readResult(path: string, format: StorageFormat): Promise<StoredResult> {
  if (!isFormat(format)) throw new UnsupportedCombinationError(format, 'any', []);
  const codec = await CODECS[format]();
  const info = await stat(path);
  if (!info.isFile()) throw new CorruptResultError(path, format, 'it is not a regular file');
  try {
    return await codec.read(path);
  } catch (error) {
    if (error instanceof CorruptResultError) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    throw new CorruptResultError(path, format, detail);
  }
}

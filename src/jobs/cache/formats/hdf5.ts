// HDF5 storage of a result. Layout: a Float64 dataset `/time` [rows]; a group `/signals` with one
// Float64 dataset per signal, named by escapeName (`%` → %25, `/` → %2F, NUL → %00, the name "."
// → %2E, the empty name → %) since HDF5 link names cannot hold `/` or be "." or empty; the metadata
// document (meta.ts) as the string attribute `pesim` of the root group, whose signal list gives the
// real names and their order. With gzip, each non-empty dataset is chunked (≤ 65 536 points) and
// deflated at level 6; HDF5 offers no snappy or lz4 here.
//
// Library notes: `#vendor/h5wasm` is h5wasm's Node build (copied into dist/vendor at build time,
// scripts/build-vendor.mjs), built with Emscripten NODERAWFS, so `new h5wasm.File(path, mode)`
// opens the real file at that path (no copy into a virtual FS); all calls are synchronous once
// `await h5wasm.ready` has resolved. Opening a file that is not HDF5 does not throw: the File gets
// a negative file_id (and HDF5 prints its error stack straight to fd 2, which cannot be silenced
// from JS), so the reader checks the signature and the superblock's end-of-file address first, and
// the file_id after opening. `Dataset.value` ignores the status of H5Dread and returns whatever the
// buffer held when a chunk fails to inflate, so columns are read through the module's
// get_dataset_data directly and a negative status is an error; File.close()'s status is checked
// after writing.
import { open } from 'node:fs/promises';
import h5wasm from '#vendor/h5wasm/hdf5_hl.js';
import type { Compression, StoredResult } from '../../types.js';
import { DecodeError } from './errors.js';
import { assemble, decodeMeta, encodeMeta } from './meta.js';

export const HDF5_META_ATTRIBUTE = 'pesim';
const GZIP_LEVEL = 6;
const CHUNK_POINTS = 65_536;
const SIGNATURE = Buffer.from([0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a]);

type H5File = InstanceType<typeof h5wasm.File>;
type H5Module = Awaited<typeof h5wasm.ready>;

/** The dataset name of a signal inside `/signals` (injective; see the header). */
export function escapeName(name: string): string {
  const escaped = name.replace(/[%/\0]/g, (c) => (c === '%' ? '%25' : c === '/' ? '%2F' : '%00'));
  if (escaped === '.') return '%2E';
  if (escaped === '') return '%';
  return escaped;
}

function datasetOptions(length: number, compression: Compression): { compression?: 'gzip'; compression_opts?: number; chunks?: number[] } {
  if (compression !== 'gzip' || length === 0) return {};
  return { compression: 'gzip', compression_opts: GZIP_LEVEL, chunks: [Math.min(length, CHUNK_POINTS)] };
}

/** Writes the result to `path` as HDF5 (compression: gzip or none). */
export async function writeHdf5Result(path: string, result: StoredResult, names: string[], compression: Compression): Promise<void> {
  if (compression !== 'gzip' && compression !== 'none') throw new Error(`hdf5 has no codec for ${compression}`);
  await h5wasm.ready;
  const file = new h5wasm.File(path, 'w');
  if (file.file_id < 0n) throw new Error(`HDF5 could not create ${path}`);
  try {
    file.create_attribute(HDF5_META_ATTRIBUTE, encodeMeta(result, names));
    file.create_dataset({ name: 'time', data: result.time, ...datasetOptions(result.time.length, compression) });
    const group = file.create_group('signals');
    for (const name of names) {
      const data = result.signals[name];
      group.create_dataset({ name: escapeName(name), data, ...datasetOptions(data.length, compression) });
    }
  } catch (error) {
    file.close();
    throw error;
  }
  const status = file.close();
  if (status < 0) throw new Error(`HDF5 could not finish writing ${path} (status ${status})`);
}

/**
 * Checks the signature at offset 0 and that the file is at least as long as the end-of-file
 * address in its superblock (versions 0–3), so truncated or foreign files are refused cleanly.
 */
async function checkSuperblock(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const head = Buffer.alloc(128);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    if (bytesRead < SIGNATURE.length || !head.subarray(0, SIGNATURE.length).equals(SIGNATURE)) {
      throw new DecodeError('the HDF5 signature is missing');
    }
    const version = head[8];
    // Offset of the base address and the size of file addresses, per superblock version.
    const [baseAt, offsetSize] = version <= 1 ? [version === 0 ? 24 : 28, head[13]] : version <= 3 ? [12, head[9]] : [-1, 0];
    if (baseAt < 0) throw new DecodeError(`HDF5 superblock version ${version} is not supported`);
    if (offsetSize !== 4 && offsetSize !== 8) throw new DecodeError(`HDF5 superblock has an invalid address size ${offsetSize}`);
    // v0/1: base, free-space, EOF; v2/3: base, superblock extension, EOF.
    const eofAt = baseAt + 2 * offsetSize;
    if (bytesRead < eofAt + offsetSize) throw new DecodeError(`the file is truncated (${size} bytes, inside the superblock)`);
    const eof = offsetSize === 8 ? head.readBigUInt64LE(eofAt) : BigInt(head.readUInt32LE(eofAt));
    const base = offsetSize === 8 ? head.readBigUInt64LE(baseAt) : BigInt(head.readUInt32LE(baseAt));
    if (BigInt(size) < base + eof) throw new DecodeError(`the file is truncated (${size} bytes, the superblock says ${base + eof})`);
  } finally {
    await handle.close();
  }
}

function readColumn(module: H5Module, file: H5File, path: string, rows: number): Float64Array {
  const entity = file.get(path);
  if (!(entity instanceof h5wasm.Dataset)) throw new DecodeError(`dataset ${path} is missing`);
  if (entity.dtype !== '<d') throw new DecodeError(`dataset ${path} has type ${String(entity.dtype)}, not little-endian float64`);
  const shape = entity.shape;
  if (!shape || shape.length !== 1 || shape[0] !== rows) throw new DecodeError(`dataset ${path} has shape ${JSON.stringify(shape)}, metadata says [${rows}]`);
  if (rows === 0) return new Float64Array(0);
  const bytes = rows * Float64Array.BYTES_PER_ELEMENT;
  const pointer = module._malloc(bytes);
  if (!pointer) throw new Error(`HDF5 module could not allocate ${bytes} bytes`);
  try {
    const status = module.get_dataset_data(file.file_id, path, null, null, null, BigInt(pointer));
    if (status < 0) throw new DecodeError(`dataset ${path} could not be read (HDF5 status ${status}: damaged data)`);
    return new Float64Array(module.HEAPU8.slice(pointer, pointer + bytes).buffer);
  } finally {
    module._free(pointer);
  }
}

/** Reads a result written by writeHdf5Result; throws on anything else. */
export async function readHdf5Result(path: string): Promise<StoredResult> {
  await checkSuperblock(path);
  const module = await h5wasm.ready;
  const file = new h5wasm.File(path, 'r');
  if (file.file_id < 0n) throw new DecodeError('HDF5 could not open the file');
  try {
    const attribute = file.attrs[HDF5_META_ATTRIBUTE];
    const text = attribute?.value;
    if (typeof text !== 'string') throw new DecodeError(`the root group has no "${HDF5_META_ATTRIBUTE}" string attribute (not written by pesim)`);
    const meta = decodeMeta(text);
    const time = readColumn(module, file, '/time', meta.rows);
    const columns = meta.signals.map((name) => readColumn(module, file, `/signals/${escapeName(name)}`, meta.rows));
    return assemble(meta, time, columns);
  } finally {
    file.close();
  }
}

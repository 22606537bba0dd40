// The .ipes container: GeckoCIRCUITS saves its text gzip-compressed; files from before March 2009
// are raw zlib streams, and some tools write the text uncompressed. This file detects which of the
// three a byte array is (by its magic bytes, then by trying to inflate), and packs text as gzip.
// The inflated size is limited (default 64 MiB, env PESIM_MAX_INFLATED_BYTES) so that a
// decompression bomb fails fast with INPUT_TOO_LARGE instead of exhausting memory.
import { gunzipSync, gzipSync, inflateSync } from 'node:zlib';
import { NetlistError } from '../errors.js';

export type IpesContainer = 'gzip' | 'zlib' | 'text';

export interface DecodedIpes {
  text: string;
  container: IpesContainer;
}

const utf8 = new TextDecoder('utf-8');

/** Default limit of the decompressed (or plain) text of a circuit file: 64 MiB. */
export const DEFAULT_MAX_INFLATED_BYTES = 64 * 1024 * 1024;

/** The limit in force: `PESIM_MAX_INFLATED_BYTES` (a positive integer of bytes) or the default. */
export function maxInflatedBytes(): number {
  const fromEnv = process.env.PESIM_MAX_INFLATED_BYTES;
  if (fromEnv === undefined || fromEnv.trim() === '') return DEFAULT_MAX_INFLATED_BYTES;
  const value = Number(fromEnv);
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new NetlistError('CONFIG_INVALID', `PESIM_MAX_INFLATED_BYTES must be a positive integer number of bytes, got '${fromEnv}'`, [
      { field: 'PESIM_MAX_INFLATED_BYTES', message: 'must be a positive integer' },
    ]);
  }
  return value;
}

function tooLarge(fileName: string | undefined, limit: number, what: string): NetlistError {
  const where = fileName ?? 'the file';
  return new NetlistError('INPUT_TOO_LARGE', `${where}: ${what} is larger than the limit of ${limit} bytes (PESIM_MAX_INFLATED_BYTES)`, [
    { field: fileName ?? '(file)', message: `expected at most ${limit} bytes of circuit text`, line: 1 },
  ]);
}

/** Inflates with an output limit; Node stops at the limit with ERR_BUFFER_TOO_LARGE. */
function inflateLimited(inflate: typeof gunzipSync, bytes: Uint8Array, kind: string, limit: number, fileName?: string): Uint8Array {
  try {
    return inflate(bytes, { maxOutputLength: limit });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
      throw tooLarge(fileName, limit, `the decompressed ${kind} content`);
    }
    throw error;
  }
}

function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** zlib header: CM = 8 (deflate), and the 16-bit header is a multiple of 31 (RFC 1950). */
function isZlib(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && (bytes[0] & 0x0f) === 8 && ((bytes[0] << 8) | bytes[1]) % 31 === 0;
}

function inflateError(kind: string, fileName: string | undefined, error: unknown): NetlistError {
  const reason = error instanceof Error ? error.message : String(error);
  const where = fileName ?? 'the file';
  return new NetlistError('IPES_SYNTAX', `${where} starts like a ${kind} stream but cannot be decompressed: ${reason}`, [
    { field: fileName ?? '(file)', message: `corrupt ${kind} data: ${reason}`, line: 1 },
  ]);
}

/**
 * Returns the text of an .ipes file. Line endings are normalised to `\n`; a byte-order mark is
 * dropped. Text that is neither gzip nor zlib is taken as plain UTF-8 text.
 */
export function decodeIpes(bytes: Uint8Array, fileName?: string, limit: number = maxInflatedBytes()): DecodedIpes {
  let raw: Uint8Array;
  let container: IpesContainer;
  if (isGzip(bytes)) {
    try {
      raw = inflateLimited(gunzipSync, bytes, 'gzip', limit, fileName);
    } catch (error) {
      if (error instanceof NetlistError) throw error;
      throw inflateError('gzip', fileName, error);
    }
    container = 'gzip';
  } else if (isZlib(bytes)) {
    try {
      raw = inflateLimited(inflateSync, bytes, 'zlib', limit, fileName);
      container = 'zlib';
    } catch (error) {
      if (error instanceof NetlistError) throw error;
      // Two printable characters can form a valid zlib header by chance: read them as text.
      raw = bytes;
      container = 'text';
    }
  } else {
    raw = bytes;
    container = 'text';
  }
  if (raw.length > limit) throw tooLarge(fileName, limit, 'the circuit text');
  let text = utf8.decode(raw);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  text = text.replace(/\r\n?/g, '\n');
  return { text, container };
}

/** gzip-compresses .ipes text as GeckoCIRCUITS saves it. */
export function encodeIpes(text: string): Uint8Array {
  return new Uint8Array(gzipSync(Buffer.from(text, 'utf-8')));
}

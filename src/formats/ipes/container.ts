// The .ipes container: GeckoCIRCUITS saves its text gzip-compressed; files from before March 2009
// are raw zlib streams, and some tools write the text uncompressed. This file detects which of the
// three a byte array is (by its magic bytes, then by trying to inflate), and packs text as gzip.
import { gunzipSync, gzipSync, inflateSync } from 'node:zlib';
import { NetlistError } from '../errors.js';

export type IpesContainer = 'gzip' | 'zlib' | 'text';

export interface DecodedIpes {
  text: string;
  container: IpesContainer;
}

const utf8 = new TextDecoder('utf-8');

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
export function decodeIpes(bytes: Uint8Array, fileName?: string): DecodedIpes {
  let raw: Uint8Array;
  let container: IpesContainer;
  if (isGzip(bytes)) {
    try {
      raw = gunzipSync(bytes);
    } catch (error) {
      throw inflateError('gzip', fileName, error);
    }
    container = 'gzip';
  } else if (isZlib(bytes)) {
    try {
      raw = inflateSync(bytes);
      container = 'zlib';
    } catch {
      // Two printable characters can form a valid zlib header by chance: read them as text.
      raw = bytes;
      container = 'text';
    }
  } else {
    raw = bytes;
    container = 'text';
  }
  let text = utf8.decode(raw);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  text = text.replace(/\r\n?/g, '\n');
  return { text, container };
}

/** gzip-compresses .ipes text as GeckoCIRCUITS saves it. */
export function encodeIpes(text: string): Uint8Array {
  return new Uint8Array(gzipSync(Buffer.from(text, 'utf-8')));
}

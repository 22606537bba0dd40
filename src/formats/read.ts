// Reads a circuit file of any supported kind into the canonical netlist; the kind is detected
// from the content, not the file name.
import { NetlistError } from './errors.js';
import { assertNetlistShape, type Netlist } from './netlist.js';
import { maxInflatedBytes } from './ipes/container.js';
import { readIpes, type IpesReadOptions } from './ipes/read.js';
import { readSpice, type SpiceReadOptions } from './spice/read.js';

export type CircuitFormat = 'json' | 'ipes' | 'spice';

export interface ReadResult {
  format: CircuitFormat;
  netlist: Netlist;
  warnings: string[];
}

export function detectFormat(bytes: Uint8Array): CircuitFormat {
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) return 'ipes'; // gzip
  if (bytes.length >= 2 && bytes[0] === 0x78 && [0x01, 0x5e, 0x9c, 0xda].includes(bytes[1])) return 'ipes'; // zlib
  const head = new TextDecoder().decode(bytes.subarray(0, 4096)).trimStart();
  if (head.startsWith('{')) return 'json';
  if (/<ElementLK>|<Verbindung>|<ElementCONTROL>|\ntDURATION /.test(head) || /^verbindung|^e \(|^c \(/.test(head)) return 'ipes';
  return 'spice';
}

/**
 * Offset of a JSON syntax error. V8 names the position only for some errors, so this finds the
 * shortest prefix that fails for a reason other than ending early (binary search, O(log n) parses).
 */
function jsonErrorOffset(text: string): number {
  const failsInside = (length: number): boolean => {
    try {
      JSON.parse(text.slice(0, length));
      return false;
    } catch (error) {
      // A prefix that merely stops early fails at its own end (or with "end of JSON input").
      const message = (error as Error).message;
      const at = /position (\d+)/.exec(message);
      return at ? Number(at[1]) < length : !/end of JSON input/i.test(message);
    }
  };
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (failsInside(mid)) hi = mid;
    else lo = mid + 1;
  }
  return Math.max(0, lo - 1);
}

export function readJsonNetlist(text: string): Netlist {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const line = text.slice(0, jsonErrorOffset(text)).split('\n').length;
    throw new NetlistError('PARSE_ERROR', `Invalid JSON at line ${line}: ${message}`, [
      { field: `line ${line}`, message, line },
    ]);
  }
  assertNetlistShape(value);
  return value;
}

type Reader = (bytes: Uint8Array, fileName?: string, options?: ReadOptions) => { netlist: Netlist; warnings: string[] };

/**
 * Options of the readers: files beside the circuit file (GeckoCIRCUITS data files) and files a SPICE
 * deck includes (`files`, paths relative to the deck).
 */
export type ReadOptions = IpesReadOptions & SpiceReadOptions;

/**
 * Decodes a text file. Control characters other than tab, line breaks, form feed and escape mean
 * binary data (not a circuit): an error naming the line. Bytes that are not UTF-8 (a Latin-1 `µ` in
 * a comment) are decoded leniently; where they matter, the format's reader names the line.
 */
function textOf(bytes: Uint8Array, format: CircuitFormat, fileName?: string): string {
  const bad = bytes.findIndex((b) => b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x1b);
  if (bad >= 0) {
    const line = bytes.subarray(0, bad).reduce((n, b) => (b === 0x0a ? n + 1 : n), 1);
    const where = fileName ? `${fileName}:${line}` : `line ${line}`;
    const expected = format === 'json' ? 'a JSON netlist' : 'a SPICE deck, a GeckoCIRCUITS .ipes file or a JSON netlist';
    throw new NetlistError('PARSE_ERROR', `${where}: binary data (byte 0x${bytes[bad].toString(16).padStart(2, '0')} at offset ${bad}); expected ${expected}`, [
      { field: `line ${line}`, message: `expected text, found binary data; expected ${expected}`, line },
    ]);
  }
  return new TextDecoder().decode(bytes);
}

/** Readers by detected format. */
const READERS: Record<CircuitFormat, Reader> = {
  json: (bytes, fileName) => ({ netlist: readJsonNetlist(textOf(bytes, 'json', fileName)), warnings: [] }),
  ipes: (bytes, fileName, options) => readIpes(bytes, fileName, options),
  spice: (bytes, fileName, options) => readSpice(textOf(bytes, 'spice', fileName), fileName, options),
};

/**
 * Reads a circuit file of any supported kind. Files over the inflated-size limit
 * (PESIM_MAX_INFLATED_BYTES, default 64 MiB) are refused before parsing; compressed .ipes files are
 * limited in their decompressed size.
 */
export function readCircuitBytes(bytes: Uint8Array, fileName?: string, options: ReadOptions = {}): ReadResult {
  const limit = maxInflatedBytes();
  if (bytes.length > limit) {
    throw new NetlistError('INPUT_TOO_LARGE', `${fileName ?? 'the file'}: ${bytes.length} bytes is larger than the limit of ${limit} bytes (PESIM_MAX_INFLATED_BYTES)`, [
      { field: fileName ?? '(file)', message: `expected at most ${limit} bytes`, line: 1 },
    ]);
  }
  const format = detectFormat(bytes);
  try {
    return { format, ...READERS[format](bytes, fileName, options) };
  } catch (error) {
    const binary = error instanceof NetlistError && error.code === 'PARSE_ERROR';
    throw format === 'spice' && error instanceof NetlistError && !binary && !looksLikeSpice(bytes) ? notAnyFormat(error, fileName) : error;
  }
}

/** A SPICE deck has at least one dot card (`.tran`, `.end`); text without any is not one. */
function looksLikeSpice(bytes: Uint8Array): boolean {
  return /^[ \t]*\.[a-z]/im.test(new TextDecoder().decode(bytes.subarray(0, 1 << 20)));
}

/** A text that is none of the three formats: say what was tried, keep the SPICE reader's details. */
function notAnyFormat(error: NetlistError, fileName?: string): NetlistError {
  const what = fileName ?? 'the file';
  const tried = 'not a GeckoCIRCUITS .ipes file (neither gzip data nor <ElementLK>/<Verbindung> sections), not a JSON netlist (does not start with {), '
    + 'and not a SPICE deck (no dot card such as .tran or .end)';
  return new NetlistError(error.code, `${what}: ${tried}; the SPICE reader said: ${error.message}`, error.details);
}

export async function readCircuitFile(bytes: Uint8Array, fileName?: string, options: ReadOptions = {}): Promise<ReadResult> {
  return readCircuitBytes(bytes, fileName, options);
}

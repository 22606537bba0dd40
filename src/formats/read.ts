// Reads a circuit file of any supported kind into the canonical netlist; the kind is detected
// from the content, not the file name.
import { NetlistError } from './errors.js';
import { assertNetlistShape, type Netlist } from './netlist.js';

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

type Reader = (bytes: Uint8Array, fileName?: string) => { netlist: Netlist; warnings: string[] };

/** Readers by detected format; each format's reader registers here. */
const READERS: Partial<Record<CircuitFormat, Reader>> = {
  json: (bytes) => ({ netlist: readJsonNetlist(new TextDecoder().decode(bytes)), warnings: [] }),
};

export async function readCircuitFile(bytes: Uint8Array, fileName?: string): Promise<ReadResult> {
  const format = detectFormat(bytes);
  const reader = READERS[format];
  if (!reader) {
    throw new NetlistError('UNSUPPORTED_FORMAT', `${fileName ?? 'The file'} looks like a ${format} circuit, which this version cannot read; supported: ${Object.keys(READERS).join(', ')}`, [
      { field: fileName ?? '(file)', message: `unsupported format ${format}` },
    ]);
  }
  return { format, ...reader(bytes, fileName) };
}

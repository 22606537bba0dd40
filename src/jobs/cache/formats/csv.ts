// CSV storage of a result, optionally gzip-compressed as a whole (node:zlib). Layout, UTF-8, lines
// ended by "\n":
//   # pesim {metadata document (meta.ts): rows, names, checksums, measurements, stats}
//   time,<signal>,...           header, quoted by csv-stringify where a name needs it
//   <t>,<v>,...                 exactly `rows` data lines
// Numbers are JavaScript's shortest round-trip form (String(x)), plus "-0", "NaN", "Infinity" and
// "-Infinity", so every value reads back bit-identical, except that NaN payloads are not kept
// (every NaN reads back as the canonical NaN). Writing is streamed in blocks of rows and reading
// is streamed line by line, so a large result is never one giant string. Reading detects gzip by
// its magic bytes, and refuses a file whose header disagrees with the metadata, whose row count
// or field count is off, whose last line is not terminated, or which has text after the rows.
import { createReadStream, createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip, createGzip } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { Compression, StoredResult } from '../../types.js';
import { DecodeError } from './errors.js';
import { assemble, decodeMeta, encodeMeta, type ResultMeta } from './meta.js';

export const CSV_META_PREFIX = '# pesim ';
/** Rows per written block (one string of about rows × columns × 20 bytes). */
const BLOCK_ROWS = 8192;
const GZIP_LEVEL = 6;
/** Longest metadata line accepted (bytes of text); guards against reading garbage forever. */
const MAX_META_CHARS = 64 * 1024 * 1024;

/** The text of one value: shortest round-trip form, keeping the sign of zero. */
export function formatNumber(x: number): string {
  return x === 0 && 1 / x < 0 ? '-0' : String(x);
}

async function* csvText(result: StoredResult, names: string[]): AsyncGenerator<string> {
  yield `${CSV_META_PREFIX}${encodeMeta(result, names)}\n`;
  yield stringify([['time', ...names]]);
  const columns = [result.time, ...names.map((name) => result.signals[name])];
  const rows = result.time.length;
  for (let start = 0; start < rows; start += BLOCK_ROWS) {
    const end = Math.min(rows, start + BLOCK_ROWS);
    const lines = new Array<string>(end - start);
    for (let i = start; i < end; i++) {
      let line = formatNumber(columns[0][i]);
      for (let c = 1; c < columns.length; c++) line += `,${formatNumber(columns[c][i])}`;
      lines[i - start] = line;
    }
    yield `${lines.join('\n')}\n`;
  }
}

/** Writes the result to `path` as CSV (compression: gzip or none). */
export async function writeCsvResult(path: string, result: StoredResult, names: string[], compression: Compression): Promise<void> {
  if (compression !== 'gzip' && compression !== 'none') throw new Error(`csv has no codec for ${compression}`);
  const source = Readable.from(csvText(result, names));
  if (compression === 'gzip') await pipeline(source, createGzip({ level: GZIP_LEVEL }), createWriteStream(path));
  else await pipeline(source, createWriteStream(path));
}

/** Parses one data field; the empty string and non-numbers are refused. */
function parseNumber(text: string, row: number): number {
  const value = Number(text);
  if (text.length === 0 || (Number.isNaN(value) && text !== 'NaN')) {
    throw new DecodeError(`data row ${row + 1} has the field ${JSON.stringify(text.slice(0, 40))}, which is not a number`);
  }
  return value;
}

function countQuotes(text: string): number {
  let count = 0;
  for (let i = text.indexOf('"'); i >= 0; i = text.indexOf('"', i + 1)) count++;
  return count;
}

/** Line-by-line decoder of the CSV text: metadata line, header (maybe several lines), rows. */
class CsvResultDecoder {
  private state: 'meta' | 'header' | 'rows' = 'meta';
  private rest = '';
  private header = '';
  private headerQuotes = 0;
  private meta: ResultMeta | undefined;
  private columns: Float64Array[] = [];
  private row = 0;
  private maxLine = MAX_META_CHARS;
  private prefixChecked = false;

  /** Takes the next piece of text; only the new text is searched for line ends (linear time). */
  feed(text: string): void {
    let end = text.indexOf('\n');
    if (end >= 0) {
      this.line(this.rest + text.slice(0, end));
      let start = end + 1;
      for (end = text.indexOf('\n', start); end >= 0; end = text.indexOf('\n', start)) {
        this.line(text.slice(start, end));
        start = end + 1;
      }
      this.rest = text.slice(start);
    } else {
      this.rest += text;
    }
    if (this.rest.length > this.maxLine) throw new DecodeError(`a line is longer than ${this.maxLine} characters`);
    // Fail fast on a foreign file; checked once, as startsWith would flatten a growing rope each time.
    if (this.state === 'meta' && !this.prefixChecked && this.rest.length >= CSV_META_PREFIX.length) {
      if (!this.rest.startsWith(CSV_META_PREFIX)) throw new DecodeError(`the first line does not start with "${CSV_META_PREFIX.trim()}"`);
      this.prefixChecked = true;
    }
  }

  private line(text: string): void {
    if (this.state === 'meta') {
      if (!text.startsWith(CSV_META_PREFIX)) throw new DecodeError(`the first line does not start with "${CSV_META_PREFIX.trim()}"`);
      this.meta = decodeMeta(text.slice(CSV_META_PREFIX.length));
      // Grown as rows arrive (up to the listed count), so a lying row count costs no memory.
      const capacity = Math.min(this.meta.rows, BLOCK_ROWS);
      this.columns = Array.from({ length: 1 + this.meta.signals.length }, () => new Float64Array(capacity));
      this.state = 'header';
      return;
    }
    const meta = this.meta!;
    if (this.state === 'header') {
      this.header += this.header.length > 0 ? `\n${text}` : text;
      this.headerQuotes += countQuotes(text);
      if (this.headerQuotes % 2 === 1) return; // a quoted name holds a line break
      this.checkHeader(meta);
      this.state = 'rows';
      // A data line holds at most (1 + signals) numbers of ≤ 24 characters and their commas.
      this.maxLine = 32 * (1 + meta.signals.length) + 64;
      return;
    }
    if (this.row >= meta.rows) throw new DecodeError(`the file has more than the ${meta.rows} data rows its metadata lists`);
    const fields = text.split(',');
    if (fields.length !== this.columns.length) {
      throw new DecodeError(`data row ${this.row + 1} has ${fields.length} fields, expected ${this.columns.length}`);
    }
    if (this.row === this.columns[0].length) this.grow(meta.rows);
    for (let c = 0; c < fields.length; c++) this.columns[c][this.row] = parseNumber(fields[c], this.row);
    this.row++;
  }

  private grow(limit: number): void {
    const capacity = Math.min(limit, Math.max(BLOCK_ROWS, 2 * this.columns[0].length));
    this.columns = this.columns.map((column) => {
      const grown = new Float64Array(capacity);
      grown.set(column);
      return grown;
    });
  }

  private checkHeader(meta: ResultMeta): void {
    let records: unknown;
    try {
      records = parse(`${this.header}\n`);
    } catch (error) {
      throw new DecodeError(`the header line is not valid CSV (${(error as Error).message})`);
    }
    const expected = ['time', ...meta.signals];
    const names = Array.isArray(records) && records.length === 1 ? (records[0] as unknown) : undefined;
    if (!Array.isArray(names) || names.length !== expected.length || names.some((name, i) => name !== expected[i])) {
      throw new DecodeError('the header line does not match the signal names of the metadata');
    }
  }

  finish(): StoredResult {
    if (this.rest.length > 0) throw new DecodeError('the last line is not terminated (the file is truncated)');
    if (this.state === 'meta') throw new DecodeError('the file is empty or has no metadata line');
    if (this.state === 'header') throw new DecodeError('the header line is missing or incomplete');
    const meta = this.meta!;
    if (this.row !== meta.rows) throw new DecodeError(`the file has ${this.row} data rows, its metadata lists ${meta.rows} (truncated?)`);
    return assemble(meta, this.columns[0], this.columns.slice(1));
  }
}

async function isGzip(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const magic = Buffer.alloc(2);
    const { bytesRead } = await handle.read(magic, 0, 2, 0);
    return bytesRead === 2 && magic[0] === 0x1f && magic[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

/** Reads a result written by writeCsvResult (plain or gzip); throws on anything else. */
export async function readCsvResult(path: string): Promise<StoredResult> {
  const decoder = new CsvResultDecoder();
  const utf8 = new StringDecoder('utf8');
  const sink = async (chunks: AsyncIterable<Buffer>): Promise<void> => {
    for await (const chunk of chunks) decoder.feed(utf8.write(chunk));
    decoder.feed(utf8.end());
  };
  if (await isGzip(path)) await pipeline(createReadStream(path), createGunzip(), sink);
  else await pipeline(createReadStream(path), sink);
  return decoder.finish();
}

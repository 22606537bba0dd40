// Export of a completed simulation's waveforms (GET /simulations/{id}/export): CSV (`time,<signal>…`),
// JSON (`{time: [], signals: {name: []}}`) or Parquet, restricted to chosen signals and a time
// window and thinned to at most maxPoints rows by a fixed stride. CSV and JSON are generated in
// chunks as the client reads (never the whole text in memory); Parquet is written to a temporary
// file that is streamed and then removed.
import { createReadStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { writeResult } from '../jobs/cache/formats/index.js';
import type { StoredResult } from '../jobs/types.js';
import { validationError } from '../http/errors.js';

export type ExportFormat = 'csv' | 'json' | 'parquet';

export interface ExportOptions {
  format: ExportFormat;
  signals?: string[];
  start?: number;
  end?: number;
  maxPoints?: number;
}

export interface ExportBody {
  stream: Readable;
  contentType: string;
  extension: string;
}

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
  parquet: 'application/vnd.apache.parquet',
};

const ROWS_PER_CHUNK = 2000;

interface Selection {
  names: string[];
  rows: number[];
}

/** First index with time[i] >= t (binary search over the increasing time axis). */
function lowerBound(time: Float64Array, t: number): number {
  let lo = 0;
  let hi = time.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (time[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function select(result: StoredResult, options: ExportOptions): Selection {
  const available = Object.keys(result.signals);
  const names = options.signals ?? available;
  for (const name of names) {
    if (!available.includes(name)) throw validationError(`signals: no recorded signal ${name}; recorded: ${available.join(', ')}`, [{ field: 'signals', message: `unknown signal ${name}` }]);
  }
  const { start, end, maxPoints } = options;
  if (start !== undefined && end !== undefined && start > end) throw validationError('start must not be after end', [{ field: 'start', message: 'must not be after end' }]);
  if (maxPoints !== undefined && !(Number.isInteger(maxPoints) && maxPoints >= 2)) throw validationError('maxPoints must be an integer of at least 2', [{ field: 'maxPoints', message: 'must be an integer ≥ 2' }]);
  const from = start === undefined ? 0 : lowerBound(result.time, start);
  // Rows with time <= end (a small tolerance for the rounding of t = k·dt).
  const to = end === undefined ? result.time.length : lowerBound(result.time, end + Math.abs(end) * 1e-12 + 1e-300);
  const count = Math.max(0, to - from);
  const stride = maxPoints !== undefined && count > maxPoints ? Math.ceil(count / maxPoints) : 1;
  const rows: number[] = [];
  for (let i = from; i < to; i += stride) rows.push(i);
  return { names, rows };
}

const csvName = (name: string): string => (/[",\n\r]/.test(name) ? `"${name.replace(/"/g, '""')}"` : name);

function* csvChunks(result: StoredResult, { names, rows }: Selection): Generator<string> {
  yield `${['time', ...names].map(csvName).join(',')}\n`;
  const columns = names.map((n) => result.signals[n]);
  for (let first = 0; first < rows.length; first += ROWS_PER_CHUNK) {
    const lines: string[] = [];
    for (const i of rows.slice(first, first + ROWS_PER_CHUNK)) {
      let line = String(result.time[i]);
      for (const c of columns) line += `,${c[i]}`;
      lines.push(line);
    }
    yield `${lines.join('\n')}\n`;
  }
}

/** A JSON number (non-finite values, which JSON cannot carry, become null). */
const num = (v: number): string => (Number.isFinite(v) ? String(v) : 'null');

function* arrayChunks(values: Float64Array, rows: number[]): Generator<string> {
  yield '[';
  for (let first = 0; first < rows.length; first += ROWS_PER_CHUNK) {
    const part = rows.slice(first, first + ROWS_PER_CHUNK).map((i) => num(values[i]));
    yield (first > 0 ? ',' : '') + part.join(',');
  }
  yield ']';
}

function* jsonChunks(result: StoredResult, { names, rows }: Selection): Generator<string> {
  yield '{"time":';
  yield* arrayChunks(result.time, rows);
  yield ',"signals":{';
  for (const [k, name] of names.entries()) {
    yield `${k > 0 ? ',' : ''}${JSON.stringify(name)}:`;
    yield* arrayChunks(result.signals[name], rows);
  }
  yield '}}';
}

async function parquetStream(result: StoredResult, { names, rows }: Selection, tmpDir: string): Promise<Readable> {
  const pick = (values: Float64Array): Float64Array => Float64Array.from(rows, (i) => values[i]);
  const subset: StoredResult = {
    time: pick(result.time),
    signals: Object.fromEntries(names.map((n) => [n, pick(result.signals[n])])),
    measurements: result.measurements,
    stats: result.stats,
  };
  await mkdir(tmpDir, { recursive: true });
  const file = join(tmpDir, `export-${randomUUID()}.parquet`);
  await writeResult(file, subset, 'parquet', 'snappy');
  const stream = createReadStream(file);
  stream.once('close', () => void rm(file, { force: true }));
  return stream;
}

export async function exportResult(result: StoredResult, options: ExportOptions, tmpDir: string): Promise<ExportBody> {
  const selection = select(result, options);
  const contentType = CONTENT_TYPES[options.format];
  switch (options.format) {
    case 'csv':
      return { stream: Readable.from(csvChunks(result, selection)), contentType, extension: 'csv' };
    case 'json':
      return { stream: Readable.from(jsonChunks(result, selection)), contentType, extension: 'json' };
    case 'parquet':
      return { stream: await parquetStream(result, selection, tmpDir), contentType, extension: 'parquet' };
  }
}

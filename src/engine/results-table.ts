// The results table of a sweep: one row per run (its position, id, state, parameter values, every
// measurement, run time, error) as JSON, CSV or Parquet, generated piece by piece from an iterable
// of rows, so that a table of 100 000 runs never sits in memory whole: JSON and CSV in chunks of
// CHUNK_ROWS rows, Parquet in row groups of GROUP_ROWS rows (the addon's table writer,
// native/core/include/pesim/parquet.hpp). The services stream it (GET .../batch/{id}/results), the
// Node API writes it for simulateMany's rows.
//
// Columns, in order: run, the id, status, the parameters, the measurements, the duration, the
// error. In CSV a missing value is an empty cell; in JSON null; in Parquet NaN (numbers) or the
// empty string (text): Parquet's columns here are REQUIRED doubles and UTF-8 strings.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { encodeParquetRowGroup, encodeParquetTableFooter, PARQUET_MAGIC, type ParquetColumnKind, type ParquetRowGroup } from './result-codec.js';

export type ResultsTableFormat = 'json' | 'csv' | 'parquet';
export const RESULTS_TABLE_FORMATS: readonly ResultsTableFormat[] = ['json', 'csv', 'parquet'];

export const RESULTS_TABLE_CONTENT_TYPES: Record<ResultsTableFormat, string> = {
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  parquet: 'application/vnd.apache.parquet',
};

export interface ResultsTableRow {
  /** Position in the sweep, from 0. */
  run: number;
  id: string;
  status: string;
  parameters: Record<string, number>;
  /** By user-facing name (`SCOPE.1.ch1_avg`). */
  measurements: Record<string, number>;
  durationMs: number | null;
  errorMessage: string | null;
}

export interface ResultsTableLayout {
  /** Names of the fixed columns (the interfaces spell them their way: simulationId, task_id). */
  names: { run: string; id: string; status: string; duration: string; error: string };
  parameters: string[];
  measurements: string[];
  /** JSON: fields written before `parameters`, `measurements` and `rows` (the batch id); Parquet:
   *  key-value metadata (as JSON text under the key `pesim`). */
  head: Record<string, string | number>;
}

/** The rows of a table, in order (read as they are written). */
export type TableRows = Iterable<ResultsTableRow> | AsyncIterable<ResultsTableRow>;

export const CHUNK_ROWS = 500;
export const GROUP_ROWS = 8192;

/** A JSON number; NaN and ±Infinity, which JSON cannot spell, become null. */
const jsonNumber = (v: number | null | undefined): string => (v === null || v === undefined || !Number.isFinite(v) ? 'null' : String(v));

function jsonRecord(names: string[], values: Record<string, number>): string {
  const fields: string[] = [];
  for (const name of names) if (name in values) fields.push(`${JSON.stringify(name)}:${jsonNumber(values[name])}`);
  return `{${fields.join(',')}}`;
}

function jsonRow(layout: ResultsTableLayout, row: ResultsTableRow): string {
  const n = layout.names;
  return `{${JSON.stringify(n.run)}:${row.run},${JSON.stringify(n.id)}:${JSON.stringify(row.id)},${JSON.stringify(n.status)}:${JSON.stringify(row.status)},`
    + `"parameters":${jsonRecord(layout.parameters, row.parameters)},"measurements":${jsonRecord(layout.measurements, row.measurements)},`
    + `${JSON.stringify(n.duration)}:${jsonNumber(row.durationMs)},${JSON.stringify(n.error)}:${row.errorMessage === null ? 'null' : JSON.stringify(row.errorMessage)}}`;
}

const csvText = (text: string): string => (/[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
const csvNumber = (v: number | null | undefined): string => (v === null || v === undefined ? '' : String(v));

function csvHeader(layout: ResultsTableLayout): string {
  const n = layout.names;
  return `${[n.run, n.id, n.status, ...layout.parameters, ...layout.measurements, n.duration, n.error].map(csvText).join(',')}\n`;
}

function csvRow(layout: ResultsTableLayout, row: ResultsTableRow): string {
  const cells = [String(row.run), csvText(row.id), csvText(row.status)];
  for (const name of layout.parameters) cells.push(csvNumber(row.parameters[name]));
  for (const name of layout.measurements) cells.push(csvNumber(row.measurements[name]));
  cells.push(csvNumber(row.durationMs), row.errorMessage === null ? '' : csvText(row.errorMessage));
  return cells.join(',');
}

/** Groups of up to `size` rows, yielding to the event loop between groups (other requests go on). */
async function* groups(rows: TableRows, size: number): AsyncGenerator<ResultsTableRow[]> {
  let group: ResultsTableRow[] = [];
  for await (const row of rows) {
    group.push(row);
    if (group.length === size) {
      yield group;
      group = [];
      await yieldToEventLoop();
    }
  }
  if (group.length > 0) yield group;
}

async function* jsonChunks(layout: ResultsTableLayout, rows: TableRows): AsyncGenerator<string> {
  const head = Object.entries(layout.head).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)},`).join('');
  yield `{${head}"parameters":${JSON.stringify(layout.parameters)},"measurements":${JSON.stringify(layout.measurements)},"rows":[`;
  let first = true;
  for await (const group of groups(rows, CHUNK_ROWS)) {
    yield `${first ? '\n' : ',\n'}${group.map((row) => jsonRow(layout, row)).join(',\n')}`;
    first = false;
  }
  yield '\n]}\n';
}

async function* csvChunks(layout: ResultsTableLayout, rows: TableRows): AsyncGenerator<string> {
  yield csvHeader(layout);
  for await (const group of groups(rows, CHUNK_ROWS)) yield `${group.map((row) => csvRow(layout, row)).join('\n')}\n`;
}

/** The columns of one row group, in the table's column order. */
function parquetColumns(layout: ResultsTableLayout, group: ResultsTableRow[]): (Float64Array | string[])[] {
  const numbers = (read: (row: ResultsTableRow) => number | null | undefined): Float64Array =>
    Float64Array.from(group, (row) => read(row) ?? Number.NaN);
  return [
    numbers((row) => row.run),
    group.map((row) => row.id),
    group.map((row) => row.status),
    ...layout.parameters.map((name) => numbers((row) => row.parameters[name])),
    ...layout.measurements.map((name) => numbers((row) => row.measurements[name])),
    numbers((row) => row.durationMs),
    group.map((row) => row.errorMessage ?? ''),
  ];
}

async function* parquetChunks(layout: ResultsTableLayout, rows: TableRows): AsyncGenerator<Uint8Array> {
  const n = layout.names;
  const names = [n.run, n.id, n.status, ...layout.parameters, ...layout.measurements, n.duration, n.error];
  const kinds: ParquetColumnKind[] = names.map((_, i) => (i === 1 || i === 2 || i === names.length - 1 ? 'string' : 'double'));
  yield PARQUET_MAGIC;
  let offset = PARQUET_MAGIC.length;
  const written: { rows: number; chunks: Float64Array }[] = [];
  for await (const group of groups(rows, GROUP_ROWS)) {
    const encoded: ParquetRowGroup = encodeParquetRowGroup(parquetColumns(layout, group), offset, 'snappy');
    written.push({ rows: group.length, chunks: encoded.chunks });
    offset += encoded.bytes.length;
    yield encoded.bytes;
  }
  yield encodeParquetTableFooter(names, kinds, written, { pesim: JSON.stringify(layout.head) });
}

/** The table's text or bytes, piece by piece (for Readable.from, or to write to a file). */
export function resultsTableChunks(layout: ResultsTableLayout, rows: TableRows, format: ResultsTableFormat): AsyncGenerator<string | Uint8Array> {
  switch (format) {
    case 'json':
      return jsonChunks(layout, rows);
    case 'csv':
      return csvChunks(layout, rows);
    case 'parquet':
      return parquetChunks(layout, rows);
  }
}

const MEDIA_TYPES: Record<string, ResultsTableFormat> = {
  'application/json': 'json',
  'text/csv': 'csv',
  'application/vnd.apache.parquet': 'parquet',
  'application/x-parquet': 'parquet',
};

/**
 * The format a request asks for: `?format=` first, else the Accept header's preferred type among
 * application/json, text/csv and application/vnd.apache.parquet (by q-value, then order), else
 * JSON. Returns undefined for a `format` value that is not one of RESULTS_TABLE_FORMATS (the
 * caller answers 400).
 */
export function negotiateTableFormat(format: string | undefined, accept: string | undefined): ResultsTableFormat | undefined {
  if (format !== undefined) return (RESULTS_TABLE_FORMATS as readonly string[]).includes(format) ? (format as ResultsTableFormat) : undefined;
  const offers = (accept ?? '').split(',').map((part, order) => {
    const [type, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find((m) => m !== null);
    return { type: type.trim(), q: q ? Number(q[1]) : 1, order };
  });
  offers.sort((a, b) => b.q - a.q || a.order - b.order);
  const chosen = offers.find((offer) => offer.q > 0 && MEDIA_TYPES[offer.type] !== undefined);
  return chosen ? MEDIA_TYPES[chosen.type] : 'json';
}

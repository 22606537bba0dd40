// The metadata document every storage format carries beside its columns: format tag and version,
// row count, signal names in order, a CRC-32 of each column (time first; NaNs counted as the
// canonical NaN), measurements and run statistics, as exact JSON (src/store/exact-json.ts: NaN, ±Infinity
// and -0 survive). Also the shared checks and the assembly (with checksum verification) of a StoredResult.
import { columnChecksum as nativeColumnChecksum } from '../../../engine/result-codec.js';
import type { DeviceLossSummary, RunStats, SteadyReport } from '../../../engine/types.js';
import type { StoredResult } from '../../types.js';
import { parseExact, stringifyExact } from '../../../store/exact-json.js';
import { DecodeError, InvalidResultError } from './errors.js';

export const META_FORMAT = 'pesim-result';
export const META_VERSION = 1;
const STAT_NUMBERS = ['steps', 'preSteps', 'factorizations', 'cacheHits', 'switchingEvents', 'extraSolves', 'unknowns', 'wallMs'] as const;

/** The decoded metadata document. */
export interface ResultMeta {
  rows: number;
  signals: string[];
  /** CRC-32 of each column's bytes: time, then the signals in order. */
  checksums: number[];
  measurements: Record<string, number>;
  stats: RunStats;
  /** Device losses (absent when the run had no loss models). */
  losses?: DeviceLossSummary[];
  /** The steady-state report (periodic steady-state runs only). */
  steady?: SteadyReport;
}

/** Checks that the result can be stored (typed arrays, equal lengths) and returns its signal names. */
export function checkResult(result: StoredResult): string[] {
  if (!(result.time instanceof Float64Array)) throw new InvalidResultError('time is not a Float64Array');
  const names = Object.keys(result.signals);
  for (const name of names) {
    const values = result.signals[name];
    if (!(values instanceof Float64Array)) throw new InvalidResultError(`signal ${JSON.stringify(name)} is not a Float64Array`);
    if (values.length !== result.time.length) {
      throw new InvalidResultError(`signal ${JSON.stringify(name)} has ${values.length} points but time has ${result.time.length}`);
    }
  }
  return names;
}

/** CRC-32 of a column with NaNs canonical, computed in the addon (src/engine/result-codec.ts). */
export function columnChecksum(values: Float64Array): number {
  return nativeColumnChecksum(values);
}

/** The metadata document of a result, as one line of JSON. */
export function encodeMeta(result: StoredResult, names: string[]): string {
  const doc = {
    format: META_FORMAT,
    version: META_VERSION,
    rows: result.time.length,
    signals: names,
    checksums: [result.time, ...names.map((name) => result.signals[name])].map(columnChecksum),
    measurements: result.measurements,
    stats: result.stats,
    ...(result.losses && result.losses.length > 0 ? { losses: result.losses } : {}),
    ...(result.steady ? { steady: result.steady } : {}),
  };
  return stringifyExact(doc);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Parses and checks a metadata document; throws DecodeError saying what is wrong. */
export function decodeMeta(text: string): ResultMeta {
  let doc: unknown;
  try {
    doc = parseExact(text);
  } catch (error) {
    throw new DecodeError(`metadata is not valid JSON (${(error as Error).message})`);
  }
  if (!isRecord(doc) || doc.format !== META_FORMAT) throw new DecodeError(`metadata is not a ${META_FORMAT} document`);
  if (doc.version !== META_VERSION) throw new DecodeError(`metadata version ${String(doc.version)} is not supported (expected ${META_VERSION})`);
  const { rows, signals, checksums, measurements, stats, losses, steady } = doc;
  if (typeof rows !== 'number' || !Number.isSafeInteger(rows) || rows < 0) throw new DecodeError('metadata row count is not a non-negative integer');
  if (!Array.isArray(signals) || !signals.every((name) => typeof name === 'string')) throw new DecodeError('metadata signal list is not a list of names');
  if (new Set(signals).size !== signals.length) throw new DecodeError('metadata signal list repeats a name');
  if (!Array.isArray(checksums) || checksums.length !== signals.length + 1 || !checksums.every((c) => Number.isInteger(c) && c >= 0 && c <= 0xffffffff)) {
    throw new DecodeError('metadata checksums are not one CRC-32 per column');
  }
  if (!isRecord(measurements) || !Object.values(measurements).every((v) => typeof v === 'number')) {
    throw new DecodeError('metadata measurements are not a record of numbers');
  }
  if (!isRecord(stats)) throw new DecodeError('metadata stats are missing');
  for (const field of STAT_NUMBERS) {
    if (typeof stats[field] !== 'number') throw new DecodeError(`metadata stats.${field} is not a number`);
  }
  if (stats.solver !== 'dense' && stats.solver !== 'sparse') throw new DecodeError('metadata stats.solver is not dense or sparse');
  if (losses !== undefined && !(Array.isArray(losses) && losses.every((l) => isRecord(l) && typeof l.device === 'string'))) {
    throw new DecodeError('metadata losses are not a list of device losses');
  }
  if (steady !== undefined && !(isRecord(steady) && typeof steady.converged === 'boolean' && typeof steady.period === 'number')) {
    throw new DecodeError('metadata steady is not a steady-state report');
  }
  return {
    ...(losses !== undefined ? { losses: losses as DeviceLossSummary[] } : {}),
    ...(steady !== undefined ? { steady: steady as unknown as SteadyReport } : {}),
    rows,
    signals: signals as string[],
    checksums: checksums as number[],
    measurements: measurements as Record<string, number>,
    stats: stats as unknown as RunStats,
  };
}

/**
 * A Float64Array that owns its whole ArrayBuffer (copying a view when needed), so a caller may
 * transfer it to another thread without detaching other arrays.
 */
export function owned(values: Float64Array): Float64Array {
  return values.byteOffset === 0 && values.byteLength === values.buffer.byteLength ? values : values.slice();
}

/** Builds the result from decoded columns (time first, then the signals in meta order), checking
 * each column's length and checksum. */
export function assemble(meta: ResultMeta, time: Float64Array, columns: Float64Array[]): StoredResult {
  if (columns.length !== meta.signals.length) throw new DecodeError(`${columns.length} signal columns, metadata lists ${meta.signals.length}`);
  [time, ...columns].forEach((values, i) => {
    const what = i === 0 ? 'time' : `signal ${JSON.stringify(meta.signals[i - 1])}`;
    if (values.length !== meta.rows) throw new DecodeError(`${what} has ${values.length} points, metadata says ${meta.rows}`);
    if (columnChecksum(values) !== meta.checksums[i]) throw new DecodeError(`${what} does not match its checksum (damaged data)`);
  });
  return {
    time,
    // fromEntries defines own properties, so even a signal named "__proto__" stays a signal.
    signals: Object.fromEntries(meta.signals.map((name, i) => [name, columns[i]])),
    measurements: meta.measurements,
    stats: meta.stats,
    ...(meta.losses ? { losses: meta.losses } : {}),
    ...(meta.steady ? { steady: meta.steady } : {}),
  };
}

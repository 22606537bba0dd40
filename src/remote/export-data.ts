// A run's waveforms as a file (exportData, `pesim run --out`). CSV is `time,<signal>,...` with one
// row per sample; JSON is `{time: [...], signals: {"<signal>": [...]}}`; Parquet goes through the
// result files' codec (one Float64 column per signal, snappy). Signals are named by their channel
// key (`SCOPE.1.ch1`) unless a name map says otherwise. Written atomically (temporary file + rename).
import { writeFileAtomicSync, writeResult } from '../jobs/cache/formats/index.js';
import type { SimulationResult } from '../engine/simulate.js';
import { RemoteError, type RemoteExportFormat } from './types.js';

export const EXPORT_FORMATS: readonly RemoteExportFormat[] = ['csv', 'json', 'parquet'];

/** Channel key → the name a file shows. */
export type SignalNames = Map<string, string>;

function keyNames(result: SimulationResult): SignalNames {
  return new Map(result.channels.map((c) => [c.key, c.key]));
}

function csvText(result: SimulationResult, names: SignalNames): string {
  const keys = [...names.keys()];
  const rows = [['time', ...keys.map((k) => names.get(k))].join(',')];
  for (let i = 0; i < result.time.length; i++) rows.push([result.time[i], ...keys.map((k) => result.signals[k][i])].join(','));
  return rows.join('\n') + '\n';
}

function jsonText(result: SimulationResult, names: SignalNames): string {
  const signals: Record<string, number[]> = {};
  for (const [key, name] of names) signals[name] = Array.from(result.signals[key]);
  return JSON.stringify({ time: Array.from(result.time), signals });
}

function writeAtomically(path: string, text: string): void {
  writeFileAtomicSync(path, Buffer.from(text));
}

export function checkExportFormat(format: unknown): RemoteExportFormat {
  const lower = typeof format === 'string' ? format.toLowerCase() : format;
  if (!EXPORT_FORMATS.includes(lower as RemoteExportFormat)) {
    throw new RemoteError('INVALID_ARGUMENT', `exportData: format must be one of ${EXPORT_FORMATS.join(', ')}, got ${JSON.stringify(format)}`);
  }
  return lower as RemoteExportFormat;
}

export async function exportResult(path: string, format: RemoteExportFormat, result: SimulationResult, names: SignalNames = keyNames(result)): Promise<void> {
  if (format === 'csv') return writeAtomically(path, csvText(result, names));
  if (format === 'json') return writeAtomically(path, jsonText(result, names));
  const signals: Record<string, Float64Array> = {};
  for (const [key, name] of names) signals[name] = result.signals[key];
  await writeResult(path, { time: result.time, signals, measurements: result.measurements, stats: result.stats }, 'parquet', 'snappy');
}

// exportData: the last run's waveforms as a file. CSV is `time,<scope>.ch<n>,...` with one row per
// sample; JSON is `{time: [...], signals: {"<scope>.ch<n>": [...]}}`; Parquet goes through the result
// files' codec (one Float64 column per signal, snappy). Written atomically (temporary file + rename).
import { rename, writeFile } from 'node:fs/promises';
import { writeResult } from '../jobs/cache/formats/index.js';
import type { SimulationResult } from '../engine/simulate.js';
import { ControlError, type ControlExportFormat } from './types.js';

export const EXPORT_FORMATS: readonly ControlExportFormat[] = ['csv', 'json', 'parquet'];

function csvText(result: SimulationResult): string {
  const keys = result.channels.map((c) => c.key);
  const rows = [['time', ...keys].join(',')];
  for (let i = 0; i < result.time.length; i++) rows.push([result.time[i], ...keys.map((k) => result.signals[k][i])].join(','));
  return rows.join('\n') + '\n';
}

function jsonText(result: SimulationResult): string {
  const signals: Record<string, number[]> = {};
  for (const c of result.channels) signals[c.key] = Array.from(result.signals[c.key]);
  return JSON.stringify({ time: Array.from(result.time), signals });
}

async function writeAtomically(path: string, text: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, path);
}

export function checkExportFormat(format: unknown): ControlExportFormat {
  const lower = typeof format === 'string' ? format.toLowerCase() : format;
  if (!EXPORT_FORMATS.includes(lower as ControlExportFormat)) {
    throw new ControlError('INVALID_ARGUMENT', `exportData: format must be one of ${EXPORT_FORMATS.join(', ')}, got ${JSON.stringify(format)}`);
  }
  return lower as ControlExportFormat;
}

export async function exportResult(path: string, format: ControlExportFormat, result: SimulationResult): Promise<void> {
  if (format === 'csv') return writeAtomically(path, csvText(result));
  if (format === 'json') return writeAtomically(path, jsonText(result));
  await writeResult(path, { time: result.time, signals: result.signals, measurements: result.measurements, stats: result.stats }, 'parquet', 'snappy');
}

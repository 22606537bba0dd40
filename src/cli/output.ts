// Output helpers of the command line: user-facing signal names, CSV text, and the signal file
// `pesim run --out` writes (.csv as plain `time,<signal>,...` text; .parquet through the result
// cache's Parquet codec: one Float64 column per signal, snappy-compressed, written atomically).
import { writeFile } from 'node:fs/promises';
import type { SimulationResult } from '../engine/index.js';
import type { CircuitFormat } from '../formats/read.js';
import { writeResult } from '../jobs/cache/formats/index.js';

/**
 * Maps channel keys to the names users see: for SPICE decks the channel labels (`V(out)`,
 * `I(L1)`), otherwise the channel key (`SCOPE.1.ch1`) — labels of .ipes scopes are not unique.
 */
export function signalNames(result: SimulationResult, format: CircuitFormat): Map<string, string> {
  const names = new Map<string, string>();
  for (const channel of result.channels) {
    names.set(channel.key, format === 'spice' && channel.label ? channel.label : channel.key);
  }
  return names;
}

export function toCsv(result: SimulationResult, names: Map<string, string>): string {
  const keys = [...names.keys()];
  const lines = [['time', ...keys.map((k) => names.get(k))].join(',')];
  for (let i = 0; i < result.time.length; i++) {
    lines.push([result.time[i], ...keys.map((k) => result.signals[k][i])].join(','));
  }
  return lines.join('\n') + '\n';
}

export const OUTPUT_EXTENSIONS = ['.csv', '.parquet'] as const;

/** Throws unless the file name ends in a supported output extension (checked before the run). */
export function checkOutputPath(path: string): void {
  if (!OUTPUT_EXTENSIONS.some((ext) => path.toLowerCase().endsWith(ext))) {
    throw new Error(`--out: cannot write ${path}: expected a file name ending in ${OUTPUT_EXTENSIONS.join(' or ')}`);
  }
}

/** Writes the recorded signals under their user-facing names, as CSV or Parquet by extension. */
export async function writeSignals(path: string, result: SimulationResult, names: Map<string, string>): Promise<void> {
  checkOutputPath(path);
  if (path.toLowerCase().endsWith('.csv')) {
    await writeFile(path, toCsv(result, names));
    return;
  }
  const signals: Record<string, Float64Array> = {};
  for (const [key, name] of names) signals[name] = result.signals[key];
  await writeResult(path, { time: result.time, signals, measurements: result.measurements, stats: result.stats }, 'parquet', 'snappy');
}

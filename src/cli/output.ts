// Output helpers of the command line: user-facing signal names and the signal file `pesim run --out`
// writes (.csv or .parquet, by the same writer as the remote control's exportData).
import { exportResult } from '../remote/export-data.js';
import type { SimulationResult } from '../engine/index.js';
import type { CircuitFormat } from '../formats/read.js';

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
  await exportResult(path, path.toLowerCase().endsWith('.csv') ? 'csv' : 'parquet', result, names);
}

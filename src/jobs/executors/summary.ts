// What the scheduler keeps with a completed task from a result it has the arrays of.
import type { StoredResult } from '../types.js';
import type { RunSummary } from './types.js';

export function runSummary(result: StoredResult): RunSummary {
  const summary: RunSummary = { measurements: result.measurements, signals: Object.keys(result.signals), stats: result.stats };
  if (result.steady) summary.steady = result.steady;
  return summary;
}

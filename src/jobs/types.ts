// Types of the job runtime: the store's records (re-exported: src/store/records.ts owns them) and
// the result of a run as the result files and the cache keep it.
import type { DeviceLossSummary, RunStats, SteadyReport } from '../engine/types.js';

export * from '../store/records.js';

/** A simulation result as stored on disk (result files and cache entries). */
export interface StoredResult {
  time: Float64Array;
  signals: Record<string, Float64Array>;
  measurements: Record<string, number>;
  stats: RunStats;
  /** Device losses of the run (engine loss models), when it had any. */
  losses?: DeviceLossSummary[];
  /** The steady-state report when the run was a periodic steady-state analysis (one settled period). */
  steady?: SteadyReport;
}


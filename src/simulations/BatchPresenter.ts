// Response shapes of the batch endpoints: the submission and the batch status of
// docs/spec/simulation-service.md §2.5 (counts per state, overall progress, per-simulation entries).
import type { BatchEntryRow } from '../store/batch-results.js';
import type { BatchStatusData } from './BatchService.js';
import type { SimulationState } from './SimulationPresenter.js';

export interface BatchSubmission {
  batchId: string;
  simulationIds: string[];
  totalSimulations: number;
}

export interface BatchEntry {
  status: SimulationState;
  /** Percent complete. */
  progress: number;
  /** The parameter overrides of this simulation. */
  parameterSet: Record<string, number>;
  /** Present when failed. */
  errorMessage?: string;
}

export interface BatchStatus {
  batchId: string;
  totalSimulations: number;
  completed: number;
  failed: number;
  running: number;
  /** Queued, not started yet. */
  pending: number;
  paused: number;
  cancelled: number;
  /** Percent of the batch done (finished simulations count 100 %). */
  overallProgress: number;
  /** Every simulation has finished (completed, failed or cancelled). */
  done: boolean;
  submittedAt: string;
  /** One entry per simulation of the requested page (`limit`, `offset`; the first 1 000 by default), in batch order. */
  simulations: Record<string, BatchEntry>;
  /** Failed simulations (at most `limit` of them). */
  failedIds: string[];
}

/** How far the simulation got: 100 when completed, where it stopped when failed or cancelled. */
function percentOf(entry: BatchEntryRow): number {
  if (entry.state === 'completed') return 100;
  return entry.progress?.phase === 'main' ? entry.progress.percent : 0;
}

/**
 * Counts from the store's index; the overall progress counts every finished run as 100 % and each
 * running or paused one at its live percent, so nothing here grows with the batch but the page of
 * entries.
 */
export function presentBatchStatus({ batch, counts, running, entries, failedIds }: BatchStatusData): BatchStatus {
  const count = (state: SimulationState): number => counts[state] ?? 0;
  const simulations: Record<string, BatchEntry> = {};
  for (const e of entries) {
    simulations[e.taskId] = {
      status: e.state,
      progress: percentOf(e),
      parameterSet: e.parameters,
      ...(e.state === 'failed' ? { errorMessage: e.errorMessage ?? 'the simulation failed' } : {}),
    };
  }
  const finished = count('completed') + count('failed') + count('cancelled');
  const live = running.reduce((sum, r) => sum + (r.progress.phase === 'main' ? r.progress.percent : r.progress.phase === 'done' ? 100 : 0), 0);
  const total = batch.size;
  const overall = total === 0 ? 100 : (finished * 100 + live) / total;
  return {
    batchId: batch.id,
    totalSimulations: total,
    completed: count('completed'),
    failed: count('failed'),
    running: count('running'),
    pending: count('queued'),
    paused: count('paused'),
    cancelled: count('cancelled'),
    overallProgress: Math.round(overall * 100) / 100,
    done: finished === total,
    submittedAt: batch.createdAt,
    simulations,
    failedIds,
  };
}

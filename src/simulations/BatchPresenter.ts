// Response shapes of the batch endpoints: the submission and the batch status of
// docs/spec/simulation-service.md §2.5 (counts per state, overall progress, per-simulation entries).
import type { TaskRecord } from '../jobs/types.js';
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
  simulations: Record<string, BatchEntry>;
  failedIds: string[];
}

/** How far the simulation got: 100 when completed, where it stopped when failed or cancelled. */
function percentOf(task: TaskRecord): number {
  if (task.state === 'completed') return 100;
  return task.progress?.phase === 'main' ? task.progress.percent : 0;
}

/** Its share of the batch's progress: every finished simulation counts 100 %. */
function shareOf(task: TaskRecord): number {
  return task.state === 'failed' || task.state === 'cancelled' ? 100 : percentOf(task);
}

export function presentBatchStatus({ batch, tasks }: BatchStatusData): BatchStatus {
  const count = (state: SimulationState): number => tasks.filter((t) => t.state === state).length;
  const simulations: Record<string, BatchEntry> = {};
  for (const t of tasks) {
    simulations[t.id] = {
      status: t.state,
      progress: percentOf(t),
      parameterSet: { ...t.spec.parameters },
      ...(t.state === 'failed' ? { errorMessage: t.errorMessage ?? 'the simulation failed' } : {}),
    };
  }
  const finished = count('completed') + count('failed') + count('cancelled');
  const overall = tasks.length === 0 ? 100 : tasks.reduce((sum, t) => sum + shareOf(t), 0) / tasks.length;
  return {
    batchId: batch.id,
    totalSimulations: tasks.length,
    completed: count('completed'),
    failed: count('failed'),
    running: count('running'),
    pending: count('queued'),
    paused: count('paused'),
    cancelled: count('cancelled'),
    overallProgress: Math.round(overall * 100) / 100,
    done: finished === tasks.length,
    submittedAt: batch.createdAt,
    simulations,
    failedIds: tasks.filter((t) => t.state === 'failed').map((t) => t.id),
  };
}

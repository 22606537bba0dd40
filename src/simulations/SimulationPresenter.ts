// Response shapes of the simulation endpoints (docs/spec/decisions.md §1.3): submission, status with results,
// list entries, ProgressDetails (docs/spec/simulation-service.md §2.3) and state changes. The only place
// these bodies are built. Measurement keys are `<SCOPE>.<index>.ch<n>_<avg|rms|min|max>`.
import { namedMeasurements } from '../engine/measurement-names.js';
import type { TaskProgress, TaskRecord } from '../jobs/types.js';
import type { StoredRequest } from './SimulationRequest.js';
import type { SteadyReport } from '../engine/types.js';

export type SimulationState = 'queued' | 'running' | 'paused' | 'completed' | 'failed' | 'cancelled';

export interface ProgressDetails {
  /** Initial-condition (pre-simulation) progress, percent 0–100. */
  preCalcProgress: number;
  /** Main transient progress, percent 0–100. */
  mainSimProgress: number;
  currentStep: number;
  totalSteps: number;
  /** Estimated remaining time [ms] from the step rate so far; 0 once the run has ended, and 0 while no rate is known yet (queued, or before the first progress report). */
  estimatedRemainingMs: number;
}

export interface SimulationResults {
  /** `<SCOPE>.<index>.ch<n>_avg|_rms|_min|_max` over the measurement window (a steady-state run: over the settled period). */
  measurements: Record<string, number>;
  /** Recorded signal names (for export). */
  signals: string[];
  /** How the settled period was found: present for steady-state runs (request field `steady`; docs/steady-state.md). */
  steady?: SteadyReport;
  /** The labels of the recorded scope channels that have one, by signal name (`SCOPE.1.ch3` → `u2`). */
  labels: Record<string, string>;
}

export interface SubmissionResponse {
  simulationId: string;
  status: SimulationState;
  batchId: string | null;
  /** True when the result came from the result cache (status is completed at once). */
  cacheHit: boolean;
}

export interface SimulationStatus {
  simulationId: string;
  status: SimulationState;
  priority: 'CRITICAL' | 'HIGH' | 'NORMAL' | 'LOW';
  progress: ProgressDetails;
  circuitName: string;
  batchId: string | null;
  submittedAt: string;
  startedAt: string | null;
  completedAt: string | null;
  /** Run time of the completed simulation [ms] (engine time; for a cache hit, the run that filled the entry). */
  durationMs: number | null;
  cacheHit: boolean;
  request: StoredRequest;
  /** Present once completed. */
  results: SimulationResults | null;
  errorMessage: string | null;
}

export interface SimulationSummary {
  simulationId: string;
  status: SimulationState;
  /** Percent complete. */
  progress: number;
  circuitName: string;
  batchId: string | null;
  submittedAt: string;
  startedAt: string | null;
  completedAt: string | null;
}

export interface SimulationList {
  simulations: SimulationSummary[];
  total: number;
}

export interface StateChange {
  simulationId: string;
  status: SimulationState;
}

/** Engine measurement keys `SCOPE.1.ch1.avg` → API keys `SCOPE.1.ch1_avg` (src/engine/measurement-names.ts). */
export function presentMeasurements(measurements: Record<string, number>): Record<string, number> {
  return namedMeasurements(measurements);
}

export function presentProgress(task: TaskRecord, live: TaskProgress | null): ProgressDetails {
  const totalSteps = Math.round(task.spec.netlist.settings.tEnd / task.spec.netlist.settings.dt);
  if (task.state === 'completed') return { preCalcProgress: 100, mainSimProgress: 100, currentStep: live?.totalSteps || totalSteps, totalSteps: live?.totalSteps || totalSteps, estimatedRemainingMs: 0 };
  if (!live || task.state === 'queued') return { preCalcProgress: 0, mainSimProgress: 0, currentStep: 0, totalSteps, estimatedRemainingMs: 0 };
  const pre = live.phase === 'pre-simulation';
  const ended = task.state === 'failed' || task.state === 'cancelled';
  return {
    preCalcProgress: pre ? live.percent : 100,
    mainSimProgress: pre ? 0 : live.percent,
    currentStep: pre ? 0 : live.step,
    totalSteps: pre ? totalSteps : live.totalSteps || totalSteps,
    estimatedRemainingMs: ended || live.estimatedRemainingMs === null ? 0 : Math.round(live.estimatedRemainingMs),
  };
}

export function storedRequest(task: TaskRecord): StoredRequest {
  return task.request as StoredRequest;
}

export function presentStatus(task: TaskRecord, live: TaskProgress | null, results: SimulationResults | null): SimulationStatus {
  const request = storedRequest(task);
  return {
    simulationId: task.id,
    status: task.state,
    priority: task.priority,
    progress: presentProgress(task, live),
    circuitName: request.circuitName,
    batchId: task.batchId,
    submittedAt: task.submittedAt,
    startedAt: task.startedAt,
    completedAt: task.completedAt,
    durationMs: task.state === 'completed' ? task.runMs : null,
    cacheHit: task.cacheHit,
    request,
    results,
    errorMessage: task.state === 'failed' ? (task.errorMessage ?? 'the simulation failed') : null,
  };
}

export function presentSummary(task: TaskRecord): SimulationSummary {
  // Failed and cancelled runs show where they stopped.
  const percent = task.state === 'completed' ? 100 : task.progress?.phase === 'main' ? task.progress.percent : 0;
  return {
    simulationId: task.id,
    status: task.state,
    progress: percent,
    circuitName: storedRequest(task).circuitName,
    batchId: task.batchId,
    submittedAt: task.submittedAt,
    startedAt: task.startedAt,
    completedAt: task.completedAt,
  };
}

export function presentSubmission(task: TaskRecord): SubmissionResponse {
  return { simulationId: task.id, status: task.state, batchId: task.batchId, cacheHit: task.cacheHit };
}

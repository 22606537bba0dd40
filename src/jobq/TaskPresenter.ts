// The only place the job-queue service's task shapes are built: the task record, submit and batch
// responses, results and in-progress messages, from the runtime's TaskRecord and stored results.
import type { StoredResult, TaskRecord } from '../jobs/types.js';
import type { SteadyReport } from '../engine/types.js';
import type { JobPriority, JobStatus, ResultMetadata, SimulationResponse, SimulationResult, SteadyStateReport, SubmitResponse, TaskStatusMessage } from './models.js';

/** The engine's steady-state report in the service's field names. */
function presentSteady(r: SteadyReport): SteadyStateReport {
  return {
    converged: r.converged, method: r.method, iterations: r.iterations, periods: r.periods, period: r.period,
    steps_per_period: r.stepsPerPeriod, unknowns: r.unknowns, error: r.error, period_start: r.periodStart, message: r.message,
  };
}

/** What the service stores as a task's `request` (opaque to the runtime). */
export interface StoredJobqRequest {
  model_file: string;
  parameters: Record<string, number>;
  output_variables: string[] | null;
  metadata: Record<string, unknown>;
  /** Requested variable → channel key in the stored result. */
  outputs: Record<string, string>;
}

export function storedRequest(task: TaskRecord): StoredJobqRequest {
  const request = (task.request ?? {}) as Partial<StoredJobqRequest>;
  return {
    model_file: request.model_file ?? task.spec.netlist.name ?? '',
    parameters: request.parameters ?? {},
    output_variables: request.output_variables ?? null,
    metadata: request.metadata ?? {},
    outputs: request.outputs ?? {},
  };
}

/** The runtime's `paused` does not exist in this service (it never pauses); it reads as running. */
export function statusOf(task: TaskRecord): JobStatus {
  return task.state === 'paused' ? 'running' : task.state;
}

function durationSeconds(task: TaskRecord): number | null {
  if (!task.startedAt || !task.completedAt) return null;
  return Math.max(0, (Date.parse(task.completedAt) - Date.parse(task.startedAt)) / 1000);
}

export function presentTask(task: TaskRecord): SimulationResponse {
  const request = storedRequest(task);
  return {
    task_id: task.id,
    status: statusOf(task),
    priority: task.priority as JobPriority,
    model_file: request.model_file,
    parameters: request.parameters,
    submitted_at: task.submittedAt,
    started_at: task.startedAt,
    completed_at: task.completedAt,
    duration_seconds: durationSeconds(task),
    cache_hit: task.cacheHit,
    retry_count: Math.max(0, task.attempts - 1),
    error_message: task.state === 'completed' ? null : task.errorMessage,
    cache_key: task.cacheKey,
    metadata: request.metadata,
  };
}

export function presentSubmit(task: TaskRecord): SubmitResponse {
  return {
    task_id: task.id,
    status: statusOf(task),
    priority: task.priority as JobPriority,
    submitted_at: task.submittedAt,
    message: task.cacheHit ? 'Simulation completed from the result cache' : 'Simulation queued successfully',
  };
}

const IN_PROGRESS: Record<'queued' | 'running', string> = {
  queued: 'Simulation is queued; the result is not available yet',
  running: 'Simulation is running; the result is not available yet',
};

export function presentInProgress(task: TaskRecord): TaskStatusMessage {
  const status = statusOf(task) as 'queued' | 'running';
  return { task_id: task.id, status, message: IN_PROGRESS[status] };
}

export function presentCancelled(task: TaskRecord, message = 'Simulation was cancelled; it has no result'): TaskStatusMessage {
  return { task_id: task.id, status: 'cancelled', message };
}

export function presentResult(task: TaskRecord, result: StoredResult | undefined, simulatorVersion: string): SimulationResult {
  const metadata: ResultMetadata = { simulation_time: (task.runMs ?? 0) / 1000, cache_hit: task.cacheHit, simulator_version: simulatorVersion };
  if (result?.steady) metadata.steady_state = presentSteady(result.steady);
  if (task.state !== 'completed' || !result) {
    return { task_id: task.id, status: 'failed', results: {}, metadata, error_message: task.errorMessage ?? 'the simulation failed' };
  }
  const results: Record<string, number[]> = { t: Array.from(result.time) };
  const request = storedRequest(task);
  const names = request.output_variables !== null || Object.keys(request.outputs).length > 0
    ? request.outputs
    : Object.fromEntries(Object.keys(result.signals).map((k) => [k, k]));
  for (const [name, key] of Object.entries(names)) {
    const values = result.signals[key];
    if (values) results[name] = Array.from(values);
  }
  return { task_id: task.id, status: 'completed', results, metadata, error_message: null };
}

// The progress message of docs/spec/simulation-service.md §2.4: the one shape SSE and STOMP both carry.
import type { TaskRecord } from '../jobs/types.js';

export interface ProgressMessage {
  simulationId: string;
  /** Percent complete, 0–100. */
  progress: number;
  /** Simulated time reached [s]. */
  currentTime: number;
  /** Simulated end time [s]. */
  endTime: number;
  step: number;
  totalSteps: number;
  /** Upper-case state: QUEUED, RUNNING, PAUSED, COMPLETED, FAILED, CANCELLED. */
  status: string;
  /** ISO 8601 UTC. */
  timestamp: string;
  errorMessage: string | null;
}

export function presentProgressMessage(task: TaskRecord, timestamp: Date): ProgressMessage {
  const endTime = task.spec.netlist.settings.tEnd;
  const p = task.progress;
  const completed = task.state === 'completed';
  const totalSteps = p?.totalSteps ?? Math.round(endTime / task.spec.netlist.settings.dt);
  // 'done': the engine has finished and the result is being written; progress must not fall back to 0.
  const main = p !== null && (p.phase === 'main' || p.phase === 'done');
  return {
    simulationId: task.id,
    progress: completed ? 100 : main ? p.percent : 0,
    currentTime: completed ? endTime : main ? p.time : 0,
    endTime,
    step: completed ? totalSteps : main ? p.step : 0,
    totalSteps,
    status: task.state.toUpperCase(),
    timestamp: timestamp.toISOString(),
    errorMessage: task.state === 'failed' ? (task.errorMessage ?? 'the simulation failed') : null,
  };
}

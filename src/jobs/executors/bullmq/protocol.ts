// What services and `pesim worker` processes agree on in Redis: the BullMQ queue and key prefix,
// the job's data and return value, the control channel (pause/resume/cancel of a running job),
// the worker heartbeat keys, and how our priorities map to BullMQ's.
//
// Ownership: our scheduler stays the owner of priorities, retries, time-outs, the result cache
// and the task states (SQLite). A BullMQ job is only the transport of one attempt: it is added
// with attempts = 1, a run's failure comes back as data in its return value, and our scheduler
// decides whether to retry (as a new job). BullMQ's own part is delivery: priority order among
// the jobs handed over, locks, and moving a stalled job (its worker died) to another worker.
import type { RunStats } from '../../../engine/types.js';
import type { Compression, Priority, StorageFormat, TaskSpec } from '../../types.js';
import type { ExecutionFailure, RunSummary } from '../types.js';
import type { SharedResultsTarget } from './shared-results.js';

export const QUEUE_NAME = 'runs';
/** BullMQ key prefix: the queue's keys are pesim:runs:*. */
export const KEY_PREFIX = 'pesim';
/** Published messages: ControlMessage as JSON. */
export const CONTROL_CHANNEL = 'pesim:control';
/** Last control state of a job, read by the worker when the job starts (a message may come first). */
export function controlKey(jobId: string): string {
  return `pesim:control:${jobId}`;
}
/**
 * A job's outcome, written by the worker before the job completes, read and deleted by the service:
 * a hash of RESULT_OUTCOME (the RunJobResult as JSON) and, for a run that made one, RESULT_BYTES
 * (the result file's bytes). BullMQ removes a job as it completes, so this key is what is left of
 * a job whose completion the service did not hear of.
 */
export function resultKey(jobId: string): string {
  return `pesim:result:${jobId}`;
}
export const RESULT_OUTCOME = 'outcome';
export const RESULT_BYTES = 'bytes';
/** A result nobody collected (its service gone for good) is dropped after this. */
export const RESULT_TTL_MS = 24 * 3600 * 1000;
/** The ids of workers that have beaten (a set; ids whose heartbeat key expired are dropped by readers). */
export const WORKER_SET = 'pesim:workers';
/** A worker's heartbeat: WorkerBeat as JSON, expiring HEARTBEAT_LIVES intervals after the last beat. */
export function workerKey(workerId: string): string {
  return `pesim:workers:${workerId}`;
}
/** A heartbeat key lives this many heartbeat intervals: a worker that stops beating is gone after it. */
export const HEARTBEAT_LIVES = 3;

/** BullMQ: 1 is the highest priority. */
export const BULLMQ_PRIORITY: Readonly<Record<Priority, number>> = { CRITICAL: 1, HIGH: 2, NORMAL: 3, LOW: 4 };

export interface RunJobData {
  taskId: string;
  spec: TaskSpec;
  format: StorageFormat;
  compression: Compression;
  /** Largest result file the service accepts back through Redis [bytes]. */
  maxResultBytes: number;
  /** The service's shared results folder: a worker that shares it writes the result file there. */
  sharedResults?: SharedResultsTarget;
}

/**
 * A job's return value (and its result key's RESULT_OUTCOME): the run's summary and where its
 * result file's bytes wait (resultKey), or, with `file`, the file's name in the shared results
 * folder (shared-results.ts; no bytes in the key then); or the run's failure. The bytes go to the result key, raw,
 * rather than into the return value: BullMQ serialises a return value as JSON twice and copies it
 * into its events stream as well, which for a result of several hundred KiB cost more than the run
 * (see bench/scaleout.ts).
 */
export type RunJobResult = { ok: true; summary: RunSummary; resultKey: string; bytes: number; file?: string; worker: string } | { ok: false; error: ExecutionFailure; worker: string };

/** A result key's RESULT_OUTCOME, or undefined for none or for text that is not one. */
export function parseJobResult(text: Buffer | string | null): RunJobResult | undefined {
  if (text === null) return undefined;
  try {
    const value = JSON.parse(text.toString()) as RunJobResult | null;
    return typeof value === 'object' && value !== null && typeof value.ok === 'boolean' ? value : undefined;
  } catch {
    return undefined;
  }
}

export interface ControlMessage {
  jobId: string;
  cancel: boolean;
  pause: boolean;
}

/** Progress a worker reports with job.updateProgress (the engine's progress slots). */
export interface RunJobProgress {
  step: number;
  totalSteps: number;
  time: number;
  /** 0 pre-simulation, 1 main, 2 done (as the engine writes it). */
  phase: number;
  paused: boolean;
}

export interface WorkerBeat {
  id: string;
  host: string;
  pid: number;
  /** Runs the worker takes at once (its simulation threads). */
  concurrency: number;
  startedAt: string;
}

export type { RunStats };

export function resultTooLarge(bytes: number, limit: number): ExecutionFailure {
  return {
    code: 'RESULT_TOO_LARGE',
    message: `the result file is ${bytes} bytes, above the limit of ${limit} bytes for results returned through Redis (sim.api.max-result-mb / max_result_mb / PESIM_MAX_RESULT_MB)`,
    deterministic: true,
  };
}

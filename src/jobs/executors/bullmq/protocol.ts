// What services and `pesim worker` processes agree on in Redis: the BullMQ queue and key prefix,
// the job's data and return value, the control channel (pause/resume/cancel of a running job),
// the worker heartbeat keys, and how our priorities map to BullMQ's.
//
// Ownership: our scheduler stays the owner of priorities, retries, time-outs, the result cache
// and the task states (SQLite). A BullMQ job is only the transport of one attempt of each of its
// runs (one to MAX_RUNS_PER_JOB runs of one priority, made one after the other by the worker that
// takes it): it is added with attempts = 1, a run's failure comes back as data in the job's return
// value, and our scheduler decides whether to retry (in a new job). BullMQ's own part is delivery:
// priority order among the jobs handed over, locks, and moving a stalled job (its worker died) to
// another worker. A run has an id of its own (`<service>.<task>.<nonce>`): control messages, result
// keys and shared result files are per run; a job's id is its first run's.
import type { RunStats } from '../../../engine/types.js';
import type { Compression, Priority, StorageFormat, TaskSpec } from '../../types.js';
import type { ExecutionFailure, RunSummary } from '../types.js';
import type { SharedResultsFolder } from './shared-results.js';

export const QUEUE_NAME = 'runs';
/** BullMQ key prefix: the queue's keys are pesim:runs:*. */
export const KEY_PREFIX = 'pesim';
/** Published messages: ControlMessage as JSON. */
export const CONTROL_CHANNEL = 'pesim:control';
/**
 * Runs in one job at most. A job costs BullMQ, Redis, the service and the worker about the same
 * whatever it carries (its scripts, its events, its lock), so a sweep's runs go several to a job;
 * small enough that a pause, a cancel or a lost worker concerns a few runs.
 */
export const MAX_RUNS_PER_JOB = 8;
/** Last control state of a run, read by the worker when it takes the run's job (a message may come first). */
export function controlKey(runId: string): string {
  return `pesim:control:${runId}`;
}
/**
 * A run's outcome, written by the worker before the run's job completes, read and deleted by the service:
 * a hash of RESULT_OUTCOME (the RunJobResult as JSON) and, for a run that made one, RESULT_BYTES
 * (the result file's bytes). BullMQ removes a job as it completes, so this key is what is left of
 * a run whose job's completion the service did not hear of.
 */
export function resultKey(runId: string): string {
  return `pesim:result:${runId}`;
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

/** One run of a job. */
export interface RunItem {
  /** `<service>.<task>.<nonce>`: its control messages, result key and shared result file name. */
  runId: string;
  taskId: string;
  spec: TaskSpec;
  format: StorageFormat;
  compression: Compression;
  /** The result file written to the shared results folder is flushed to the disk. */
  sync: boolean;
}

export interface RunJobData {
  /** One to MAX_RUNS_PER_JOB runs, made in this order. */
  runs: RunItem[];
  /** Largest result file the service accepts back through Redis [bytes]. */
  maxResultBytes: number;
  /** The service's shared results folder: a worker that shares it writes the result files there. */
  sharedResults?: SharedResultsFolder;
}

/** A job's return value: the outcome of each of its runs, in their order. */
export type RunJobResults = RunJobResult[];

/**
 * A run's outcome (in its job's return value, and its result key's RESULT_OUTCOME): the run's summary and where its
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
  runId: string;
  cancel: boolean;
  pause: boolean;
}

/** Progress a worker reports with job.updateProgress (the engine's progress slots of the job's run `run`). */
export interface RunJobProgress {
  /** The run's position in its job's runs. */
  run: number;
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

// The records the durable store persists: tasks with their states, priorities, specs and progress,
// result-cache entries and log lines. The job runtime (src/jobs) works on them; the store owns them.
import type { Netlist, ParameterOverrides } from '../formats/netlist.js';
import type { SteadyOptions, SteadyReport } from '../engine/types.js';

export type Priority = 'CRITICAL' | 'HIGH' | 'NORMAL' | 'LOW';
/** Highest first. */
export const PRIORITIES: readonly Priority[] = ['CRITICAL', 'HIGH', 'NORMAL', 'LOW'];

export type TaskState = 'queued' | 'running' | 'paused' | 'completed' | 'failed' | 'cancelled';
export const FINAL_STATES: readonly TaskState[] = ['completed', 'failed', 'cancelled'];

/** What the engine runs for a task. */
export interface TaskSpec {
  netlist: Netlist;
  parameters: ParameterOverrides;
  /** Channel keys to keep in the stored result (all when absent). */
  signals?: string[];
  /** Bytes of the model file when the cache hashes files instead of netlists (hex SHA-256 of them). */
  fileDigest?: string;
  /** Run the periodic steady-state analysis (docs/steady-state.md) instead of the transient: the result is one settled period. */
  steady?: SteadyOptions;
}

export interface TaskProgress {
  phase: 'pre-simulation' | 'main' | 'done';
  step: number;
  totalSteps: number;
  time: number;
  percent: number;
  estimatedRemainingMs: number | null;
}

/** What a status read shows of a completed run without opening its result file. */
export interface ResultSummary {
  /** `<scope>.ch<n>_avg|_rms|_min|_max` over the measurement window (non-finite values kept; records written
   * before the one spelling have the dotted `<scope>.ch<n>.avg`, which the presenters rename). */
  measurements: Record<string, number>;
  /** The recorded signals, in the result file's order. */
  signals: string[];
  /** How the settled period was found (steady-state runs only). */
  steady?: SteadyReport;
}

export interface TaskRecord {
  id: string;
  /** The service that owns the task ('simulation' for :8080, 'jobq' for :8000). */
  owner: string;
  priority: Priority;
  state: TaskState;
  spec: TaskSpec;
  /** The request as the owning service received it (opaque to the runtime). */
  request: unknown;
  batchId: string | null;
  submittedAt: string;
  startedAt: string | null;
  completedAt: string | null;
  /** Attempts started so far (1 after the first start; a restart while running counts). */
  attempts: number;
  errorCode: string | null;
  errorMessage: string | null;
  cacheHit: boolean;
  cacheKey: string | null;
  /** Engine run time of the result [ms] (for cache hits: the run that filled the entry). */
  runMs: number | null;
  /** Earliest time a retry may start (ISO), null when not waiting. */
  retryAt: string | null;
  progress: TaskProgress | null;
  /** Set when the task completes by a run (null before, for cache hits, and for tasks completed
   *  before the store kept it: readers then open the result file). */
  summary: ResultSummary | null;
}

export type StorageFormat = 'parquet' | 'hdf5' | 'csv';
export type Compression = 'snappy' | 'gzip' | 'lz4' | 'none';
export const STORAGE_FORMATS: readonly StorageFormat[] = ['parquet', 'hdf5', 'csv'];
export const COMPRESSIONS: readonly Compression[] = ['snappy', 'gzip', 'lz4', 'none'];

export interface CacheEntryRecord {
  key: string;
  /** File name relative to the cache directory. */
  file: string;
  format: StorageFormat;
  compression: Compression;
  /** Description of what was cached: model file or circuit name, and the parameters. */
  modelFile: string;
  parameters: ParameterOverrides;
  createdAt: string;
  accessedAt: string;
  accessCount: number;
  sizeBytes: number;
  /** ISO time after which the entry is expired; null: never. */
  expiresAt: string | null;
  runMs: number;
}

export type LogLevel = 'DEBUG' | 'INFO' | 'WARNING' | 'ERROR';

export interface LogRecord {
  timestamp: string;
  level: LogLevel;
  message: string;
  taskId?: string;
  duration?: number;
}

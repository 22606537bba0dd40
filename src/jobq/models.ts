// Request and response bodies of the job-queue service (spec §2), as tsoa reads them to validate
// requests and write the OpenAPI description. Field names are the spec's (snake_case).

/** `CRITICAL` runs before `HIGH`, `NORMAL`, `LOW`; first in, first out within one priority. */
export type JobPriority = 'CRITICAL' | 'HIGH' | 'NORMAL' | 'LOW';
export type JobStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

export interface SimulationRequest {
  /**
   * Path of the model file (.ipes, SPICE deck or pesim JSON netlist), relative to the models root
   * (JOBQ_MODELS_DIR); paths leaving the root are refused.
   * @example "buck.ipes"
   */
  model_file: string;
  /**
   * Model variables: global parameters by name (`Vin`, or `$Vin`) or component parameters
   * (`R.1.R`).
   * @example {"R.1.R": 10}
   */
  parameters?: { [name: string]: number };
  /**
   * Variables to return: scope channels (`SCOPE.1.ch1` or a channel's label), node names (voltage to
   * ground) or element names (current through it). Default: every scope channel.
   */
  output_variables?: string[];
  /**
   * `CRITICAL`, `HIGH`, `NORMAL` or `LOW` (default `NORMAL`); any other value is a 400
   * `INVALID_PRIORITY`.
   * @example "NORMAL"
   */
  priority?: string;
  /** Free-form tracking data, stored with the task. */
  metadata?: { [key: string]: unknown };
  /**
   * Extension: the periodic steady state instead of the transient (docs/steady-state.md): `true`,
   * or the analysis's options. The result is one settled period (`t` from 0 to the period) and
   * `metadata.steady_state` says how it was found.
   */
  steady?: boolean | SteadyStateOptions;
}

/** Options of the periodic steady-state analysis; every field optional. */
export interface SteadyStateOptions {
  /** The period [s]; default: the common period of the model's periodic sources (a whole number of time steps). */
  period?: number;
  /** Periodicity error accepted, relative to each state variable's scale (default 1e-9). */
  tolerance?: number;
  /** Newton iterations before plain transient periods take over (default 20). */
  max_iterations?: number;
  /** Transient periods of that fallback (default 2000; 0: none). */
  max_periods?: number;
  /** Solve for the thermal network's temperatures too (default true). */
  temperatures?: boolean;
  /** Transient periods simulated before Newton's method starts (default 1; at least until every source repeats). */
  init_periods?: number;
  /** Perturbation of the Jacobian's products, relative to each state variable's scale (default 1e-6; at most 0.1). */
  perturbation?: number;
  /** "fast" (default): Newton steps keep the Jacobian's products of earlier steps; "full": new products every step (checked by the service, which names the field when it is neither). */
  jacobian?: string;
}

/** How the settled period of a steady-state task was found (docs/steady-state.md, "Options and report"). */
export interface SteadyStateReport {
  converged: boolean;
  /** `shooting`, or `transient` when plain periods took over. */
  method: string;
  iterations: number;
  /** Periods simulated in all. */
  periods: number;
  /** [s] */
  period: number;
  steps_per_period: number;
  unknowns: number;
  /** Periodicity error of the returned period. */
  error: number;
  /** [s] Simulated time at which the returned period starts. */
  period_start: number;
  message: string;
}

export interface SubmitResponse {
  /** @format uuid */
  task_id: string;
  /** `queued`, or `completed` at once when the result cache already holds the result. */
  status: JobStatus;
  priority: JobPriority;
  /** @format date-time */
  submitted_at: string;
  message: string;
}

export interface BatchResponse {
  /**
   * Extension: the batch's id; GET /simulations/batch/{batch_id}/results returns its results table.
   * @format uuid
   */
  batch_id: string;
  /** One task id per request item, in the order of the items. */
  task_ids: string[];
  batch_size: number;
  message: string;
  /** @format date-time */
  submitted_at: string;
}

/** The task record. */
export interface SimulationResponse {
  /** @format uuid */
  task_id: string;
  status: JobStatus;
  priority: JobPriority;
  model_file: string;
  parameters: { [name: string]: number };
  /** @format date-time */
  submitted_at: string;
  /** @format date-time */
  started_at: string | null;
  /** @format date-time */
  completed_at: string | null;
  /** completed_at − started_at of the last attempt [s]. */
  duration_seconds: number | null;
  cache_hit: boolean;
  /** Attempts after the first one. */
  retry_count: number;
  error_message: string | null;
  /** Extension: the result-cache key of the task (for GET /cache/entry/{cache_key}). */
  cache_key: string | null;
  /** Extension: the request's free-form metadata. */
  metadata: { [key: string]: unknown };
}

export interface ResultMetadata {
  /** Engine run time of the result [s] (for a cache hit: of the run that filled the entry). */
  simulation_time: number;
  cache_hit: boolean;
  /** `pesim <engine version>`. */
  simulator_version: string;
  /** Extension: present for a steady-state task (request field `steady`). */
  steady_state?: SteadyStateReport;
}

/** A finished task's result: `completed` with the arrays, or `failed` with `error_message`. */
export interface SimulationResult {
  /** @format uuid */
  task_id: string;
  status: 'completed' | 'failed';
  /** Variable name → samples; the time vector is `t`. Empty for a failed task. */
  results: { [name: string]: number[] };
  metadata: ResultMetadata;
  /** Why the task failed (null when completed). */
  error_message: string | null;
}

/** The result endpoint's body for a task without a result: 202 while queued or running, 200 when cancelled. */
export interface TaskStatusMessage {
  /** @format uuid */
  task_id: string;
  status: JobStatus;
  message: string;
}

export interface CacheStatsResponse {
  enabled: boolean;
  hits: number;
  misses: number;
  /** hits / (hits + misses), 0 before the first lookup. */
  hit_rate: number;
  total_entries: number;
  storage_format: string;
  compression: string;
  disk_usage_mb: number;
  /** @format date-time */
  oldest_entry: string | null;
  /** @format date-time */
  newest_entry: string | null;
}

export interface CacheEntryResponse {
  cache_key: string;
  model_file: string;
  parameters: { [name: string]: number };
  /** @format date-time */
  created_at: string;
  /** @format date-time */
  accessed_at: string;
  access_count: number;
  size_bytes: number;
  storage_format: string;
}

export interface CacheClearResponse {
  message: string;
  entries_removed: number;
  disk_space_freed_mb: number;
}

export interface HealthResponse {
  /** `healthy`, or `degraded` when the simulator cannot take runs or the data directory is full (`store_writable` false). */
  status: string;
  /** False while the data directory takes no writes (full disk): reads are served, submissions answer 507 STORAGE_FULL. */
  store_writable: boolean;
  /** What failed, while `store_writable` is false. */
  store_error?: string;
  /** The interface version: 1.0.0. */
  version: string;
  uptime_seconds: number;
  simulator_connected: boolean;
  /** Queue `bullmq` only: whether Redis is reachable. */
  redis_connected?: boolean;
  /** Queue `bullmq` only: live `pesim worker` processes. */
  workers?: number;
}

export interface StatsResponse {
  queue: { pending: number; running: number; completed: number; failed: number; cancelled: number };
  performance: {
    /** Mean duration_seconds of the completed tasks. */
    average_duration_seconds: number;
    /** Tasks that reached `completed` or `failed`. */
    total_simulations: number;
    cache_hit_rate: number;
    /**
     * Sum of the run durations of completed tasks (cache hits counted at the duration of the run that
     * filled the entry) divided by the wall-clock time during which at least one task was queued or
     * running; 0 before any task has waited or run.
     */
    speedup_factor: number;
  };
  /** `cpu_cores`: this machine's cores, or with queue `bullmq` the simulation threads of the live workers. */
  system: { cpu_cores: number; batch_size: number; max_concurrent: number; uptime_seconds: number };
}

export type LogLevelName = 'DEBUG' | 'INFO' | 'WARNING' | 'ERROR';

export interface LogEntry {
  /** @format date-time */
  timestamp: string;
  level: LogLevelName;
  message: string;
  task_id?: string;
  /** Seconds, for entries about a finished run. */
  duration?: number;
}

export interface LogsResponse {
  logs: LogEntry[];
  count: number;
}

/** Every error but request validation. */
export interface ErrorResponse {
  detail: string;
  error_code?: string;
  field?: string;
  suggestion?: string;
}

export interface ValidationErrorItem {
  /** Where: `["body", "model_file"]`, `["body", 3, "priority"]`, `["query", "limit"]`. */
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** 422: a required field is missing or a value has the wrong type (FastAPI's shape). */
export interface HTTPValidationError {
  detail: ValidationErrorItem[];
  error_code?: string;
}

// The options of a `pesim worker` process and their defaults, apart from the worker itself so that
// the command line can show the defaults in its help without loading BullMQ and the engine.
export interface RemoteWorkerOptions {
  redisUrl: string;
  /** Runs at once (simulation threads). */
  concurrency: number;
  /** BullMQ job lock [ms]: a job whose worker stopped renewing it for this long is stalled. */
  lockDurationMs: number;
  /** How often this worker looks for stalled jobs [ms]. */
  stalledIntervalMs: number;
  /** How often a job may stall before BullMQ fails it (the service then retries the task). */
  maxStalledCount: number;
  heartbeatMs: number;
  progressIntervalMs: number;
  /** The results folder shared with the services (shared-results.ts); without it results go through Redis. */
  sharedResultsDir?: string;
  /** Where the worker reports Redis outages and recoveries. */
  log?: (message: string) => void;
}

export const DEFAULT_WORKER_OPTIONS: Omit<RemoteWorkerOptions, 'redisUrl' | 'concurrency'> = {
  lockDurationMs: 30_000,
  stalledIntervalMs: 30_000,
  maxStalledCount: 2,
  heartbeatMs: 2000,
  progressIntervalMs: 250,
};

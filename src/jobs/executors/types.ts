// The executor interface: where a task's run actually happens (embedded worker threads here;
// remote executors such as XML-RPC or BullMQ workers implement the same interface).
import type { ControlBuffers } from '../../engine/index.js';
import type { RunStats } from '../../engine/types.js';
import type { Compression, Priority, ResultSummary, StorageFormat, StoredResult, TaskSpec } from '../types.js';

export interface ExecutionRequest {
  taskId: string;
  spec: TaskSpec;
  /** Pause/cancel flags and progress, shared with the run. */
  buffers: ControlBuffers;
  /** Where to write the result file. Executors sharing our disk write it themselves (off the main
   *  thread) and return `written`; others return the arrays and the scheduler writes them. */
  output?: ResultTarget;
  /** The task's priority (remote executors order the runs they hold by it). */
  priority?: Priority;
}

export interface ResultTarget {
  path: string;
  format: StorageFormat;
  compression: Compression;
  /** Flush the file to the device before reporting it written (durability `full`). */
  sync: boolean;
}

/** What an executor that wrote the result file returns instead of the arrays. */
export interface RunSummary extends ResultSummary {
  stats: RunStats;
}

export interface ExecutionFailure {
  code: string;
  message: string;
  element?: string;
  node?: string;
  time?: number;
  /** Deterministic failures (invalid circuit, singular matrix) repeat on every attempt. */
  deterministic: boolean;
}

export type ExecutionOutcome =
  | { ok: true; result: StoredResult }
  | { ok: true; written: RunSummary }
  | { ok: false; error: ExecutionFailure };

export interface Executor {
  readonly name: string;
  /** Runs it can take at once; the scheduler never hands over more. */
  readonly capacity: number;
  run(request: ExecutionRequest): Promise<ExecutionOutcome>;
  /** Whether the executor can run tasks now (health reporting). */
  connected(): boolean;
  /** Asks a remote simulator whether it answers now (updates connected()); absent for in-process executors. */
  probe?(): Promise<boolean>;
  /** Executors whose capacity changes (remote workers coming and going) call this when it does. */
  onCapacityChange?(listener: () => void): void;
  /** Health details of executors that depend on other processes. */
  status?(): ExecutorStatus;
  /** Executors with threads that start on demand (deferred at construction): start them now. */
  startThreads?(): void;
  close(): Promise<void>;
}

/** What health and statistics report of a remote executor. */
export interface ExecutorStatus {
  backend: 'bullmq';
  redis: 'UP' | 'DOWN';
  /** Live worker processes. */
  workers: number;
  /** Simulation threads of the live workers. */
  cores: number;
}

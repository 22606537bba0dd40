// The executor interface: where a task's run actually happens (embedded worker threads here;
// remote executors such as XML-RPC or BullMQ workers implement the same interface).
import type { ControlBuffers } from '../../engine/index.js';
import type { StoredResult, TaskSpec } from '../types.js';

export interface ExecutionRequest {
  taskId: string;
  spec: TaskSpec;
  /** Pause/cancel flags and progress, shared with the run. */
  buffers: ControlBuffers;
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

export type ExecutionOutcome = { ok: true; result: StoredResult } | { ok: false; error: ExecutionFailure };

export interface Executor {
  readonly name: string;
  /** Runs it can take at once; the scheduler never hands over more. */
  readonly capacity: number;
  run(request: ExecutionRequest): Promise<ExecutionOutcome>;
  /** Whether the executor can run tasks now (health reporting). */
  connected(): boolean;
  close(): Promise<void>;
}

// The messages between a service's BullmqExecutor (its thread) and the Redis bridge thread
// (bridge-thread.ts, bridge.ts). A run crosses with its shared pause/cancel flags and progress
// buffers, so the bridge writes progress and reads the flags without a message.
import type { ControlBuffers } from '../../../engine/index.js';
import type { Priority, TaskSpec } from '../../types.js';
import type { ExecutionOutcome, ResultTarget } from '../types.js';

export interface BridgeOptions {
  redisUrl: string;
  /** Prefix of this service's job ids (stable across restarts of the same data directory). */
  serviceId: string;
  maxResultBytes: number;
  /** The results folder shared with the workers, and its identity (shared-results.ts). */
  sharedResults?: { dir: string; folder: string };
  /** How often the worker heartbeats are read [ms] (default 1000). */
  censusIntervalMs?: number;
  /** How often jobs in flight are checked against Redis, for events lost in a Redis crash [ms] (default 5000). */
  reconcileIntervalMs?: number;
}

/** A run handed to the bridge; `id` numbers it on the service's side. */
export interface BridgeRun {
  id: number;
  taskId: string;
  spec: TaskSpec;
  buffers: ControlBuffers;
  output?: ResultTarget;
  priority?: Priority;
}

export interface BridgeEnd {
  id: number;
  outcome: ExecutionOutcome;
}

/** Redis reachable or not, and the live workers with their simulation threads (slots). */
export interface BridgeState {
  redis: 'UP' | 'DOWN';
  workers: number;
  slots: number;
}

export type ToBridge = { kind: 'runs'; runs: BridgeRun[] } | { kind: 'close' };

export type FromBridge =
  | { kind: 'ready' }
  | { kind: 'ended'; ends: BridgeEnd[] }
  | { kind: 'state'; state: BridgeState }
  | { kind: 'closed' };

// Progress of the runs in progress: one poll on the scheduler's clock for all of them (a timer per
// run cost more than the polls), a progress event whenever a run moved, and the progress kept in
// the store at most once a second per run from its first second on, at once for a paused run
// (where it rests).
import type { RunController } from '../engine/controller.js';
import type { Store } from '../store/types.js';
import type { Clock } from './clock.js';
import type { TaskEvents } from './events.js';
import { progressOf } from './progress.js';
import { isStorageFull, type StorageHealth } from './storage.js';
import type { TaskProgress, TaskRecord } from './types.js';

/** Progress is stored at most this often per run [ms]. */
const STORE_INTERVAL_MS = 1000;

/** A run in progress, as the scheduler holds it. */
export interface Running {
  controller: RunController;
  /** The task as stored: every change of a running task goes through the scheduler, so the
   *  record is kept here instead of being read and decoded again from the store. */
  task: TaskRecord;
  startedAtMs: number;
  /** Step of the last progress event (none twice for the same step). */
  lastStep: number;
  timeout?: unknown;
  timedOut: boolean;
  cancelled: boolean;
  lastProgressStoredAt: number;
}

/** Where the run is now, from the engine's shared progress buffer. */
export function progressNow(run: Running, clock: Clock): TaskProgress {
  return progressOf(run.controller.progress(), clock.now() - run.startedAtMs);
}

export class ProgressPoll {
  private timer: unknown;
  private stopped = false;

  constructor(
    private readonly runs: ReadonlyMap<string, Running>,
    private readonly store: Store,
    private readonly events: TaskEvents,
    private readonly storage: StorageHealth,
    private readonly clock: Clock,
    private readonly intervalMs: number,
  ) {}

  /** Polls every intervalMs while runs go on (call when a run starts). */
  arm(): void {
    if (this.timer !== undefined || this.stopped) return;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      for (const run of this.runs.values()) this.report(run);
      if (this.runs.size > 0) this.arm();
    }, this.intervalMs);
  }

  /** No poll until the next arm() (call when the last run ended). */
  disarm(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** No poll any more (the scheduler stops). */
  stop(): void {
    this.stopped = true;
    this.disarm();
  }

  private report(run: Running): void {
    const task = run.task;
    if ((task.state !== 'running' && task.state !== 'paused') || run.cancelled) return;
    const now = this.clock.now();
    const progress = progressNow(run, this.clock);
    if (progress.step === run.lastStep) return;
    run.lastStep = progress.step;
    if (task.state !== 'paused' && now - run.lastProgressStoredAt < STORE_INTERVAL_MS) {
      this.events.emit('progress', { ...task, progress }, progress);
      return;
    }
    run.lastProgressStoredAt = now;
    try {
      run.task = this.store.tasks.updateFrom(task, { progress });
    } catch (error) {
      if (!isStorageFull(this.storage.failed(error))) throw error;
      // Progress is transient: the bus still gets it; the store gets the next one.
      this.events.emit('progress', { ...task, progress }, progress);
      return;
    }
    this.events.emit('progress', run.task, progress);
  }
}

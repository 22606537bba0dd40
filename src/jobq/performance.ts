// Performance figures of the job-queue service, kept in the store's persistent counters so they
// survive a restart: run time of completed tasks (cache hits at the run time of the run that filled
// the entry), task durations, and the busy wall-clock time — time during which at least one of the
// service's tasks was queued or running. speedup_factor (docs/spec/decisions.md §2) is their ratio.
import type { TaskEvents } from '../jobs/events.js';
import { FINAL_STATES, type TaskRecord } from '../jobs/types.js';
import type { RuntimeQueries } from '../jobs/runtime.js';
import { isStorageFull } from '../jobs/storage.js';

const RUN_MS = 'jobq.completed_run_ms';
const DURATION_MS = 'jobq.completed_duration_ms';
const COMPLETED = 'jobq.completed';
const BUSY_MS = 'jobq.busy_ms';

export interface PerformanceFigures {
  averageDurationSeconds: number;
  speedupFactor: number;
}

export class PerformanceTracker {
  private readonly unfinished = new Set<string>();
  private busySince: number | undefined;
  private readonly listener = (task: TaskRecord): void => {
    try {
      this.onState(task);
    } catch (error) {
      // A full data directory (storage.ts): the figures miss this change, the task does not.
      if (!isStorageFull(error)) throw error;
    }
  };

  constructor(
    private readonly runtime: Pick<RuntimeQueries, 'tasksInStates' | 'addToCounter' | 'counter'>,
    private readonly events: TaskEvents,
    private readonly owner: string,
    private readonly now: () => number = Date.now,
  ) {
    for (const task of runtime.tasksInStates(['queued', 'running', 'paused'])) if (task.owner === owner) this.unfinished.add(task.id);
    if (this.unfinished.size > 0) this.busySince = now();
    events.on('state', this.listener);
  }

  private onState(task: TaskRecord): void {
    if (task.owner !== this.owner) return;
    if (FINAL_STATES.includes(task.state)) {
      if (task.state === 'completed') {
        this.runtime.addToCounter(COMPLETED, 1);
        this.runtime.addToCounter(RUN_MS, task.runMs ?? 0);
        if (task.startedAt && task.completedAt) this.runtime.addToCounter(DURATION_MS, Math.max(0, Date.parse(task.completedAt) - Date.parse(task.startedAt)));
      }
      if (this.unfinished.delete(task.id) && this.unfinished.size === 0 && this.busySince !== undefined) {
        this.runtime.addToCounter(BUSY_MS, this.now() - this.busySince);
        this.busySince = undefined;
      }
    } else if (!this.unfinished.has(task.id)) {
      this.unfinished.add(task.id);
      this.busySince ??= this.now();
    }
  }

  figures(): PerformanceFigures {
    const completed = this.runtime.counter(COMPLETED);
    const busyMs = this.runtime.counter(BUSY_MS) + (this.busySince !== undefined ? this.now() - this.busySince : 0);
    return {
      averageDurationSeconds: completed > 0 ? this.runtime.counter(DURATION_MS) / completed / 1000 : 0,
      speedupFactor: busyMs > 0 ? this.runtime.counter(RUN_MS) / busyMs : 0,
    };
  }

  /** Stops listening and books the busy time so far (at shutdown). */
  close(): void {
    this.events.off('state', this.listener);
    if (this.busySince !== undefined) {
      this.runtime.addToCounter(BUSY_MS, this.now() - this.busySince);
      this.busySince = undefined;
    }
  }
}

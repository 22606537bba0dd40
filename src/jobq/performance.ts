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
  private busySince: number | undefined;
  /** Whether a look at the store's counts for the end of the busy time is due this turn. */
  private idleCheckScheduled = false;
  /** Increments not stored yet: stored together once per turn of the event loop (three commits
   *  per completed task cost the service thread more than the task's own records). */
  private readonly unsaved = new Map<string, number>();
  private saveScheduled = false;
  private readonly listener = (task: TaskRecord): void => this.onState(task);

  constructor(
    private readonly runtime: Pick<RuntimeQueries, 'countTasks' | 'addToCounters' | 'counter'>,
    private readonly events: TaskEvents,
    private readonly owner: string,
    private readonly now: () => number = Date.now,
  ) {
    if (this.unfinishedCount() > 0) this.busySince = now();
    events.on('state', this.listener);
  }

  private onState(task: TaskRecord): void {
    if (task.owner !== this.owner) return;
    if (FINAL_STATES.includes(task.state)) {
      if (task.state === 'completed') {
        this.add(COMPLETED, 1);
        this.add(RUN_MS, task.runMs ?? 0);
        if (task.startedAt && task.completedAt) this.add(DURATION_MS, Math.max(0, Date.parse(task.completedAt) - Date.parse(task.startedAt)));
      }
      this.scheduleIdleCheck();
    } else {
      this.busySince ??= this.now();
    }
  }

  /** The owner's queued, running and paused tasks, from the counts the store keeps. */
  private unfinishedCount(): number {
    const counts = this.runtime.countTasks(this.owner);
    return counts.queued + counts.running + counts.paused;
  }

  /**
   * After the events of this turn (a commit announces many at once), books the busy time if none
   * of the owner's tasks is left unfinished: one look at the counts per turn, not per task.
   */
  private scheduleIdleCheck(): void {
    if (this.idleCheckScheduled || this.busySince === undefined) return;
    this.idleCheckScheduled = true;
    setImmediate(() => {
      this.idleCheckScheduled = false;
      if (this.busySince === undefined || this.unfinishedCount() > 0) return;
      this.add(BUSY_MS, this.now() - this.busySince);
      this.busySince = undefined;
    });
  }

  private add(name: string, delta: number): void {
    this.unsaved.set(name, (this.unsaved.get(name) ?? 0) + delta);
    if (this.saveScheduled) return;
    this.saveScheduled = true;
    setImmediate(() => this.save());
  }

  private save(): void {
    this.saveScheduled = false;
    if (this.unsaved.size === 0) return;
    const deltas = Object.fromEntries(this.unsaved);
    this.unsaved.clear();
    try {
      this.runtime.addToCounters(deltas);
    } catch (error) {
      // A full data directory (storage.ts): the figures miss these changes, the tasks do not.
      if (!isStorageFull(error)) throw error;
    }
  }

  private total(name: string): number {
    return this.runtime.counter(name) + (this.unsaved.get(name) ?? 0);
  }

  figures(): PerformanceFigures {
    const completed = this.total(COMPLETED);
    const busyMs = this.total(BUSY_MS) + (this.busySince !== undefined ? this.now() - this.busySince : 0);
    return {
      averageDurationSeconds: completed > 0 ? this.total(DURATION_MS) / completed / 1000 : 0,
      speedupFactor: busyMs > 0 ? this.total(RUN_MS) / busyMs : 0,
    };
  }

  /** Stops listening and books the busy time so far (at shutdown). */
  close(): void {
    this.events.off('state', this.listener);
    if (this.busySince !== undefined) {
      this.add(BUSY_MS, this.now() - this.busySince);
      this.busySince = undefined;
    }
    this.save();
  }
}

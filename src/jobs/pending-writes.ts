// The scheduler's own store writes (the starts and ends of runs) waiting for their commit: they are
// committed together at most every intervalMs, one commit for all of them (at thousands of runs per
// second a commit per run was the service thread's largest cost). A write that comes when no
// commit was made for intervalMs is committed at once (after the current turn of the event loop,
// with whatever else that turn wrote), so that a lone run's start and end are not held back: only
// a busy service batches. The timers are the process's, not the scheduler's clock: a manual clock
// in tests would otherwise hold the records back.
import type { TaskRecord } from './types.js';

/** A store write of the scheduler's own waiting for the next commit. */
export interface PendingWrite {
  /** The task as the write finds it. */
  task: TaskRecord;
  /** A start is undone when its commit fails; an end is recorded again once the store takes it. */
  kind: 'start' | 'end';
  write: () => void;
}

export class PendingWrites {
  private writes: PendingWrite[] = [];
  /** Cancels the commit that is due, if one is. */
  private cancelDue: (() => void) | undefined;
  /** When the last commit took the writes [performance.now() ms]. */
  private lastTaken = Number.NEGATIVE_INFINITY;

  /**
   * `commit` takes the writes (take()) and commits them; it runs once the turn of the first write
   * is over when the last commit is intervalMs old or more, else when it is.
   */
  constructor(
    private readonly intervalMs: number,
    private readonly commit: () => void,
  ) {}

  get size(): number {
    return this.writes.length;
  }

  add(write: PendingWrite): void {
    this.writes.push(write);
    if (this.cancelDue) return;
    const wait = this.lastTaken + this.intervalMs - performance.now();
    if (wait > 0) {
      const timer = setTimeout(() => this.commit(), wait);
      this.cancelDue = () => clearTimeout(timer);
    } else {
      const immediate = setImmediate(() => this.commit());
      this.cancelDue = () => clearImmediate(immediate);
    }
  }

  /** Every waiting write, in the order they came; none wait afterwards. */
  take(): PendingWrite[] {
    this.cancelDue?.();
    this.cancelDue = undefined;
    this.lastTaken = performance.now();
    const writes = this.writes;
    this.writes = [];
    return writes;
  }

  /** The waiting end of a task's run, if there is one. */
  endOf(taskId: string): PendingWrite | undefined {
    return this.writes.find((w) => w.kind === 'end' && w.task.id === taskId);
  }

  /** Takes one write out (a run's end that a cancel replaces). */
  remove(write: PendingWrite): void {
    const index = this.writes.indexOf(write);
    if (index >= 0) this.writes.splice(index, 1);
  }
}

// The scheduler's own store writes (the starts and ends of runs) waiting for their commit: they are
// committed together at most every intervalMs, one commit for all of them (at thousands of runs per
// second a commit per run was the service thread's largest cost). The timer is the process's, not
// the scheduler's clock: a manual clock in tests would otherwise hold the records back.
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
  private timer: NodeJS.Timeout | undefined;

  /** `commit` takes the writes (take()) and commits them; it runs intervalMs after the first one waits. */
  constructor(
    private readonly intervalMs: number,
    private readonly commit: () => void,
  ) {}

  get size(): number {
    return this.writes.length;
  }

  add(write: PendingWrite): void {
    this.writes.push(write);
    this.timer ??= setTimeout(() => this.commit(), this.intervalMs);
  }

  /** Every waiting write, in the order they came; none wait afterwards. */
  take(): PendingWrite[] {
    clearTimeout(this.timer);
    this.timer = undefined;
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

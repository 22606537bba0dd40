// Counts of a batch's tasks per state, kept in memory from the scheduler's committed changes, so
// that reading the status of a batch of 100 000 runs while it runs costs no count over its rows.
// A batch's counts are read from the store the first time they are asked for and follow every
// commit from then on; the batches asked for most recently are kept (at most maxKept).
import type { TaskState } from './types.js';

export type StateCounts = Partial<Record<TaskState, number>>;

export class BatchCounts {
  /** Least recently asked for first. */
  private readonly kept = new Map<string, Map<TaskState, number>>();

  constructor(
    private readonly readStored: (batchId: string) => StateCounts,
    private readonly maxKept = 100,
  ) {}

  /** The batch's tasks per state, as committed (states without tasks left out, as the store's count). */
  of(batchId: string): StateCounts {
    let counts = this.kept.get(batchId);
    if (counts) this.kept.delete(batchId);
    else counts = new Map(Object.entries(this.readStored(batchId)) as [TaskState, number][]);
    this.kept.set(batchId, counts);
    for (const oldest of this.kept.keys()) {
      if (this.kept.size <= this.maxKept) break;
      this.kept.delete(oldest);
    }
    const out: StateCounts = {};
    for (const [state, n] of counts) if (n > 0) out[state] = n;
    return out;
  }

  /**
   * The counts of a batch whose tasks were all just submitted (none stored before them): kept
   * from now on, so that its first status read counts no rows either.
   */
  started(batchId: string, counts: StateCounts): void {
    this.kept.delete(batchId);
    this.kept.set(batchId, new Map(Object.entries(counts) as [TaskState, number][]));
    for (const oldest of this.kept.keys()) {
      if (this.kept.size <= this.maxKept) break;
      this.kept.delete(oldest);
    }
  }

  /**
   * A committed change of one task of the batch: from `from` (null for a new task, undefined when
   * not known: the batch's counts are then read again from the store) to `to`.
   */
  changed(batchId: string | null, from: TaskState | null | undefined, to: TaskState): void {
    if (batchId === null || from === to) return;
    const counts = this.kept.get(batchId);
    if (!counts) return;
    if (from === undefined) {
      this.kept.delete(batchId);
      return;
    }
    if (from !== null) counts.set(from, (counts.get(from) ?? 0) - 1);
    counts.set(to, (counts.get(to) ?? 0) + 1);
  }
}

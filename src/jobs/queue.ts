// The ready queue: one FIFO per priority, highest priority first, in the order of the tasks'
// sequence numbers (their submission order in the store). It holds a window of each priority's
// queued tasks, not all of them: a batch of 100 000 runs stays in the store and is paged in
// (pageIn, `pageSize` tasks at a time) as the window empties, so the service's heap never holds a
// record per queued run. A lane is `complete` while it holds every queued task of its priority;
// only then does a new task join it at once (else the store keeps it until its page comes).
// Entries waiting for a retry carry the time before which they must not start. Starting, removing
// and counting cost the same whatever the window holds: each lane is an array read from a head
// index, removed entries are only marked (and skipped when the head reaches them), and the next
// wake-up is looked for among the delayed entries only.
import { PRIORITIES, type Priority } from './types.js';

/** A task as the queue holds it. */
export interface QueuedTask {
  id: string;
  /** Sequence number in the store: the order within a priority. */
  seq: number;
  /** Not before this time [ms]; 0: at once. */
  readyAt: number;
  /** Read from the store but started already (its start not yet written): passed over. */
  started?: boolean;
}

/** The next queued tasks of a priority after a sequence number, in order (at most `limit`). */
export type PageIn = (priority: Priority, afterSeq: number, limit: number) => QueuedTask[];

interface Entry extends QueuedTask {
  removed: boolean;
  lane: Lane;
}

class Lane {
  entries: Entry[] = [];
  head = 0;
  /** Highest sequence number the lane has taken in (from the store or a submission). */
  cursor = 0;
  /** Whether the lane holds every queued task of its priority (nothing left to page in). */
  complete: boolean;
  /** Entries held and not taken. */
  live = 0;

  constructor(complete: boolean) {
    this.complete = complete;
  }

  /** Drops the consumed front of the array once it is most of it. */
  compact(): void {
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }
}

export const DEFAULT_PAGE_SIZE = 512;

export class PriorityQueue {
  private readonly lanes: Map<Priority, Lane>;
  private readonly byId = new Map<string, Entry>();
  /** Entries with a future readyAt when queued (retries): the only ones nextWakeUp looks at. */
  private readonly delayed = new Set<Entry>();

  /** Without `pageIn` the queue holds every task it is given (nothing is left in a store). */
  constructor(
    private readonly pageIn?: PageIn,
    private readonly pageSize = DEFAULT_PAGE_SIZE,
  ) {
    this.lanes = new Map(PRIORITIES.map((p) => [p, new Lane(pageIn === undefined)]));
  }

  /** Tasks held (not those left in the store). */
  get size(): number {
    return this.byId.size;
  }

  /**
   * A new task, after every task of its priority: held when its lane holds all of them and has
   * room; else left to the store (returns false) and paged in in its turn.
   */
  push(id: string, priority: Priority, seq: number, readyAt = 0): boolean {
    const lane = this.lanes.get(priority)!;
    if (!lane.complete || (this.pageIn && lane.live >= this.pageSize)) {
      lane.complete = false;
      return false;
    }
    lane.entries.push(this.entry(lane, { id, seq, readyAt }));
    lane.cursor = Math.max(lane.cursor, seq);
    return true;
  }

  /**
   * A task back in its lane at its place by sequence number (a retry, a start that could not be
   * recorded). Returns false when the lane will page it in from the store anyway.
   */
  insertOrdered(id: string, priority: Priority, seq: number, readyAt: number): boolean {
    const lane = this.lanes.get(priority)!;
    if (!lane.complete && seq > lane.cursor) return false;
    let position = lane.entries.length;
    for (let i = lane.head; i < lane.entries.length; i++) {
      const e = lane.entries[i];
      if (!e.removed && e.seq > seq) {
        position = i;
        break;
      }
    }
    lane.entries.splice(position, 0, this.entry(lane, { id, seq, readyAt }));
    return true;
  }

  /** The first task, by priority then sequence, that may start at `now` (paging in as needed). */
  popReady(now: number): string | undefined {
    for (const priority of PRIORITIES) {
      const lane = this.lanes.get(priority)!;
      for (;;) {
        while (lane.head < lane.entries.length && lane.entries[lane.head].removed) lane.head++;
        for (let i = lane.head; i < lane.entries.length; i++) {
          const e = lane.entries[i];
          if (e.removed || e.readyAt > now) continue;
          this.take(e);
          if (i === lane.head) lane.head++;
          lane.compact();
          return e.id;
        }
        if (!this.fill(priority, lane)) break;
      }
    }
    return undefined;
  }

  /** Pages the next tasks of the lane in; false when the store has none left. */
  private fill(priority: Priority, lane: Lane): boolean {
    if (lane.complete || !this.pageIn) return false;
    const page = this.pageIn(priority, lane.cursor, this.pageSize);
    if (page.length < this.pageSize) lane.complete = true;
    for (const task of page) {
      lane.cursor = Math.max(lane.cursor, task.seq);
      // Held already, or started: only after a rewind can the store still show such a task queued.
      if (task.started || this.byId.has(task.id)) continue;
      lane.entries.push(this.entry(lane, task));
    }
    return page.length > 0;
  }

  /**
   * After a submission rolled back: the store will give its sequence numbers to other tasks, so
   * each lane goes back to the last task it holds and looks in the store again from there.
   */
  rewind(): void {
    if (!this.pageIn) return;
    for (const lane of this.lanes.values()) {
      let cursor = 0;
      for (let i = lane.head; i < lane.entries.length; i++) if (!lane.entries[i].removed) cursor = Math.max(cursor, lane.entries[i].seq);
      lane.cursor = cursor;
      lane.complete = false;
    }
  }

  /** Earliest readyAt among waiting entries, if any is in the future. */
  nextWakeUp(now: number): number | undefined {
    let earliest: number | undefined;
    for (const e of this.delayed) {
      if (e.readyAt > now && (earliest === undefined || e.readyAt < earliest)) earliest = e.readyAt;
    }
    return earliest;
  }

  remove(id: string): boolean {
    const e = this.byId.get(id);
    if (!e) return false;
    this.take(e);
    return true;
  }

  private entry(lane: Lane, task: Omit<QueuedTask, 'started'>): Entry {
    const e: Entry = { id: task.id, seq: task.seq, readyAt: task.readyAt, removed: false, lane };
    this.byId.set(task.id, e);
    if (task.readyAt > 0) this.delayed.add(e);
    lane.live++;
    return e;
  }

  /** Marks the entry gone: it no longer counts and is skipped where it still stands in its lane. */
  private take(e: Entry): void {
    e.removed = true;
    this.byId.delete(e.id);
    this.delayed.delete(e);
    e.lane.live--;
  }
}

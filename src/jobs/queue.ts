// The in-memory ready queue: one FIFO per priority, highest priority first. Entries waiting for a
// retry carry the time before which they must not start. Starting, removing and counting cost the
// same whatever the queue holds (a batch of 100 000 runs queues at once): each lane is an array
// read from a head index, removed entries are only marked (and skipped when the head reaches
// them), and the next wake-up is looked for among the delayed entries only.
import { PRIORITIES, type Priority } from './types.js';

interface Entry {
  id: string;
  readyAt: number;
  removed: boolean;
}

class Lane {
  entries: Entry[] = [];
  head = 0;

  /** Drops the consumed front of the array once it is most of it. */
  compact(): void {
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }
}

export class PriorityQueue {
  private readonly lanes = new Map<Priority, Lane>(PRIORITIES.map((p) => [p, new Lane()]));
  private readonly byId = new Map<string, Entry>();
  /** Entries with a future readyAt when queued (retries): the only ones nextWakeUp looks at. */
  private readonly delayed = new Set<Entry>();

  get size(): number {
    return this.byId.size;
  }

  push(id: string, priority: Priority, readyAt = 0): void {
    this.lanes.get(priority)!.entries.push(this.entry(id, readyAt));
  }

  /** Puts a task back in its lane in submission order (used for retries and recovery). */
  insertOrdered(id: string, priority: Priority, readyAt: number, order: (id: string) => number): void {
    const lane = this.lanes.get(priority)!;
    let position = lane.entries.length;
    for (let i = lane.head; i < lane.entries.length; i++) {
      const e = lane.entries[i];
      if (!e.removed && order(e.id) > order(id)) {
        position = i;
        break;
      }
    }
    lane.entries.splice(position, 0, this.entry(id, readyAt));
  }

  /** The first task, by priority then FIFO, that may start at `now`. */
  popReady(now: number): string | undefined {
    for (const priority of PRIORITIES) {
      const lane = this.lanes.get(priority)!;
      while (lane.head < lane.entries.length && lane.entries[lane.head].removed) lane.head++;
      for (let i = lane.head; i < lane.entries.length; i++) {
        const e = lane.entries[i];
        if (e.removed || e.readyAt > now) continue;
        this.take(e);
        if (i === lane.head) lane.head++;
        lane.compact();
        return e.id;
      }
    }
    return undefined;
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

  private entry(id: string, readyAt: number): Entry {
    const e = { id, readyAt, removed: false };
    this.byId.set(id, e);
    if (readyAt > 0) this.delayed.add(e);
    return e;
  }

  /** Marks the entry gone: it no longer counts and is skipped where it still stands in its lane. */
  private take(e: Entry): void {
    e.removed = true;
    this.byId.delete(e.id);
    this.delayed.delete(e);
  }
}

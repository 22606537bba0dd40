// The in-memory ready queue: one FIFO per priority, highest priority first. Entries waiting for a
// retry carry the time before which they must not start.
import { PRIORITIES, type Priority } from './types.js';

interface Entry {
  id: string;
  readyAt: number;
}

export class PriorityQueue {
  private readonly lanes = new Map<Priority, Entry[]>(PRIORITIES.map((p) => [p, []]));

  get size(): number {
    let n = 0;
    for (const lane of this.lanes.values()) n += lane.length;
    return n;
  }

  push(id: string, priority: Priority, readyAt = 0): void {
    this.lanes.get(priority)!.push({ id, readyAt });
  }

  /** Puts a task back in its lane in submission order (used for retries and recovery). */
  insertOrdered(id: string, priority: Priority, readyAt: number, order: (id: string) => number): void {
    const lane = this.lanes.get(priority)!;
    const position = lane.findIndex((e) => order(e.id) > order(id));
    lane.splice(position < 0 ? lane.length : position, 0, { id, readyAt });
  }

  /** The first task, by priority then FIFO, that may start at `now`. */
  popReady(now: number): string | undefined {
    for (const priority of PRIORITIES) {
      const lane = this.lanes.get(priority)!;
      const index = lane.findIndex((e) => e.readyAt <= now);
      if (index >= 0) return lane.splice(index, 1)[0].id;
    }
    return undefined;
  }

  /** Earliest readyAt among waiting entries, if any is in the future. */
  nextWakeUp(now: number): number | undefined {
    let earliest: number | undefined;
    for (const lane of this.lanes.values()) {
      for (const e of lane) if (e.readyAt > now && (earliest === undefined || e.readyAt < earliest)) earliest = e.readyAt;
    }
    return earliest;
  }

  remove(id: string): boolean {
    for (const lane of this.lanes.values()) {
      const index = lane.findIndex((e) => e.id === id);
      if (index >= 0) {
        lane.splice(index, 1);
        return true;
      }
    }
    return false;
  }
}

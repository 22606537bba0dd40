// The services' view of the live `pesim worker` processes: each worker keeps a heartbeat key with
// a time to live of HEARTBEAT_LIVES intervals and its id in the set WORKER_SET; the service reads
// them every interval (two commands, whatever else Redis holds), drops the ids whose key expired,
// and tells listeners when the number of runs the workers take at once changes.
import type { Redis } from 'ioredis';
import { WORKER_SET, workerKey, type WorkerBeat } from './protocol.js';

export interface WorkerCensus {
  workers: number;
  /** Runs the live workers take at once (their simulation threads). */
  slots: number;
}

export class LiveWorkers {
  private census: WorkerCensus = { workers: 0, slots: 0 };
  private readonly timer: NodeJS.Timeout;
  private readonly listeners: (() => void)[] = [];
  private reading = false;

  constructor(private readonly client: Redis, intervalMs: number) {
    this.timer = setInterval(() => void this.refresh(), intervalMs);
    this.timer.unref();
    void this.refresh();
  }

  get current(): WorkerCensus {
    return this.census;
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Reads the heartbeat keys now (kept as it was when Redis cannot be reached). */
  async refresh(): Promise<WorkerCensus> {
    if (this.reading || this.client.status !== 'ready') return this.census;
    this.reading = true;
    try {
      const ids = await this.client.smembers(WORKER_SET);
      const values = ids.length > 0 ? await this.client.mget(ids.map(workerKey)) : [];
      const gone = ids.filter((_, i) => values[i] === null);
      if (gone.length > 0) await this.client.srem(WORKER_SET, ...gone);
      let workers = 0;
      let slots = 0;
      for (const value of values) {
        if (value === null) continue;
        const beat = JSON.parse(value) as WorkerBeat;
        workers++;
        slots += beat.concurrency;
      }
      const changed = slots !== this.census.slots || workers !== this.census.workers;
      this.census = { workers, slots };
      if (changed) for (const listener of this.listeners) listener();
    } catch {
      // Redis unreachable or restarting: the last census stands until the next read.
    } finally {
      this.reading = false;
    }
    return this.census;
  }

  close(): void {
    clearInterval(this.timer);
  }
}

// Circuit checks of large sweeps on a thread of their own. Every value of a sweep is checked with
// the engine before anything is queued (one bad value queues nothing); at 50–100 µs a check, a
// sweep of 1 000 values took the service's thread about as long as running its bookkeeping for
// the 1 000 runs. Here the checks of one submission go to one thread in one message; the service
// checks again, itself, only the set that failed (for its error). The thread loads the engine when
// it starts (with the simulation threads, or at its first use); until then the checks are made on
// the caller's thread as before.
import type { Piscina } from 'piscina';
import { fileURLToPath } from 'node:url';
import type { CircuitCheck } from './check-worker.js';

/** Fewer checks than this are made on the caller's thread (a message costs more than they do). */
export const CHECK_THREAD_MIN = 64;

function workerFile(): string {
  // Under tsx the sources run as .ts; the compiled package has .js files.
  const extension = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  return fileURLToPath(new URL(`./check-worker${extension}`, import.meta.url));
}

export class CircuitCheckThread {
  private pool?: Promise<Piscina>;
  private closed = false;
  /** The thread has loaded the engine (it answered its first, empty, task). */
  private ready = false;

  /** Starts the thread (once); until it has loaded the engine, the checks run on the caller's thread. */
  start(): void {
    if (this.pool) return;
    this.started()
      .then((pool) => pool.run([]))
      .then(() => {
        this.ready = true;
      })
      .catch(() => undefined); // a thread that cannot start: the checks run on the caller's thread
  }

  private started(): Promise<Piscina> {
    if (this.closed) return Promise.reject(new Error('the circuit-check thread is closed'));
    this.pool ??= import('piscina').then(({ Piscina }) => new Piscina({ filename: workerFile(), minThreads: 1, maxThreads: 1, idleTimeout: Number.POSITIVE_INFINITY, recordTiming: false }));
    return this.pool;
  }

  /**
   * The position of the first check that fails (-1: none), made on the thread; undefined when the
   * thread cannot take them (not ready yet, closed, or it failed to start): the caller then checks
   * on its own thread rather than wait for the thread to load the engine.
   */
  async firstFailing(checks: CircuitCheck[]): Promise<number | undefined> {
    if (!this.ready) {
      this.start();
      return undefined;
    }
    try {
      const pool = await this.started();
      return (await pool.run(checks)) as number;
    } catch {
      return undefined;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const pool = await this.pool?.catch(() => undefined);
    await pool?.destroy();
  }
}

// Circuit checks of large sweeps on threads of their own. Every value of a sweep is checked with
// the engine before anything is queued (one bad value queues nothing); at 20–50 µs a check, a
// sweep of 1 000 values took the service's thread about as long as running its bookkeeping for
// the 1 000 runs. Here the checks of one submission go to the check threads in one message each
// (a large set split into contiguous parts, one per thread, made at the same time); the service
// checks again, itself, only the set that failed (for its error). The threads load the engine when
// they start (with the simulation threads, or at their first use); until then the checks are made
// on the caller's thread as before.
import type { Piscina } from 'piscina';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { CircuitCheck } from './check-worker.js';
import { encodeChecks } from './check-payload.js';

/** Fewer checks than this are made on the caller's thread (a message costs more than they do). */
export const CHECK_THREAD_MIN = 64;

/** A set of at least this many checks is split over the threads (below, one thread takes it). */
export const CHECK_SPLIT_MIN = 2000;

/** Check threads: one per core, at most four (a submission's checks rarely need more). */
export function checkThreadCount(cores = availableParallelism()): number {
  return Math.max(1, Math.min(4, cores));
}

function workerFile(): string {
  // Under tsx the sources run as .ts; the compiled package has .js files.
  const extension = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  return fileURLToPath(new URL(`./check-worker${extension}`, import.meta.url));
}

export class CircuitCheckThread {
  private pool?: Promise<Piscina>;
  private closed = false;
  /** The threads, once each has loaded the engine (answered its first, empty, task). */
  private ready?: Piscina;

  constructor(private readonly threads = checkThreadCount()) {}

  /** Starts the thread (once); until it has loaded the engine, the checks run on the caller's thread. */
  start(): void {
    if (this.pool) return;
    this.started()
      .then(async (pool) => {
        await Promise.all(Array.from({ length: this.threads }, () => pool.run([])));
        this.ready = pool;
      })
      .catch(() => undefined); // a thread that cannot start: the checks run on the caller's thread
  }

  private started(): Promise<Piscina> {
    if (this.closed) return Promise.reject(new Error('the circuit-check thread is closed'));
    this.pool ??= import('piscina').then(({ Piscina }) => new Piscina({ filename: workerFile(), minThreads: this.threads, maxThreads: this.threads, concurrentTasksPerWorker: 1, idleTimeout: Number.POSITIVE_INFINITY, recordTiming: false }));
    return this.pool;
  }

  /**
   * The position of the first check that fails (-1: none), made on the thread; undefined when the
   * thread cannot take them (not ready yet, closed, or it failed to start): the caller then checks
   * on its own thread rather than wait for the thread to load the engine. The checks are sent
   * before this returns (no await first), so that they run while the caller goes on with its own
   * work: a job-queue batch's records and store plan, which used to run before the checks were
   * even sent (≈ 0.5 s of the service thread idle afterwards, waiting for them).
   */
  firstFailing(checks: CircuitCheck[]): Promise<number | undefined> {
    const pool = this.closed ? undefined : this.ready;
    if (!pool) {
      this.start();
      return Promise.resolve(undefined);
    }
    const parts = checks.length >= CHECK_SPLIT_MIN ? this.threads : 1;
    const size = Math.ceil(checks.length / parts);
    let found: Promise<number[]>;
    try {
      found = Promise.all(Array.from({ length: parts }, (_, k) => pool.run(encodeChecks(checks.slice(k * size, (k + 1) * size))) as Promise<number>));
    } catch {
      return Promise.resolve(undefined);
    }
    return found.then(
      (positions) => {
        // The first failing check of the first part that has one.
        const part = positions.findIndex((position) => position >= 0);
        return part < 0 ? -1 : part * size + positions[part];
      },
      () => undefined,
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    const pool = await this.pool?.catch(() => undefined);
    await pool?.destroy();
  }
}

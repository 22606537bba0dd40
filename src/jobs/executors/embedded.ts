// The embedded executor: a piscina pool of worker threads running the addon. The scheduler hands
// it no more runs than it has threads, so piscina's own FIFO never reorders our priorities. A worker
// that dies (process.exit in native code paths, JS heap exhaustion under resourceLimits) fails only
// its run, as a transient error, and piscina starts a fresh worker. piscina itself is imported
// when the threads start, so that a service that defers them does not load it before it listens.
import type { Piscina } from 'piscina';
import { fileURLToPath } from 'node:url';
import type { ExecutionOutcome, ExecutionRequest, Executor } from './types.js';

export interface EmbeddedExecutorOptions {
  threads: number;
  /** Worker module (default: embedded-worker next to this file). Tests substitute their own. */
  workerFile?: string;
  /** JS heap limit per worker [MiB] (default 2048). */
  maxOldGenerationSizeMb?: number;
  /** Start the threads on startThreads() or the first run instead of now (a service that wants
   *  to listen first: each thread loads the engine and the result-file codecs, ≈ 1 s of CPU). */
  deferThreads?: boolean;
}

function defaultWorkerFile(): string {
  // Under tsx the sources run as .ts; the compiled package has .js files.
  const extension = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  return fileURLToPath(new URL(`./embedded-worker${extension}`, import.meta.url));
}

export class EmbeddedExecutor implements Executor {
  readonly name = 'embedded';
  readonly capacity: number;
  private pool?: Promise<Piscina>;
  private closed = false;

  constructor(private readonly options: EmbeddedExecutorOptions) {
    this.capacity = options.threads;
    if (!options.deferThreads) this.startThreads();
  }

  /** Starts the worker threads (once); they start with the executor unless deferThreads was set. */
  startThreads(): void {
    this.startedPool().catch(() => undefined); // a pool that cannot start fails the runs
  }

  private startedPool(): Promise<Piscina> {
    if (this.closed) return Promise.reject(new Error('the embedded executor is closed'));
    this.pool ??= import('piscina').then(({ Piscina }) => new Piscina({
      filename: this.options.workerFile ?? defaultWorkerFile(),
      minThreads: this.options.threads,
      maxThreads: this.options.threads,
      idleTimeout: Number.POSITIVE_INFINITY,
      // No per-task timing histograms: nothing reads them, and they cost the scheduler's thread.
      recordTiming: false,
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxOldGenerationSizeMb ?? 2048 },
    }));
    return this.pool;
  }

  async run(request: ExecutionRequest): Promise<ExecutionOutcome> {
    try {
      const pool = await this.startedPool();
      return (await pool.run(request)) as ExecutionOutcome;
    } catch (error) {
      const e = error as Error & { code?: string };
      return {
        ok: false,
        error: { code: 'WORKER_CRASHED', message: `the worker running the task stopped: ${e.message}`, deterministic: false },
      };
    }
  }

  connected(): boolean {
    return !this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
    const pool = await this.pool?.catch(() => undefined);
    await pool?.destroy();
  }
}

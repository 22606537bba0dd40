// The embedded executor: a piscina pool of worker threads running the addon. The scheduler hands
// it no more runs than its capacity, so piscina's own FIFO never reorders our priorities. A worker
// that dies (process.exit in native code paths, JS heap exhaustion under resourceLimits) fails only
// its runs, as a transient error, and piscina starts a fresh worker. piscina itself is imported
// when the threads start, so that a service that defers them does not load it before it listens.
//
// Short runs go to the threads in groups (run-groups.ts): a message to a thread and its answer
// cost the scheduler's thread about as much as a millisecond run itself, so runs that take a few
// milliseconds are sent several per message and answered together. Runs whose time is not known
// yet, or that take longer, go one per message, and the capacity is then exactly one run per thread.
import type { Piscina } from 'piscina';
import { fileURLToPath } from 'node:url';
import type { ExecutionOutcome, ExecutionRequest, Executor } from './types.js';
import type { GroupAnswer } from './embedded-worker.js';
import { GROUP_WINDOW_MS, RunGroups } from './run-groups.js';
import type { EmbeddedWorkerData } from './embedded-worker.js';

export interface EmbeddedExecutorOptions {
  threads: number;
  /** Worker module (default: embedded-worker next to this file). Tests substitute their own. */
  workerFile?: string;
  /** JS heap limit per worker [MiB] (default 2048). */
  maxOldGenerationSizeMb?: number;
  /** Start the threads on startThreads() or the first run instead of now (a service that wants
   *  to listen first: each thread loads the engine and the result-file codecs, ≈ 1 s of CPU). */
  deferThreads?: boolean;
  /** Send short runs several per message (default: true with the default worker module, whose
   *  tasks take groups; a substituted module gets one run per message unless this is set). */
  groupRuns?: boolean;
  /** Nice levels each worker thread lowers its priority by when it starts (src/threads/priority.ts; default 0). */
  niceIncrement?: number;
}

function defaultWorkerFile(): string {
  // Under tsx the sources run as .ts; the compiled package has .js files.
  const extension = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  return fileURLToPath(new URL(`./embedded-worker${extension}`, import.meta.url));
}

/** Runs of a group answer whose ends are handled in one turn of the event loop. */
const ENDS_PER_TURN = 8;

interface Waiting {
  request: ExecutionRequest;
  resolve: (outcome: ExecutionOutcome) => void;
}

export class EmbeddedExecutor implements Executor {
  readonly name = 'embedded';
  private pool?: Promise<Piscina>;
  private closed = false;
  private readonly groups: RunGroups;
  private readonly grouping: boolean;
  /** Runs handed over in this turn of the event loop, sent together at its end. */
  private waiting: Waiting[] = [];
  /** Group messages sent and not answered yet. */
  private groupsInFlight = 0;
  private readonly capacityListeners: (() => void)[] = [];

  constructor(private readonly options: EmbeddedExecutorOptions) {
    this.groups = new RunGroups(options.threads);
    this.grouping = options.groupRuns ?? options.workerFile === undefined;
    if (!options.deferThreads) this.startThreads();
  }

  /** Runs it takes at once: one per thread, or two groups per thread once runs are known to be short. */
  get capacity(): number {
    return this.grouping ? this.groups.capacity : this.options.threads;
  }

  onCapacityChange(listener: () => void): void {
    this.capacityListeners.push(listener);
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
      workerData: { niceIncrement: this.options.niceIncrement ?? 0 } satisfies EmbeddedWorkerData,
    }));
    return this.pool;
  }

  run(request: ExecutionRequest): Promise<ExecutionOutcome> {
    if (!this.grouping) return this.runAlone(request);
    return new Promise((resolve) => {
      // The runs the scheduler starts in one turn (after a group's answer: as many as it held)
      // are split into messages once that turn is over.
      if (this.waiting.length === 0) setImmediate(() => this.dispatch());
      this.waiting.push({ request, resolve });
    });
  }

  private dispatch(): void {
    const waiting = this.waiting;
    this.waiting = [];
    // A run alone goes as a group of one too: its answer tells the time it took on its thread.
    for (const part of this.groups.split(waiting, this.groupsInFlight)) void this.runGroup(part);
  }

  private async runGroup(part: Waiting[]): Promise<void> {
    this.groupsInFlight++;
    let answer: GroupAnswer | undefined;
    let failure: ExecutionOutcome | undefined;
    try {
      const pool = await this.startedPool();
      answer = (await pool.run({ group: part.map((w) => w.request), windowMs: GROUP_WINDOW_MS })) as GroupAnswer;
    } catch (error) {
      failure = crashed(error);
    } finally {
      this.groupsInFlight--;
    }
    if (!answer) {
      for (const { resolve } of part) resolve(failure!);
      return;
    }
    this.learned(this.groups.observe(answer.runMs));
    const made = answer.outcomes.length;
    // A few runs' ends per turn of the event loop: a request that came in meanwhile (a status read)
    // does not wait for the bookkeeping of the whole group.
    for (let i = 0; i < made; i++) {
      if (i > 0 && i % ENDS_PER_TURN === 0) await new Promise((next) => setImmediate(next));
      part[i].resolve(answer.outcomes[i]);
    }
    // The runs the thread left (the group outlasted its window) are sent again, now sized by the
    // longer runs it saw.
    const rest = part.slice(made);
    if (rest.length === 0) return;
    if (this.waiting.length === 0) setImmediate(() => this.dispatch());
    this.waiting.push(...rest);
  }

  /** Tells the scheduler when the capacity grew (a group size learned). */
  private learned(grew: boolean): void {
    if (grew) for (const listener of this.capacityListeners) listener();
  }

  private async runAlone(request: ExecutionRequest): Promise<ExecutionOutcome> {
    try {
      const pool = await this.startedPool();
      return (await pool.run(request)) as ExecutionOutcome;
    } catch (error) {
      return crashed(error);
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

function crashed(error: unknown): ExecutionOutcome {
  const e = error as Error & { code?: string };
  return {
    ok: false,
    error: { code: 'WORKER_CRASHED', message: `the worker running the task stopped: ${e.message}`, deterministic: false },
  };
}

// The BullMQ executor of a service: the runs the scheduler starts become BullMQ jobs that `pesim
// worker` processes take (a run to a job, or several of one priority when one turn starts more runs
// than the workers have slots: bridge.ts). Everything Redis costs (handing jobs over, their events, fetching and
// writing result files, pause and cancel) happens on a thread of its own, the Redis bridge
// (bridge.ts): the runs started in one turn of the event loop go to it in one message, and their
// ends come back several to a message, so that the service's thread does its bookkeeping only, as
// with embedded runs. Progress and the pause/cancel flags are shared memory, read and written by
// the bridge directly. The scheduler hands over as many runs as the live workers have slots, plus
// PREFETCH_PER_SLOT more per slot so that a worker never waits for the round trip to the service
// (BullMQ orders the runs it holds by their mapped priority, so a later CRITICAL run still goes
// first). A bridge thread that stops fails its runs as transient (the scheduler retries them) and
// is started again; the new one stops the jobs the old one left (as a restarted service does).
import { Worker } from 'node:worker_threads';
import { threadEntry } from '../../../threads/request-thread.js';
import type { ExecutionFailure, ExecutionOutcome, ExecutionRequest, Executor, ExecutorStatus } from '../types.js';
import type { BridgeOptions, BridgeRun, BridgeState, FromBridge, ToBridge } from './bridge-messages.js';
import { queuePackageError } from './packages.js';
import { parseRedisUrl } from './redis-url.js';

export type BullmqExecutorOptions = BridgeOptions;

/** Extra runs handed over per worker slot, so that a slot finds its next job waiting. */
const PREFETCH_PER_SLOT = 8;
/** A bridge thread that stopped is started again after this [ms]. */
const RESTART_DELAY_MS = 1000;
/** How long closing waits for the bridge to withdraw its jobs and close its connections [ms]. */
const CLOSE_WAIT_MS = 15_000;

const BRIDGE_MODULE = new URL('./bridge-thread', import.meta.url);

export class BullmqExecutor implements Executor {
  readonly name = 'bullmq';
  private thread: Worker | undefined;
  /** Runs sent (or about to be) and not ended, by their number. */
  private readonly waiting = new Map<number, (outcome: ExecutionOutcome) => void>();
  /** Runs handed over in this turn of the event loop, sent together at its end. */
  private outgoing: BridgeRun[] = [];
  private nextId = 1;
  private state: BridgeState = { redis: 'DOWN', workers: 0, slots: 0 };
  private readonly capacityListeners: (() => void)[] = [];
  private restartTimer: NodeJS.Timeout | undefined;
  private whenClosed: (() => void) | undefined;
  private closed = false;

  /** Starts the bridge thread; resolves once it has loaded BullMQ (a missing package or a wrong URL fails here). */
  static async start(options: BullmqExecutorOptions): Promise<BullmqExecutor> {
    parseRedisUrl(options.redisUrl);
    const executor = new BullmqExecutor(options);
    await executor.launch();
    return executor;
  }

  private constructor(private readonly options: BullmqExecutorOptions) {}

  /** The live workers' slots and the prefetched runs. */
  get capacity(): number {
    return this.state.slots * (1 + PREFETCH_PER_SLOT);
  }

  onCapacityChange(listener: () => void): void {
    this.capacityListeners.push(listener);
  }

  run(request: ExecutionRequest): Promise<ExecutionOutcome> {
    if (this.closed) return Promise.resolve({ ok: false, error: lost('the service is stopping') });
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      if (this.outgoing.length === 0) setImmediate(() => this.send());
      const { taskId, spec, buffers, output, priority } = request;
      this.outgoing.push({ id, taskId, spec, buffers, output, priority });
    });
  }

  connected(): boolean {
    return !this.closed && this.state.redis === 'UP';
  }

  status(): ExecutorStatus {
    return { backend: 'bullmq', redis: this.connected() ? 'UP' : 'DOWN', workers: this.state.workers, cores: this.state.slots };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.restartTimer);
    this.failAll(lost('the service stopped'));
    const thread = this.thread;
    if (!thread) return;
    // The bridge withdraws the jobs still waiting in Redis and stops the running ones.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, CLOSE_WAIT_MS);
      this.whenClosed = () => {
        clearTimeout(timer);
        resolve();
      };
      thread.postMessage({ kind: 'close' } satisfies ToBridge);
    });
    await thread.terminate();
  }

  private send(): void {
    const runs = this.outgoing;
    this.outgoing = [];
    if (this.closed || runs.length === 0) return;
    if (!this.thread) {
      for (const run of runs) this.end(run.id, { ok: false, error: lost('the Redis bridge thread is restarting') });
      return;
    }
    this.thread.postMessage({ kind: 'runs', runs } satisfies ToBridge);
  }

  /** Starts the bridge thread; resolves when it is ready, rejects when it stops before. */
  private launch(): Promise<void> {
    const thread = new Worker(threadEntry(BRIDGE_MODULE), { workerData: this.options, name: 'pesim Redis bridge' });
    this.thread = thread;
    return new Promise((resolve, reject) => {
      let ready = false;
      thread.on('message', (message: FromBridge) => {
        if (message.kind === 'ready') {
          ready = true;
          resolve();
        } else {
          this.received(message);
        }
      });
      let failure: Error | undefined;
      thread.on('error', (error) => (failure = error));
      thread.once('exit', (code) => {
        this.whenClosed?.();
        if (!ready) reject(queuePackageError(failure ?? new Error(`the Redis bridge thread stopped at its start (exit code ${code})`)));
        else this.stopped(thread);
      });
    });
  }

  private received(message: FromBridge): void {
    if (message.kind === 'ended') {
      for (const { id, outcome } of message.ends) this.end(id, outcome);
    } else if (message.kind === 'state') {
      this.changed(message.state);
    } else if (message.kind === 'closed') {
      this.whenClosed?.();
    }
  }

  private end(id: number, outcome: ExecutionOutcome): void {
    const resolve = this.waiting.get(id);
    this.waiting.delete(id);
    resolve?.(outcome);
  }

  private changed(state: BridgeState): void {
    const grew = state.slots !== this.state.slots;
    this.state = state;
    if (grew) for (const listener of this.capacityListeners) listener();
  }

  /** The bridge thread stopped on its own: its runs fail as transient and a new one starts. */
  private stopped(thread: Worker): void {
    if (this.thread !== thread || this.closed) return;
    this.thread = undefined;
    this.failAll(lost('the Redis bridge thread stopped'));
    this.changed({ redis: 'DOWN', workers: 0, slots: 0 });
    this.restartTimer = setTimeout(() => void this.launch().catch(() => this.stopped(this.thread!)), RESTART_DELAY_MS);
  }

  private failAll(error: ExecutionFailure): void {
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    this.outgoing = [];
    for (const resolve of waiting) resolve({ ok: false, error });
  }
}

function lost(message: string): ExecutionFailure {
  return { code: 'WORKER_LOST', message, deterministic: false };
}

// The BullMQ executor of a service: each run the scheduler starts becomes one BullMQ job (attempts
// = 1, our priority mapped) that some `pesim worker` takes. Progress comes back through QueueEvents
// into the run's shared progress buffer, which the scheduler reads as for local runs; pause, resume
// and cancel set in the run's flags go out on the control channel; the result file's bytes wait in
// a Redis key named by the job's return value and are written where the scheduler wants the file.
// The scheduler hands over as many runs as the live workers have slots, plus PREFETCH_PER_SLOT more
// per slot so that a worker never waits for the round trip to the service (BullMQ orders the runs
// it holds by their mapped priority, so a later CRITICAL run still goes first); see protocol.ts for
// who owns what. The events stream is capped at EVENTS_KEPT entries; a job whose end this process
// did not hear of (an event trimmed or lost in a Redis crash) is settled from its state in Redis.
import { randomBytes } from 'node:crypto';
import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { FLAG_CANCEL, FLAG_PAUSE, PROGRESS_PAUSED, PROGRESS_PHASE, PROGRESS_STEP, PROGRESS_TIME, PROGRESS_TOTAL_STEPS } from '../../../engine/types.js';
import { writeFileAtomicSync } from '../../cache/formats/index.js';
import type { ExecutionFailure, ExecutionOutcome, ExecutionRequest, Executor, ExecutorStatus } from '../types.js';
import { closeConnection, redisConnection, withinMs } from './connection.js';
import { LiveWorkers } from './live-workers.js';
import {
  BULLMQ_PRIORITY, CONTROL_CHANNEL, controlKey, KEY_PREFIX, QUEUE_NAME, resultKey, type ControlMessage, type RunJobData, type RunJobProgress, type RunJobResult,
} from './protocol.js';

export interface BullmqExecutorOptions {
  redisUrl: string;
  /** Prefix of this service's job ids (stable across restarts of the same data directory). */
  serviceId: string;
  maxResultBytes: number;
  /** How often the worker heartbeats are read [ms] (default 1000). */
  censusIntervalMs?: number;
  /** How often jobs in flight are checked against Redis, for events lost in a Redis crash [ms]. */
  reconcileIntervalMs?: number;
}

interface InFlight {
  request: ExecutionRequest;
  resolve(outcome: ExecutionOutcome): void;
  flags: Int32Array;
  progress: Float64Array;
  sentCancel: boolean;
  sentPause: boolean;
  addedAt: number;
  /** The job's end is being handled (its event and a reconcile round may both see it). */
  collecting: boolean;
}

/** Extra runs handed over per worker slot, so that a slot finds its next job waiting. */
const PREFETCH_PER_SLOT = 4;
const EVENTS_KEPT = 100;
const CONTROL_POLL_MS = 50;
/** How long closing waits for Redis before it lets go. */
const CLOSE_WAIT_MS = 3000;

export class BullmqExecutor implements Executor {
  readonly name = 'bullmq';
  private readonly queue: Queue;
  private readonly events: QueueEvents;
  /** This service's connection: the Queue's, heartbeat reads, control messages, result bytes. */
  private readonly client: Redis;
  private readonly workers: LiveWorkers;
  private readonly inFlight = new Map<string, InFlight>();
  private readonly controlTimer: NodeJS.Timeout;
  private readonly reconcileTimer: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly options: BullmqExecutorOptions) {
    this.client = redisConnection(options.redisUrl, `pesim:service:${options.serviceId}`);
    this.client.on('error', () => undefined); // connection errors: ioredis reconnects; health shows Redis DOWN
    this.queue = new Queue(QUEUE_NAME, { connection: this.client, prefix: KEY_PREFIX, streams: { events: { maxLen: EVENTS_KEPT } } });
    // QueueEvents blocks on a duplicate of the connection, which it closes itself.
    this.events = new QueueEvents(QUEUE_NAME, { connection: this.client, prefix: KEY_PREFIX });
    this.queue.on('error', () => undefined);
    this.events.on('error', () => undefined);
    this.workers = new LiveWorkers(this.client, options.censusIntervalMs ?? 1000);
    this.events.on('completed', ({ jobId, returnvalue }) => this.completed(jobId, returnvalue as unknown as RunJobResult));
    this.events.on('failed', ({ jobId, failedReason }) => this.settle(jobId, { ok: false, error: lost(`the job failed in BullMQ: ${failedReason}`) }));
    this.events.on('progress', ({ jobId, data }) => this.progressed(jobId, data as unknown as RunJobProgress));
    this.controlTimer = setInterval(() => this.forwardControl(), CONTROL_POLL_MS);
    this.reconcileTimer = setInterval(() => void this.reconcile(), options.reconcileIntervalMs ?? 5000);
    void this.removeStaleJobs();
  }

  /** The live workers' slots and the prefetched runs. */
  get capacity(): number {
    return this.workers.current.slots * (1 + PREFETCH_PER_SLOT);
  }

  onCapacityChange(listener: () => void): void {
    this.workers.onChange(listener);
  }

  run(request: ExecutionRequest): Promise<ExecutionOutcome> {
    if (this.closed) return Promise.resolve({ ok: false, error: lost('the service is stopping') });
    const jobId = `${this.options.serviceId}.${request.taskId}.${randomBytes(4).toString('hex')}`;
    const format = request.output?.format ?? 'parquet';
    const compression = request.output?.compression ?? 'snappy';
    const data: RunJobData = { taskId: request.taskId, spec: request.spec, format, compression, maxResultBytes: this.options.maxResultBytes };
    return new Promise((resolve) => {
      this.inFlight.set(jobId, {
        request,
        resolve,
        flags: new Int32Array(request.buffers.flags),
        progress: new Float64Array(request.buffers.progress),
        sentCancel: false,
        sentPause: false,
        addedAt: Date.now(),
        collecting: false,
      });
      const priority = BULLMQ_PRIORITY[request.priority ?? 'NORMAL'];
      this.queue
        .add('run', data, { jobId, priority, attempts: 1, removeOnComplete: { age: 3600 }, removeOnFail: { age: 3600 } })
        .catch((error: Error) => this.settle(jobId, { ok: false, error: lost(`the run could not be handed to Redis: ${error.message}`) }));
    });
  }

  connected(): boolean {
    return !this.closed && this.client.status === 'ready';
  }

  status(): ExecutorStatus {
    const { workers, slots } = this.workers.current;
    return { backend: 'bullmq', redis: this.connected() ? 'UP' : 'DOWN', workers, cores: slots };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.controlTimer);
    clearInterval(this.reconcileTimer);
    this.workers.close();
    const jobIds = [...this.inFlight.keys()];
    for (const jobId of jobIds) this.settle(jobId, { ok: false, error: lost('the service stopped') });
    // Jobs still waiting are withdrawn and running ones told to stop (their tasks run again on the
    // next start); with Redis away, the next start does it instead of this close waiting for Redis.
    if (this.client.status === 'ready') {
      await withinMs(CLOSE_WAIT_MS, (async () => {
        for (const jobId of jobIds) {
          const removed = await this.queue.remove(jobId).catch(() => 0);
          if (!removed) await this.publish({ jobId, cancel: true, pause: false }).catch(() => undefined);
        }
      })());
    }
    await withinMs(CLOSE_WAIT_MS, Promise.allSettled([this.events.close(), this.queue.close()]));
    // With Redis away the QueueEvents connection may still be waiting to reconnect: dropped here.
    await withinMs(CLOSE_WAIT_MS, this.events.disconnect());
    await closeConnection(this.client, CLOSE_WAIT_MS);
  }

  private completed(jobId: string, result: RunJobResult): void {
    const run = this.inFlight.get(jobId);
    if (!run) {
      // A job of an earlier process of this service: its result is not wanted any more.
      if (jobId.startsWith(`${this.options.serviceId}.`)) this.forget(jobId);
      return;
    }
    if (run.collecting) return;
    run.collecting = true;
    void this.collect(jobId, run, result).finally(() => this.forget(jobId));
  }

  /** Writes the result bytes the worker left in Redis where the scheduler wants the file. */
  private async collect(jobId: string, run: InFlight, result: RunJobResult): Promise<void> {
    if (!result || typeof result !== 'object') {
      this.settle(jobId, { ok: false, error: lost('the job returned no result') });
    } else if (!result.ok) {
      this.settle(jobId, { ok: false, error: result.error });
    } else if (!run.request.output) {
      this.settle(jobId, { ok: false, error: { code: 'EXECUTOR_ERROR', message: 'the BullMQ executor needs a result file target', deterministic: true } });
    } else {
      try {
        const bytes = await this.client.getBuffer(result.resultKey);
        if (bytes === null) {
          this.settle(jobId, { ok: false, error: lost('the result of the run is no longer in Redis') });
          return;
        }
        writeFileAtomicSync(run.request.output.path, bytes, { sync: run.request.output.sync });
        this.settle(jobId, { ok: true, written: result.summary });
      } catch (error) {
        this.settle(jobId, { ok: false, error: { code: 'RESULT_WRITE_FAILED', message: `the result could not be fetched or written: ${(error as Error).message}`, deterministic: false } });
      }
    }
  }

  /** Removes a finished job and its result bytes from Redis. */
  private forget(jobId: string): void {
    void this.client.del(resultKey(jobId)).catch(() => undefined);
    void this.queue.remove(jobId).catch(() => undefined);
  }

  private settle(jobId: string, outcome: ExecutionOutcome): void {
    const run = this.inFlight.get(jobId);
    if (!run) return;
    this.inFlight.delete(jobId);
    if (run.sentCancel || run.sentPause) void this.client.del(controlKey(jobId)).catch(() => undefined);
    run.resolve(outcome);
  }

  private progressed(jobId: string, progress: RunJobProgress): void {
    const run = this.inFlight.get(jobId);
    if (!run || typeof progress !== 'object' || progress === null) return;
    run.progress[PROGRESS_STEP] = progress.step;
    run.progress[PROGRESS_TOTAL_STEPS] = progress.totalSteps;
    run.progress[PROGRESS_TIME] = progress.time;
    run.progress[PROGRESS_PHASE] = progress.phase;
    run.progress[PROGRESS_PAUSED] = progress.paused ? 1 : 0;
  }

  /** Sends the pause and cancel flags the scheduler set since the last look. */
  private forwardControl(): void {
    for (const [jobId, run] of this.inFlight) {
      const cancel = Atomics.load(run.flags, FLAG_CANCEL) === 1;
      const pause = Atomics.load(run.flags, FLAG_PAUSE) === 1;
      if (cancel === run.sentCancel && pause === run.sentPause) continue;
      run.sentCancel = cancel;
      run.sentPause = pause;
      void this.publish({ jobId, cancel, pause }).catch(() => undefined);
      // A job no worker has taken yet is withdrawn at once.
      if (cancel) void this.queue.remove(jobId).then((removed) => removed && this.settle(jobId, { ok: false, error: cancelled() }), () => undefined);
    }
  }

  private async publish(message: ControlMessage): Promise<void> {
    await this.client.set(controlKey(message.jobId), JSON.stringify(message), 'PX', 3_600_000);
    await this.client.publish(CONTROL_CHANNEL, JSON.stringify(message));
  }

  /** Jobs whose end this process did not hear of (events lost when Redis crashed) settle from their state. */
  private async reconcile(): Promise<void> {
    if (!this.connected()) return;
    const old = Date.now() - (this.options.reconcileIntervalMs ?? 5000);
    for (const [jobId, run] of this.inFlight) {
      if (run.addedAt > old) continue;
      try {
        const state = await this.queue.getJobState(jobId);
        if (state === 'completed') {
          const job = await this.queue.getJob(jobId);
          if (job) this.completed(jobId, job.returnvalue as RunJobResult);
        } else if (state === 'failed') {
          this.settle(jobId, { ok: false, error: lost('the job failed in BullMQ') });
        } else if (state === 'unknown') {
          this.settle(jobId, { ok: false, error: lost('the job is no longer in Redis') });
        }
      } catch {
        return; // Redis went away again; the next round retries
      }
    }
  }

  /** Jobs of an earlier process of this service: waiting ones are removed, running ones stopped. */
  private async removeStaleJobs(): Promise<void> {
    try {
      const jobs = await this.queue.getJobs(['waiting', 'prioritized', 'delayed', 'active'], 0, -1);
      for (const job of jobs) {
        if (!job.id?.startsWith(`${this.options.serviceId}.`) || this.inFlight.has(job.id)) continue;
        const removed = await this.queue.remove(job.id).catch(() => 0);
        if (!removed) await this.publish({ jobId: job.id, cancel: true, pause: false });
      }
    } catch {
      // Redis not reachable at start-up: the stale jobs finish, and their results are ignored.
    }
  }
}

function lost(message: string): ExecutionFailure {
  return { code: 'WORKER_LOST', message, deterministic: false };
}

function cancelled(): ExecutionFailure {
  return { code: 'CANCELLED', message: 'cancelled before a worker took it', deterministic: true };
}

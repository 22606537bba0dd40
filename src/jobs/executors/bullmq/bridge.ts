// The Redis side of a service in BullMQ mode, on a thread of its own (bridge-thread.ts; the
// service's BullmqExecutor talks to it in messages). The runs of one message become BullMQ jobs
// (attempts = 1, our priority mapped) that `pesim worker` processes take: runs of one priority
// several to a job when the message brings more runs than the workers have slots (jobSizes), so
// that a sweep pays BullMQ's per-job work (scripts, events, locks) once for several runs. Everything
// a run costs in Redis happens here, off the service's thread, and in batches:
// - the jobs of one message go to Redis with one Queue.addBulk;
// - QueueEvents brings progress, which is written straight into the run's shared progress buffer
//   (the scheduler reads it as for local runs), and the jobs' ends;
// - the result files of the ends heard of in one turn (a few hundred KiB each for a short run) go
//   from Redis straight into their files (result-reader.ts), pipelined on one connection, or, from
//   a worker that shares the service's results folder, are renamed from there (shared-results.ts);
// - the ends go back to the service several to a message, at most one message per ENDS_WINDOW_MS.
// Pause and cancel set in the runs' shared flags go out on the control channel. A worker keeps each
// outcome, with the result file's bytes, in the run's result key and BullMQ removes the job when it
// completes, so a job whose end this thread did not hear of (an event trimmed, or lost in a Redis
// crash) is settled from its state or its runs' result keys (reconcile). See protocol.ts for who owns what.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { FLAG_CANCEL, FLAG_PAUSE, PROGRESS_PAUSED, PROGRESS_PHASE, PROGRESS_STEP, PROGRESS_TIME, PROGRESS_TOTAL_STEPS } from '../../../engine/types.js';
import type { ExecutionFailure, ExecutionOutcome, ResultTarget } from '../types.js';
import type { BridgeEnd, BridgeOptions, BridgeRun, BridgeState } from './bridge-messages.js';
import { closeConnection, redisConnection, withinMs } from './connection.js';
import { LiveWorkers } from './live-workers.js';
import { parseRedisUrl } from './redis-url.js';
import { ResultReader } from './result-reader.js';
import { adoptSharedResult, removeLeftResults } from './shared-results.js';
import {
  BULLMQ_PRIORITY, CONTROL_CHANNEL, controlKey, KEY_PREFIX, MAX_RUNS_PER_JOB, parseJobResult, QUEUE_NAME, RESULT_BYTES, RESULT_OUTCOME, resultKey,
  type ControlMessage, type RunItem, type RunJobData, type RunJobProgress, type RunJobResult, type RunJobResults,
} from './protocol.js';

interface InFlight {
  /** The run's number on the service's side. */
  id: number;
  /** The BullMQ job that carries it (its first run's id). */
  jobId: string;
  output: ResultTarget | undefined;
  flags: Int32Array;
  progress: Float64Array;
  sentCancel: boolean;
  sentPause: boolean;
  addedAt: number;
  /** The job's end is being handled (its event and a reconcile round may both see it). */
  collecting: boolean;
}

export interface BridgeListener {
  /** Ends of runs, several at a time. */
  ended(ends: BridgeEnd[]): void;
  /** Redis reachable or not, and the live workers' census, whenever one of them changes. */
  changed(state: BridgeState): void;
}

const EVENTS_KEPT = 1000;
/** Jobs per worker slot a message's runs are spread over before runs share a job (jobSizes). */
const JOBS_PER_SLOT = 2;
const CONTROL_POLL_MS = 50;
/** The ends of runs go back to the service in one message per this time at most [ms]. */
export const ENDS_WINDOW_MS = 20;
/** How long closing waits for Redis before it lets go. */
const CLOSE_WAIT_MS = 3000;

export class RedisBridge {
  private readonly queue: Queue<RunJobData, RunJobResults>;
  private readonly events: QueueEvents;
  /** The Queue's connection, also for the heartbeat reads. */
  private readonly client: Redis;
  /**
   * Result keys and control messages: a connection BullMQ does not use, so that a pipeline on it
   * does not copy BullMQ's scripts (ioredis copies a connection's scripts into every pipeline).
   */
  private readonly plain: Redis;
  /** The result files' bytes, straight from Redis into the files. */
  private readonly reader: ResultReader;
  private readonly workers: LiveWorkers;
  /** The runs handed over and not settled, by run id. */
  private readonly inFlight = new Map<string, InFlight>();
  /** The run ids of each job that has runs in flight, by job id. */
  private readonly jobs = new Map<string, string[]>();
  private readonly controlTimer: NodeJS.Timeout;
  private readonly reconcileTimer: NodeJS.Timeout;
  /** Jobs whose end was heard of in this turn, collected together at its end. */
  private toCollect: ToCollect[] = [];
  private ends: BridgeEnd[] = [];
  private endsTimer: NodeJS.Timeout | undefined;
  /** When the last ends were sent [performance.now() ms]. */
  private lastEndsAt = Number.NEGATIVE_INFINITY;
  private lastState = '';
  private closed = false;

  constructor(private readonly options: BridgeOptions, private readonly listener: BridgeListener) {
    this.client = redisConnection(options.redisUrl, `pesim:service:${options.serviceId}`);
    this.client.on('error', () => undefined); // connection errors: ioredis reconnects; health shows Redis DOWN
    for (const event of ['ready', 'close', 'end', 'reconnecting']) this.client.on(event, () => this.report());
    this.plain = redisConnection(options.redisUrl, `pesim:service:${options.serviceId}:results`);
    this.plain.on('error', () => undefined);
    this.reader = new ResultReader(parseRedisUrl(options.redisUrl), `pesim:service:${options.serviceId}:files`);
    this.queue = new Queue(QUEUE_NAME, { connection: this.client, prefix: KEY_PREFIX, streams: { events: { maxLen: EVENTS_KEPT } } });
    // QueueEvents blocks on a duplicate of the connection, which it closes itself.
    this.events = new QueueEvents(QUEUE_NAME, { connection: this.client, prefix: KEY_PREFIX });
    this.queue.on('error', () => undefined);
    this.events.on('error', () => undefined);
    this.workers = new LiveWorkers(this.client, options.censusIntervalMs ?? 1000);
    this.workers.onChange(() => this.report());
    this.events.on('completed', ({ jobId, returnvalue }) => this.jobCompleted(jobId, returnvalue as unknown));
    // Runs whose outcome reached their result key before the job failed keep it; the others failed.
    this.events.on('failed', ({ jobId, failedReason }) => this.jobEnded(jobId, lost(`the job failed in BullMQ: ${failedReason}`)));
    this.events.on('progress', ({ jobId, data }) => this.progressed(jobId, data as unknown as RunJobProgress));
    this.controlTimer = setInterval(() => this.forwardControl(), CONTROL_POLL_MS);
    this.reconcileTimer = setInterval(() => void this.reconcile(), options.reconcileIntervalMs ?? 5000);
    void this.removeStaleJobs();
    if (options.sharedResults) removeLeftResults(options.sharedResults.dir, options.serviceId);
  }

  /** Hands the runs to Redis as jobs of one or several runs, with one addBulk. */
  add(runs: BridgeRun[]): void {
    if (this.closed) {
      for (const run of runs) this.end(run.id, { ok: false, error: lost('the service is stopping') });
      return;
    }
    const sharedResults = this.options.sharedResults ? { folder: this.options.sharedResults.folder } : undefined;
    const jobs = jobSizes(runs, this.inFlight.size, this.workers.current.slots).map((pack) => {
      const items: RunItem[] = pack.map((run) => ({
        runId: `${this.options.serviceId}.${run.taskId}.${randomBytes(4).toString('hex')}`,
        taskId: run.taskId,
        spec: run.spec,
        format: run.output?.format ?? 'parquet',
        compression: run.output?.compression ?? 'snappy',
        sync: run.output?.sync ?? false,
      }));
      const jobId = items[0].runId;
      this.jobs.set(jobId, items.map((item) => item.runId));
      for (const [i, run] of pack.entries()) {
        this.inFlight.set(items[i].runId, {
          id: run.id,
          jobId,
          output: run.output,
          flags: new Int32Array(run.buffers.flags),
          progress: new Float64Array(run.buffers.progress),
          sentCancel: false,
          sentPause: false,
          addedAt: Date.now(),
          collecting: false,
        });
      }
      const data: RunJobData = { runs: items, maxResultBytes: this.options.maxResultBytes };
      if (sharedResults) data.sharedResults = sharedResults;
      const priority = BULLMQ_PRIORITY[pack[0].priority ?? 'NORMAL'];
      // BullMQ removes a job as it completes: its runs' outcomes wait in their result keys (protocol.ts).
      return { name: 'run', data, opts: { jobId, priority, attempts: 1, removeOnComplete: true, removeOnFail: { age: 3600 } } };
    });
    this.queue.addBulk(jobs).catch((error: Error) => {
      for (const job of jobs) this.settleJob(job.opts.jobId, { ok: false, error: lost(`the run could not be handed to Redis: ${error.message}`) });
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.controlTimer);
    clearInterval(this.reconcileTimer);
    if (this.endsTimer) clearTimeout(this.endsTimer);
    this.workers.close();
    const jobs = [...this.jobs];
    this.inFlight.clear();
    this.jobs.clear();
    // Jobs still waiting are withdrawn and running ones told to stop (their tasks run again on the
    // next start); with Redis away, the next start does it instead of this close waiting for Redis.
    if (this.client.status === 'ready') {
      await withinMs(CLOSE_WAIT_MS, (async () => {
        for (const [jobId, runIds] of jobs) {
          const removed = await this.queue.remove(jobId).catch(() => 0);
          if (!removed) for (const runId of runIds) await this.publish({ runId, cancel: true, pause: false }).catch(() => undefined);
        }
      })());
    }
    await withinMs(CLOSE_WAIT_MS, Promise.allSettled([this.events.close(), this.queue.close()]));
    // With Redis away the QueueEvents connection may still be waiting to reconnect: dropped here.
    await withinMs(CLOSE_WAIT_MS, this.events.disconnect());
    this.reader.close();
    await Promise.all([closeConnection(this.client, CLOSE_WAIT_MS), closeConnection(this.plain, CLOSE_WAIT_MS)]);
  }

  /** Tells the listener Redis's reachability and the census when either changed. */
  private report(): void {
    const { workers, slots } = this.workers.current;
    const state: BridgeState = { redis: !this.closed && this.client.status === 'ready' ? 'UP' : 'DOWN', workers, slots };
    const text = JSON.stringify(state);
    if (text === this.lastState) return;
    this.lastState = text;
    this.listener.changed(state);
  }

  /** A job's completion: each of its runs' outcomes (from the return value, else from their result keys). */
  private jobCompleted(jobId: string, returnvalue: unknown): void {
    const results = Array.isArray(returnvalue) ? (returnvalue as RunJobResults) : [];
    const runIds = this.jobs.get(jobId);
    if (!runIds) {
      // A job of an earlier process of this service: its results are not wanted any more.
      if (jobId.startsWith(`${this.options.serviceId}.`)) for (const result of results) this.discard(result);
      return;
    }
    runIds.forEach((runId, i) => this.completed(runId, results[i]));
  }

  /** The end of a job without a return value (failed, or found gone): its runs settle from their result keys, else with `failure`. */
  private jobEnded(jobId: string, failure: ExecutionFailure): void {
    for (const runId of this.jobs.get(jobId) ?? []) this.completed(runId, undefined, failure);
  }

  /** A result of an earlier process of this service: its key and shared file go. */
  private discard(result: RunJobResult | undefined): void {
    if (!result?.ok) return;
    void this.plain.del(result.resultKey).catch(() => undefined);
    const shared = this.sharedPath(result.file);
    if (shared) rmSync(shared, { force: true });
  }

  /**
   * A run's end (its job's event, or its state found by reconcile): collected with the others of
   * this turn. Without `result`, its result key holds the outcome, or, without one, `missing`.
   */
  private completed(runId: string, result: RunJobResult | undefined, missing?: ExecutionFailure): void {
    const run = this.inFlight.get(runId);
    if (!run || run.collecting) return;
    run.collecting = true;
    if (this.toCollect.length === 0) setImmediate(() => void this.collect());
    this.toCollect.push({ runId, result, missing });
  }

  /**
   * The runs that ended in this turn: the outcomes not known from their job's event (a failed job,
   * or found by reconcile) read from their result keys in one pipeline, the result files fetched
   * straight into place (result-reader.ts: one pipelined connection), then the keys deleted with
   * one command.
   */
  private async collect(): Promise<void> {
    const batch = this.toCollect;
    this.toCollect = [];
    const unknown = batch.filter((run) => run.result === undefined);
    if (unknown.length > 0) {
      const replies = await this.plain.pipeline(unknown.map(({ runId }) => ['hget', resultKey(runId), RESULT_OUTCOME])).exec().catch(() => null);
      unknown.forEach((run, i) => (run.result = parseJobResult((replies?.[i]?.[1] as string | null | undefined) ?? null)));
    }
    await Promise.all(batch.map(async ({ runId, result, missing }) => this.settle(runId, await this.outcomeOf(runId, result, missing))));
    void this.plain.del(...batch.map(({ runId }) => resultKey(runId))).catch(() => undefined);
  }

  private async outcomeOf(runId: string, result: RunJobResult | undefined, missing?: ExecutionFailure): Promise<ExecutionOutcome> {
    const output = this.inFlight.get(runId)?.output;
    if (!result) return { ok: false, error: missing ?? lost('the run left no result in Redis') };
    if (!result.ok) return { ok: false, error: result.error };
    if (!output) return { ok: false, error: { code: 'EXECUTOR_ERROR', message: 'the BullMQ executor needs a result file target', deterministic: true } };
    try {
      if (result.file !== undefined) {
        const shared = this.sharedPath(result.file);
        if (!shared) return { ok: false, error: lost(`a worker left the result in a shared folder (${JSON.stringify(result.file)}) this service does not have or does not name so`) };
        adoptSharedResult(shared, output.path, output.sync);
        return { ok: true, written: result.summary };
      }
      const found = await this.reader.fetch(resultKey(runId), RESULT_BYTES, output.path, output.sync);
      return found ? { ok: true, written: result.summary } : { ok: false, error: lost('the result of the run is no longer in Redis') };
    } catch (error) {
      return { ok: false, error: { code: 'RESULT_WRITE_FAILED', message: `the result could not be fetched or written: ${(error as Error).message}`, deterministic: false } };
    }
  }

  /** Where a worker's result file named `file` is in the shared results folder (none for a name that is not a plain file name). */
  private sharedPath(file: string | undefined): string | undefined {
    const dir = this.options.sharedResults?.dir;
    if (dir === undefined || file === undefined || basename(file) !== file || file.startsWith('.')) return undefined;
    return join(dir, file);
  }

  private settle(runId: string, outcome: ExecutionOutcome): void {
    const run = this.inFlight.get(runId);
    if (!run) return;
    this.inFlight.delete(runId);
    const left = this.jobs.get(run.jobId)?.filter((id) => id !== runId);
    if (left && left.length > 0) this.jobs.set(run.jobId, left);
    else this.jobs.delete(run.jobId);
    if (run.sentCancel || run.sentPause) void this.plain.del(controlKey(runId)).catch(() => undefined);
    this.end(run.id, outcome);
  }

  /** Every run of the job still in flight ends with `outcome`. */
  private settleJob(jobId: string, outcome: ExecutionOutcome): void {
    for (const runId of this.jobs.get(jobId) ?? []) this.settle(runId, outcome);
  }

  /**
   * A run's end, sent with the others of this turn; at most one message per ENDS_WINDOW_MS, so that
   * at a high rate of short runs the service's thread wakes once for several ends.
   */
  private end(id: number, outcome: ExecutionOutcome): void {
    this.ends.push({ id, outcome });
    if (this.endsTimer) return;
    const wait = Math.max(0, this.lastEndsAt + ENDS_WINDOW_MS - performance.now());
    this.endsTimer = setTimeout(() => {
      this.endsTimer = undefined;
      this.lastEndsAt = performance.now();
      const ends = this.ends;
      this.ends = [];
      this.listener.ended(ends);
    }, wait);
  }

  private progressed(jobId: string, progress: RunJobProgress): void {
    if (typeof progress !== 'object' || progress === null || !Number.isInteger(progress.run)) return;
    const runId = this.jobs.get(jobId)?.[progress.run];
    const run = runId === undefined ? undefined : this.inFlight.get(runId);
    if (!run) return;
    run.progress[PROGRESS_STEP] = progress.step;
    run.progress[PROGRESS_TOTAL_STEPS] = progress.totalSteps;
    run.progress[PROGRESS_TIME] = progress.time;
    run.progress[PROGRESS_PHASE] = progress.phase;
    run.progress[PROGRESS_PAUSED] = progress.paused ? 1 : 0;
  }

  /**
   * Sends the pause and cancel flags the scheduler set since the last look. A job no worker has
   * taken yet whose runs are all cancelled is withdrawn at once; a cancelled run of a job with
   * others stops as its worker reaches it (it reads the run's control key first).
   */
  private forwardControl(): void {
    for (const [runId, run] of this.inFlight) {
      const cancel = Atomics.load(run.flags, FLAG_CANCEL) === 1;
      const pause = Atomics.load(run.flags, FLAG_PAUSE) === 1;
      if (cancel === run.sentCancel && pause === run.sentPause) continue;
      run.sentCancel = cancel;
      run.sentPause = pause;
      void this.publish({ runId, cancel, pause }).catch(() => undefined);
      const jobId = run.jobId;
      if (cancel && this.jobs.get(jobId)?.every((id) => this.inFlight.get(id)?.sentCancel)) {
        void this.queue.remove(jobId).then((removed) => removed && this.settleJob(jobId, { ok: false, error: cancelled() }), () => undefined);
      }
    }
  }

  private async publish(message: ControlMessage): Promise<void> {
    await this.plain.set(controlKey(message.runId), JSON.stringify(message), 'PX', 3_600_000);
    await this.plain.publish(CONTROL_CHANNEL, JSON.stringify(message));
  }

  /**
   * Jobs whose end this thread did not hear of (events lost when Redis crashed) settle from their
   * state: a completed job is gone from the queue (removed as it completed) and its outcome waits
   * in its result key; without one, the job was lost.
   */
  private async reconcile(): Promise<void> {
    if (this.client.status !== 'ready' || this.closed) return;
    const old = Date.now() - (this.options.reconcileIntervalMs ?? 5000);
    for (const [jobId, runIds] of [...this.jobs]) {
      const runs = runIds.map((id) => this.inFlight.get(id));
      if (runs.some((run) => !run || run.addedAt > old) || runs.every((run) => run!.collecting)) continue;
      try {
        // An ended job's runs settle from their result keys (read together in collect()).
        const state = await this.queue.getJobState(jobId);
        if (state === 'failed') this.jobEnded(jobId, lost('the job failed in BullMQ'));
        else if (state === 'completed' || state === 'unknown') this.jobEnded(jobId, lost('the job ended without leaving the run\'s result in Redis'));
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
        if (!job.id?.startsWith(`${this.options.serviceId}.`) || this.jobs.has(job.id)) continue;
        const removed = await this.queue.remove(job.id).catch(() => 0);
        if (!removed) for (const run of runsOf(job.data)) await this.publish({ runId: run.runId, cancel: true, pause: false });
      }
    } catch {
      // Redis not reachable at start-up: the stale jobs finish, and their results are ignored.
    }
  }
}

/** A run of this turn to collect: its outcome if its job's event brought it, else the failure for a run without a result key. */
interface ToCollect {
  runId: string;
  result: RunJobResult | undefined;
  missing?: ExecutionFailure;
}

/**
 * The message's runs in jobs: runs of one priority, in their order, several to a job when the runs
 * handed over and not ended (`inFlight` before these, and these) are more than JOBS_PER_SLOT jobs for
 * each of the workers' slots (at most MAX_RUNS_PER_JOB to a job), so that every slot still has jobs
 * to take; one run to a job otherwise, so that a lone run or a few do not wait behind each other.
 * In a sweep the scheduler keeps about nine runs per slot handed over (executor.ts), and hands over
 * the next runs a few at a time as runs end: they go as one job.
 */
export function jobSizes(runs: BridgeRun[], inFlight: number, slots: number): BridgeRun[][] {
  const size = Math.min(MAX_RUNS_PER_JOB, Math.max(1, Math.floor((inFlight + runs.length) / (Math.max(1, slots) * JOBS_PER_SLOT))));
  const jobs: BridgeRun[][] = [];
  let job: BridgeRun[] = [];
  for (const run of runs) {
    if (job.length === size || (job.length > 0 && (job[0].priority ?? 'NORMAL') !== (run.priority ?? 'NORMAL'))) {
      jobs.push(job);
      job = [];
    }
    job.push(run);
  }
  if (job.length > 0) jobs.push(job);
  return jobs;
}

/** A job's runs (none for data that is not a job of this version). */
function runsOf(data: RunJobData | undefined): RunItem[] {
  return Array.isArray(data?.runs) ? data.runs : [];
}

function lost(message: string): ExecutionFailure {
  return { code: 'WORKER_LOST', message, deterministic: false };
}

function cancelled(): ExecutionFailure {
  return { code: 'CANCELLED', message: 'cancelled before a worker took it', deterministic: true };
}

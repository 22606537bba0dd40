// A `pesim worker` process: a BullMQ Worker that makes the runs of the services' jobs (one or several
// to a job, one after the other) with the addon on worker threads (the embedded executor's pool and
// task code), reports each run's progress through job.updateProgress, obeys pause/resume/cancel
// messages of the control channel, writes each result file into the service's shared results folder
// when it shares it (shared-results.ts) or else hands its bytes back through Redis (bounded by the
// service's limit), and keeps a heartbeat key while alive. A worker killed mid-run loses its job's
// lock; BullMQ's stalled-job check of another worker moves the job back to waiting, and its runs are
// made again there.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { RunController } from '../../../engine/index.js';
import { fileExtension, writeResult } from '../../cache/formats/index.js';
import { simulationNice } from '../../../threads/priority.js';
import { EmbeddedExecutor } from '../embedded.js';
import type { RunSummary } from '../types.js';
import { runSummary } from '../summary.js';
import { closeConnection, redisConnection, withinMs } from './connection.js';
import {
  CONTROL_CHANNEL, controlKey, HEARTBEAT_LIVES, KEY_PREFIX, QUEUE_NAME, RESULT_BYTES, RESULT_OUTCOME, RESULT_TTL_MS, resultKey, resultTooLarge, WORKER_SET, workerKey,
  type ControlMessage, type RunItem, type RunJobData, type RunJobProgress, type RunJobResult, type RunJobResults, type WorkerBeat,
} from './protocol.js';
import { sharedFolderIdentity, sharedResultName, type SharedResultsFolder } from './shared-results.js';
import type { RemoteWorkerOptions } from './worker-options.js';

export { DEFAULT_WORKER_OPTIONS, type RemoteWorkerOptions } from './worker-options.js';

const JOBS_PER_THREAD = 2;
/** How long closing waits for Redis to answer QUIT [ms]. */
const CLOSE_WAIT_MS = 3000;

export class RemoteWorker {
  readonly id = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  private readonly pool: EmbeddedExecutor;
  private readonly worker: Worker<RunJobData, RunJobResults>;
  /** Heartbeats, control keys, result bytes; the BullMQ Worker blocks on duplicates of it. */
  private readonly client: Redis;
  /** The control channel's subscription (a subscribed connection serves nothing else). */
  private readonly subscriber: Redis;
  /** The runs of the jobs being processed (started or not), by run id. */
  private readonly running = new Map<string, RunController>();
  private readonly scratch = join(tmpdir(), `pesim-worker-${process.pid}`);
  private heartbeat: NodeJS.Timeout | undefined;
  /** A heartbeat is on its way (beats are skipped rather than queued while Redis is away). */
  private beating = false;
  /** Redis could not be reached since the last report (reported once per outage). */
  private outage = false;
  private readonly beat: WorkerBeat;
  /** The identity of this worker's shared results folder (options.sharedResultsDir). */
  private readonly sharedFolder: string | undefined;
  /** Folder identities of jobs this worker does not share, reported once each. */
  private readonly foreignFolders = new Set<string>();

  constructor(private readonly options: RemoteWorkerOptions) {
    if (options.sharedResultsDir !== undefined) this.sharedFolder = sharedFolderIdentity(options.sharedResultsDir, '--shared-results (PESIM_SHARED_RESULTS_DIR)');
    mkdirSync(this.scratch, { recursive: true });
    // The engine threads start once the worker takes jobs (start()): each loads the engine and the
    // result codecs, which would otherwise compete with the start-up for the CPU.
    this.pool = new EmbeddedExecutor({ threads: options.concurrency, deferThreads: true, niceIncrement: simulationNice() });
    this.client = redisConnection(options.redisUrl, `pesim:worker:${this.id}`);
    this.subscriber = redisConnection(options.redisUrl, `pesim:worker:${this.id}:control`);
    this.subscriber.on('error', () => undefined); // the main client reports outages
    this.subscriber.on('message', (_channel: string, text: string) => this.control(parseControl(text)));
    this.client.on('error', (error: Error & { code?: string }) => this.unreachable(error));
    this.client.on('ready', () => this.reachable());
    this.beat = { id: this.id, host: hostname(), pid: process.pid, concurrency: options.concurrency, startedAt: new Date().toISOString() };
    this.worker = new Worker<RunJobData, RunJobResults>(QUEUE_NAME, (job) => this.process(job), {
      connection: this.client,
      prefix: KEY_PREFIX,
      name: this.id, // a job's processedBy names the worker running it
      // Two jobs per thread: while one runs, the next is already taken, so the Redis round trips
      // of finishing one job and fetching the next overlap with a run instead of idling the thread.
      concurrency: options.concurrency * JOBS_PER_THREAD,
      lockDuration: options.lockDurationMs,
      stalledInterval: options.stalledIntervalMs,
      maxStalledCount: options.maxStalledCount,
      autorun: false,
    });
    this.worker.on('error', () => undefined); // connection errors: the client reconnects
  }

  /** The results folder this worker shares with services, if any. */
  get sharedResultsDir(): string | undefined {
    return this.options.sharedResultsDir;
  }

  /** Subscribes to the control channel, starts the heartbeat and takes jobs. */
  async start(): Promise<void> {
    await this.subscriber.subscribe(CONTROL_CHANNEL);
    await this.sendHeartbeat();
    this.heartbeat = setInterval(() => void this.sendHeartbeat(), this.options.heartbeatMs);
    void this.worker.run();
    await this.worker.waitUntilReady();
    this.pool.startThreads();
  }

  /** Stops taking jobs, lets the running ones finish, and removes the heartbeat key. */
  async close(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    await this.worker.close();
    if (this.client.status === 'ready') await withinMs(CLOSE_WAIT_MS, Promise.all([this.client.del(workerKey(this.id)), this.client.srem(WORKER_SET, this.id)]));
    await Promise.allSettled([this.pool.close(), closeConnection(this.client, CLOSE_WAIT_MS), closeConnection(this.subscriber, CLOSE_WAIT_MS)]);
    rmSync(this.scratch, { recursive: true, force: true });
  }

  private async sendHeartbeat(): Promise<void> {
    if (this.beating) return;
    this.beating = true;
    try {
      await this.client.set(workerKey(this.id), JSON.stringify(this.beat), 'PX', this.options.heartbeatMs * HEARTBEAT_LIVES);
      await this.client.sadd(WORKER_SET, this.id);
    } catch {
      // Redis gone for good (the connection closed): services count this worker gone after three missed beats
    } finally {
      this.beating = false;
    }
  }

  private unreachable(error: Error & { code?: string }): void {
    if (this.outage) return;
    this.outage = true;
    this.options.log?.(`Redis unreachable (${error.code ?? error.message}); retrying`);
  }

  private reachable(): void {
    if (!this.outage) return;
    this.outage = false;
    this.options.log?.('Redis reachable again');
  }

  private control(message: ControlMessage | undefined): void {
    if (!message) return;
    const controller = this.running.get(message.runId);
    if (!controller) return;
    if (message.cancel) controller.cancel();
    if (message.pause) controller.pause();
    else controller.resume();
  }

  /**
   * A job's runs, one after the other: the outcome of each. Their controllers exist from the start,
   * so that a pause or cancel reaches a run that has not started yet; the control keys of all runs
   * are read once (a message sent before this worker took the job). Each run's outcome goes to its
   * result key as the run ends, without waiting for Redis's answer before the next run; the job
   * completes once all are stored (protocol.ts: resultKey).
   */
  private async process(job: Job<RunJobData, RunJobResults>): Promise<RunJobResults> {
    const runs = job.data.runs;
    const controllers = runs.map((run) => {
      const controller = new RunController();
      this.running.set(run.runId, controller);
      return controller;
    });
    const shared = this.shares(job.data.sharedResults);
    const made: MadeRun[] = [];
    let handedOver = false;
    try {
      void this.client.mget(runs.map((run) => controlKey(run.runId))).then((earlier) => earlier.forEach((text) => text && this.control(parseControl(text))), () => undefined);
      const stored: Promise<unknown>[] = [];
      for (const [index, run] of runs.entries()) {
        const one = await this.makeRun(job, index, run, controllers[index], shared);
        const storing = this.store(one);
        storing.catch(() => undefined); // looked at below, also when a later run throws first
        stored.push(storing);
        made.push({ ...one, bytes: undefined }); // the bytes are Redis's now
      }
      const refused = (await Promise.allSettled(stored)).find((answer) => answer.status === 'rejected');
      if (refused) throw (refused as PromiseRejectedResult).reason; // the job fails in BullMQ, and the service retries its runs
      handedOver = true;
      return made.map(({ result }) => result);
    } finally {
      for (const run of runs) this.running.delete(run.runId);
      // Files in the shared folder stay for the service, unless their outcomes never reached Redis.
      if (!handedOver) for (const { sharedPath } of made) if (sharedPath) rmSync(sharedPath, { force: true });
    }
  }

  /** A run's outcome (and the result file's bytes) into its result key; rejects when Redis refuses it. */
  private async store({ run, result, bytes }: MadeRun): Promise<void> {
    const fields: Record<string, string | Buffer> = { [RESULT_OUTCOME]: JSON.stringify(result) };
    if (bytes) fields[RESULT_BYTES] = bytes;
    const replies = await this.client.multi().hset(resultKey(run.runId), fields).pexpire(resultKey(run.runId), RESULT_TTL_MS).exec();
    const refused = replies?.find(([error]) => error)?.[0];
    if (refused) throw refused;
  }

  /**
   * One run of a job, into its result file: its outcome and, through Redis, the file's bytes; with
   * `shared`, the file stays in the shared results folder.
   */
  private async makeRun(job: Job<RunJobData, RunJobResults>, index: number, run: RunItem, controller: RunController, shared: boolean): Promise<MadeRun> {
    let last = '';
    const report = setInterval(() => {
      const p = controller.progress();
      const seen = `${p.phase}/${p.step}/${p.paused}`;
      if (seen === last) return;
      last = seen;
      const progress: RunJobProgress = { run: index, step: p.step, totalSteps: p.totalSteps, time: p.time, phase: p.phase === 'pre-simulation' ? 0 : p.phase === 'done' ? 2 : 1, paused: p.paused };
      void job.updateProgress(progress as unknown as Record<string, unknown>).catch(() => undefined);
    }, this.options.progressIntervalMs);
    const extension = fileExtension(run.format, run.compression);
    const name = sharedResultName(run.runId, extension);
    const path = shared ? join(this.options.sharedResultsDir!, name) : join(this.scratch, `${randomBytes(8).toString('hex')}${extension}`);
    let kept = false;
    try {
      const { result, bytes } = await this.simulate(run, job.data.maxResultBytes, controller, path, shared ? name : undefined);
      kept = shared && result.ok;
      return { run, result, bytes, sharedPath: kept ? path : undefined };
    } finally {
      clearInterval(report);
      if (!kept) rmSync(path, { force: true });
    }
  }

  /** True when the job's shared results folder is this worker's (else its bytes go through Redis). */
  private shares(target: SharedResultsFolder | undefined): target is SharedResultsFolder {
    if (!target) return false;
    if (target.folder === this.sharedFolder) return true;
    if (!this.foreignFolders.has(target.folder)) {
      this.foreignFolders.add(target.folder);
      const mine = this.sharedFolder ? `this worker's ${this.options.sharedResultsDir} is folder ${this.sharedFolder}` : 'this worker has none (--shared-results)';
      this.options.log?.(`a service's shared results folder ${target.folder} is not shared with this worker (${mine}): its results go through Redis`);
    }
    return false;
  }

  /**
   * Makes a run's simulation into `path`: its outcome, and the result file's bytes for a run that
   * made one, unless the file stays in the shared results folder as `sharedName`.
   */
  private async simulate(run: RunItem, maxResultBytes: number, controller: RunController, path: string, sharedName: string | undefined): Promise<{ result: RunJobResult; bytes?: Buffer }> {
    const sync = sharedName !== undefined && run.sync;
    const output = { path, format: run.format, compression: run.compression, sync };
    const outcome = await this.pool.run({ taskId: run.taskId, spec: run.spec, buffers: controller.buffers, output });
    if (!outcome.ok) return { result: { ok: false, error: outcome.error, worker: this.id } };
    let summary: RunSummary;
    if ('written' in outcome) {
      summary = outcome.written;
    } else {
      await writeResult(path, outcome.result, run.format, run.compression, { sync });
      summary = runSummary(outcome.result);
    }
    if (sharedName !== undefined) {
      return { result: { ok: true, summary, resultKey: resultKey(run.runId), bytes: statSync(path).size, file: sharedName, worker: this.id } };
    }
    const bytes = readFileSync(path);
    if (bytes.length > maxResultBytes) return { result: { ok: false, error: resultTooLarge(bytes.length, maxResultBytes), worker: this.id } };
    return { result: { ok: true, summary, resultKey: resultKey(run.runId), bytes: bytes.length, worker: this.id }, bytes };
  }
}

/** A run made: its outcome, the result file's bytes to send through Redis, or the file left in the shared folder. */
interface MadeRun {
  run: RunItem;
  result: RunJobResult;
  bytes?: Buffer;
  sharedPath?: string;
}

/** A control message, or undefined for text that is not one (ignored rather than fatal). */
function parseControl(text: string): ControlMessage | undefined {
  try {
    const value = JSON.parse(text) as Partial<ControlMessage>;
    return typeof value?.runId === 'string' ? { runId: value.runId, cancel: value.cancel === true, pause: value.pause === true } : undefined;
  } catch {
    return undefined;
  }
}

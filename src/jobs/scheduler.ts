// The scheduler: accepts tasks, keeps them durable in the store, starts them by priority (FIFO
// within one priority) on an executor without exceeding its capacity, and carries them through
// their states: retries with exponential back-off for transient failures, time-outs, cancel, pause
// and resume reaching the running engine, and recovery of interrupted tasks after a restart.
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { RunController } from '../engine/controller.js';
import type { Store } from '../store/types.js';
import type { ResultCache } from './cache/result-cache.js';
import { fileExtension, readResult, writeResult } from './cache/formats/index.js';
import { systemClock, type Clock } from './clock.js';
import { InvalidStateError, QueueFullError, TaskNotFoundError } from './errors.js';
import type { TaskEvents } from './events.js';
import type { ExecutionFailure, ExecutionOutcome, Executor, ResultTarget } from './executors/types.js';
import { PriorityQueue } from './queue.js';
import { progressOf } from './progress.js';
import type { CacheEntryRecord, Compression, Priority, StorageFormat, StoredResult, TaskRecord, TaskSpec } from './types.js';

export interface SchedulerSettings {
  /** Unfinished tasks (queued, running, paused) accepted at most; beyond: QueueFullError. */
  queueSize: number;
  /** A run longer than this is stopped and retried (0: no limit). */
  taskTimeoutMs: number;
  /** Retries after the first attempt for transient failures. */
  retryAttempts: number;
  /** Attempt n waits retryDelayMs · 2^(n−1) before it starts. */
  retryDelayMs: number;
  /** Tasks started per dispatch round before yielding to the event loop. */
  batchSize: number;
  resultsDir: string;
  resultFormat: StorageFormat;
  resultCompression: Compression;
  progressIntervalMs: number;
}

export interface SubmitInput {
  owner: string;
  priority: Priority;
  spec: TaskSpec;
  request: unknown;
  batchId?: string | null;
  /** What the cache index records about the model (file or circuit name). */
  modelName: string;
}

interface Running {
  controller: RunController;
  startedAtMs: number;
  poll: NodeJS.Timeout;
  timeout?: unknown;
  timedOut: boolean;
  cancelled: boolean;
  lastProgressStoredAt: number;
}

export class Scheduler {
  private readonly queue = new PriorityQueue();
  private readonly running = new Map<string, Running>();
  private readonly order = new Map<string, number>();
  private sequence = 0;
  private wakeUp: unknown;
  private stopping = false;
  private pumping = false;

  constructor(
    private readonly store: Store,
    private readonly executor: Executor,
    private readonly cache: ResultCache | undefined,
    readonly events: TaskEvents,
    readonly settings: SchedulerSettings,
    private readonly clock: Clock = systemClock,
  ) {
    mkdirSync(settings.resultsDir, { recursive: true });
  }

  /** Recovers tasks left queued, running or paused by a previous process, then starts dispatching. */
  start(): void {
    for (const task of this.store.tasks.inStates(['queued', 'running', 'paused'])) {
      this.order.set(task.id, this.sequence++);
      if (task.state !== 'queued') {
        // Interrupted mid-run: the attempt counts; it runs again unless its retries are used up.
        if (task.attempts > this.settings.retryAttempts) {
          this.transition(task.id, { state: 'failed', completedAt: this.isoNow(), errorCode: 'INTERRUPTED', errorMessage: 'the service stopped during every attempt' });
          continue;
        }
        this.transition(task.id, { state: 'queued', progress: null });
      }
      this.queue.push(task.id, task.priority, task.retryAt ? Date.parse(task.retryAt) : 0);
    }
    this.pump();
  }

  /** Stops dispatching and stops the runs in progress; they stay recorded as running and are re-queued by the next start(). */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.wakeUp) this.clock.clearTimeout(this.wakeUp);
    for (const run of this.running.values()) run.controller.cancel();
    const deadline = Date.now() + 5000;
    while (this.running.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  }

  get activeRuns(): number {
    return this.running.size;
  }

  async submit(input: SubmitInput): Promise<TaskRecord> {
    return (await this.submitMany([input]))[0];
  }

  /** Accepts all inputs or none (queue capacity is checked for the whole set). */
  async submitMany(inputs: SubmitInput[]): Promise<TaskRecord[]> {
    const counts = this.store.tasks.countByState();
    const unfinished = counts.queued + counts.running + counts.paused;
    if (unfinished + inputs.length > this.settings.queueSize) {
      throw new QueueFullError(this.settings.queueSize, Math.max(1, Math.ceil(this.settings.retryDelayMs / 1000)));
    }
    const records: TaskRecord[] = [];
    const hits: { record: TaskRecord; entry: CacheEntryRecord }[] = [];
    for (const input of inputs) {
      const record = this.newRecord(input);
      const entry = this.cache && record.cacheKey ? this.cache.lookup(record.cacheKey) : undefined;
      if (entry) {
        const now = this.isoNow();
        Object.assign(record, { state: 'completed', cacheHit: true, startedAt: now, completedAt: now, runMs: entry.runMs });
        hits.push({ record, entry });
      }
      records.push(record);
    }
    // The result files of hits exist before their records say completed.
    for (const { record, entry } of hits) await this.cache!.copyOut(entry, this.resultPath(record.id), this.settings.resultFormat, this.settings.resultCompression);
    this.store.transaction(() => {
      this.store.tasks.insertMany(records);
      for (const record of records) this.log('INFO', record.cacheHit ? 'completed from the result cache' : `queued (${record.priority})`, record.id);
    });
    for (const record of records) {
      this.order.set(record.id, this.sequence++);
      this.events.emit('state', record);
      if (record.state === 'queued') this.queue.push(record.id, record.priority);
    }
    this.pump();
    return records;
  }

  get(id: string): TaskRecord {
    const task = this.store.tasks.get(id);
    if (!task) throw new TaskNotFoundError(id);
    return task;
  }

  /** The stored result of a completed task. */
  async result(id: string): Promise<StoredResult> {
    const task = this.get(id);
    if (task.state !== 'completed') throw new InvalidStateError(id, task.state, 'read the result of');
    return readResult(this.resultPath(id), this.settings.resultFormat);
  }

  cancel(id: string): TaskRecord {
    const task = this.get(id);
    if (task.state === 'completed' || task.state === 'failed' || task.state === 'cancelled') {
      throw new InvalidStateError(id, task.state, 'cancel');
    }
    const run = this.running.get(id);
    if (run) {
      run.cancelled = true;
      run.controller.cancel();
    } else {
      this.queue.remove(id);
    }
    return this.transition(id, { state: 'cancelled', completedAt: this.isoNow(), retryAt: null }, { level: 'INFO', message: 'cancelled' });
  }

  pause(id: string): TaskRecord {
    const task = this.get(id);
    const run = this.running.get(id);
    if (task.state !== 'running' || !run) throw new InvalidStateError(id, task.state, 'pause');
    run.controller.pause();
    return this.transition(id, { state: 'paused' });
  }

  resume(id: string): TaskRecord {
    const task = this.get(id);
    const run = this.running.get(id);
    if (task.state !== 'paused' || !run) throw new InvalidStateError(id, task.state, 'resume');
    run.controller.resume();
    return this.transition(id, { state: 'running' });
  }

  /** Live progress of a running task (or the last stored one). */
  progress(id: string): TaskRecord['progress'] {
    const run = this.running.get(id);
    if (run) return progressOf(run.controller.progress(), this.clock.now() - run.startedAtMs);
    return this.get(id).progress;
  }

  resultPath(id: string): string {
    return join(this.settings.resultsDir, `${id}${fileExtension(this.settings.resultFormat, this.settings.resultCompression)}`);
  }

  private newRecord(input: SubmitInput): TaskRecord {
    return {
      id: randomUUID(),
      owner: input.owner,
      priority: input.priority,
      state: 'queued',
      spec: input.spec,
      request: input.request,
      batchId: input.batchId ?? null,
      submittedAt: this.isoNow(),
      startedAt: null,
      completedAt: null,
      attempts: 0,
      errorCode: null,
      errorMessage: null,
      cacheHit: false,
      cacheKey: this.cache?.settings.enabled ? this.cache.keyFor(input.spec) : null,
      runMs: null,
      retryAt: null,
      progress: null,
    };
  }

  // Starts as many ready tasks as the executor has free capacity for, batchSize per round.
  private pump(): void {
    if (this.stopping || this.pumping) return;
    this.pumping = true;
    try {
      let started = 0;
      while (this.running.size < this.executor.capacity) {
        if (started >= this.settings.batchSize) {
          setImmediate(() => this.pump());
          return;
        }
        const id = this.queue.popReady(this.clock.now());
        if (id === undefined) break;
        this.startTask(id);
        started++;
      }
      this.armWakeUp();
    } finally {
      this.pumping = false;
    }
  }

  private armWakeUp(): void {
    if (this.wakeUp) this.clock.clearTimeout(this.wakeUp);
    this.wakeUp = undefined;
    const at = this.queue.nextWakeUp(this.clock.now());
    if (at !== undefined) this.wakeUp = this.clock.setTimeout(() => this.pump(), at - this.clock.now());
  }

  private startTask(id: string): void {
    const task = this.store.tasks.get(id);
    if (!task || task.state !== 'queued') return;
    const controller = new RunController();
    const run: Running = {
      controller,
      startedAtMs: this.clock.now(),
      timedOut: false,
      cancelled: false,
      lastProgressStoredAt: 0,
      poll: setInterval(() => this.reportProgress(id), this.settings.progressIntervalMs),
    };
    if (this.settings.taskTimeoutMs > 0) {
      run.timeout = this.clock.setTimeout(() => {
        run.timedOut = true;
        controller.cancel();
      }, this.settings.taskTimeoutMs);
    }
    this.running.set(id, run);
    const attempts = task.attempts + 1;
    this.transition(id, { state: 'running', startedAt: this.isoNow(), attempts, retryAt: null }, { level: 'INFO', message: `started (attempt ${attempts})` });
    this.executor
      .run({ taskId: id, spec: task.spec, buffers: controller.buffers, output: this.resultTarget(id) })
      .then(
        (outcome) => this.finish(id, outcome),
        (error: unknown) => this.finish(id, { ok: false, error: { code: 'EXECUTOR_ERROR', message: String((error as Error)?.message ?? error), deterministic: false } }),
      )
      .catch((error: unknown) => this.log('ERROR', `internal error finishing the task: ${(error as Error).message}`, id));
  }

  private reportProgress(id: string): void {
    const run = this.running.get(id);
    const task = this.store.tasks.get(id);
    if (!run || !task) return;
    const progress = progressOf(run.controller.progress(), this.clock.now() - run.startedAtMs);
    if (task.state === 'paused' || progress.step === task.progress?.step) return;
    const now = this.clock.now();
    // Progress goes to the bus every interval; to the store at most once a second.
    if (now - run.lastProgressStoredAt >= 1000) {
      run.lastProgressStoredAt = now;
      this.events.emit('progress', this.store.tasks.update(id, { progress }), progress);
    } else {
      this.events.emit('progress', { ...task, progress }, progress);
    }
  }

  private async finish(id: string, outcome: ExecutionOutcome): Promise<void> {
    const run = this.running.get(id);
    this.running.delete(id);
    if (run) {
      clearInterval(run.poll);
      if (run.timeout) this.clock.clearTimeout(run.timeout);
    }
    const task = this.store.tasks.get(id);
    if (!task || this.stopping) return;
    if (run?.cancelled || task.state === 'cancelled') {
      rmSync(this.resultPath(id), { force: true }); // written by a run that finished as it was cancelled
      this.pump(); // a cancelled run never enters the cache
      return;
    }
    if (outcome.ok) {
      await this.complete(task, outcome);
    } else {
      const error: ExecutionFailure = run?.timedOut
        ? { code: 'TIMEOUT', message: `the run exceeded the task time-out of ${this.settings.taskTimeoutMs} ms`, deterministic: false }
        : outcome.error;
      this.fail(task, error);
    }
    this.pump();
  }

  private async complete(task: TaskRecord, outcome: Extract<ExecutionOutcome, { ok: true }>): Promise<void> {
    const target = this.resultTarget(task.id);
    if ('result' in outcome) await this.writeTaskResult(task.id, outcome.result); // executors without our disk
    const { stats } = 'result' in outcome ? outcome.result : outcome.written;
    if (this.cache && task.cacheKey) {
      const description = { modelFile: this.modelName(task), parameters: task.spec.parameters, runMs: stats.wallMs };
      await this.cache.putFile(task.cacheKey, target.path, target.format, target.compression, description);
    }
    const done = progressOf({ phase: 'done', step: stats.steps, totalSteps: stats.steps, time: 0, percent: 100, paused: false }, 0);
    this.transition(
      task.id,
      { state: 'completed', completedAt: this.isoNow(), runMs: stats.wallMs, progress: done, errorCode: null, errorMessage: null },
      { level: 'INFO', message: `completed in ${stats.wallMs.toFixed(1)} ms`, duration: stats.wallMs / 1000 },
    );
  }

  private resultTarget(id: string): ResultTarget {
    return { path: this.resultPath(id), format: this.settings.resultFormat, compression: this.settings.resultCompression };
  }

  private fail(task: TaskRecord, error: ExecutionFailure): void {
    const retriesLeft = task.attempts <= this.settings.retryAttempts;
    if (error.deterministic || !retriesLeft) {
      this.transition(
        task.id,
        { state: 'failed', completedAt: this.isoNow(), errorCode: error.code, errorMessage: error.message, progress: null },
        { level: 'ERROR', message: `failed: ${error.message}` },
      );
      return;
    }
    const delay = this.settings.retryDelayMs * 2 ** (task.attempts - 1);
    const readyAt = this.clock.now() + delay;
    this.transition(
      task.id,
      { state: 'queued', retryAt: new Date(readyAt).toISOString(), errorCode: error.code, errorMessage: error.message, progress: null },
      { level: 'WARNING', message: `attempt ${task.attempts} failed (${error.code}: ${error.message}); retry in ${delay} ms` },
    );
    this.queue.insertOrdered(task.id, task.priority, readyAt, (other) => this.order.get(other) ?? Number.MAX_SAFE_INTEGER);
  }

  private async writeTaskResult(id: string, result: StoredResult): Promise<void> {
    const path = this.resultPath(id);
    try {
      await writeResult(path, result, this.settings.resultFormat, this.settings.resultCompression);
    } catch (error) {
      rmSync(path, { force: true });
      throw error;
    }
  }

  private modelName(task: TaskRecord): string {
    return task.spec.netlist.name ?? task.id;
  }

  /** Updates the task and records the log line in one transaction (one commit), then tells the bus. */
  private transition(id: string, patch: Partial<TaskRecord>, note?: { level: 'INFO' | 'WARNING' | 'ERROR'; message: string; duration?: number }): TaskRecord {
    const updated = this.store.transaction(() => {
      const record = this.store.tasks.update(id, patch);
      if (note) this.log(note.level, note.message, id, note.duration);
      return record;
    });
    this.events.emit('state', updated);
    return updated;
  }

  private log(level: 'INFO' | 'WARNING' | 'ERROR', message: string, taskId: string, duration?: number): void {
    this.store.logs.append({ timestamp: this.isoNow(), level, message, taskId, duration });
  }

  private isoNow(): string {
    return new Date(this.clock.now()).toISOString();
  }
}

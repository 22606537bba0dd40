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
import type { NetlistMemo } from './cache/key.js';
import { fileExtension, readResult, writeResult } from './cache/formats/index.js';
import { systemClock, type Clock } from './clock.js';
import { InvalidStateError, QueueFullError, TaskNotFoundError } from './errors.js';
import type { TaskEvents } from './events.js';
import type { ExecutionFailure, ExecutionOutcome, Executor, ResultTarget, RunSummary } from './executors/types.js';
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
  /** Flush each result file to the device before its task completes (durability `full`). */
  syncResults: boolean;
  /**
   * Shortest time between two commits of run starts and ends [ms] (default 2): the starts and
   * ends of that time commit together, in one transaction. The runs themselves start at once.
   */
  commitIntervalMs?: number;
}

const DEFAULT_COMMIT_INTERVAL_MS = 2;

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
  /** The task as stored: every change of a running task goes through this scheduler, so the
   *  record is kept here instead of being read and decoded again from the store. */
  task: TaskRecord;
  startedAtMs: number;
  /** Step of the last progress event (none twice for the same step). */
  lastStep: number;
  timeout?: unknown;
  timedOut: boolean;
  cancelled: boolean;
  lastProgressStoredAt: number;
}

export class Scheduler {
  private readonly queue = new PriorityQueue();
  private readonly running = new Map<string, Running>();
  /** Submission order of the unfinished tasks (retries go back in at their place). */
  private readonly order = new Map<string, number>();
  /** Stored records of the queued tasks: only this scheduler changes them, so starting a task
   *  needs no read and decode of its row. */
  private readonly waiting = new Map<string, TaskRecord>();
  /** File name extension of the result files. */
  private readonly resultExtension: string;
  private sequence = 0;
  private wakeUp: unknown;
  private stopping = false;
  private pumping = false;
  /** One progress poll for all running tasks (a timer per task cost more than the polls). */
  private progressTimer: unknown;
  /** Set inside inOneCommit: state events wait there for the commit. */
  private deferredEvents: TaskRecord[] | undefined;
  /** Store writes (with their state events) of run starts and ends waiting for the next commit. */
  private pendingWrites: { id: string; write: () => void }[] = [];
  private commitTimer: NodeJS.Timeout | NodeJS.Immediate | undefined;
  private lastCommitAt = 0;

  constructor(
    private readonly store: Store,
    private readonly executor: Executor,
    private readonly cache: ResultCache | undefined,
    readonly events: TaskEvents,
    readonly settings: SchedulerSettings,
    private readonly clock: Clock = systemClock,
  ) {
    mkdirSync(settings.resultsDir, { recursive: true });
    executor.onCapacityChange?.(() => this.pump());
    this.resultExtension = fileExtension(settings.resultFormat, settings.resultCompression);
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
        this.waiting.set(task.id, this.transition(task.id, { state: 'queued', progress: null }));
      } else {
        this.waiting.set(task.id, task);
      }
      this.queue.push(task.id, task.priority, task.retryAt ? Date.parse(task.retryAt) : 0);
    }
    this.pump();
  }

  /** Stops dispatching and stops the runs in progress; they stay recorded as running and are re-queued by the next start(). */
  async stop(): Promise<void> {
    this.stopping = true;
    this.commitWrites(); // the starts and ends already seen (pump starts nothing now)
    if (this.wakeUp) this.clock.clearTimeout(this.wakeUp);
    for (const run of this.running.values()) run.controller.cancel();
    this.stopProgressPoll();
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
    // Unfinished tasks (queued, running, paused) are exactly those with a submission order here:
    // counting them in the store would scan the whole table on every submission.
    const unfinished = this.order.size;
    if (unfinished + inputs.length > this.settings.queueSize) {
      throw new QueueFullError(this.settings.queueSize, Math.max(1, Math.ceil(this.settings.retryDelayMs / 1000)));
    }
    const records: TaskRecord[] = [];
    const hits: { record: TaskRecord; entry: CacheEntryRecord }[] = [];
    const memo: NetlistMemo = new Map();
    for (const input of inputs) {
      const record = this.newRecord(input, memo);
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
    // The new tasks and the starts they allow commit together (one commit per submission); the
    // state events follow the commit: the submitted records first, then the starts.
    this.inOneCommit(() => {
      this.store.tasks.insertMany(records);
      if (records.length === 1) {
        this.log('INFO', records[0].cacheHit ? 'completed from the result cache' : `queued (${records[0].priority})`, records[0].id);
      } else {
        // One line for a submission of many (a sweep of 100 000 runs would write 100 000 lines).
        const hitCount = records.filter((r) => r.cacheHit).length;
        const batch = records[0].batchId ? ` of batch ${records[0].batchId}` : '';
        this.log('INFO', `queued ${records.length - hitCount} tasks${batch}${hitCount > 0 ? `, ${hitCount} completed from the result cache` : ''} (${records[0].id} … ${records[records.length - 1].id})`, null);
      }
      this.deferredEvents!.push(...records);
      for (const record of records) {
        if (record.state !== 'queued') continue;
        this.order.set(record.id, this.sequence++);
        this.waiting.set(record.id, record);
        this.queue.push(record.id, record.priority);
      }
      this.pump();
    });
    return records;
  }

  get(id: string): TaskRecord {
    this.commitWrites();
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
    this.commitWrites();
    // Running and queued tasks are held here as stored (only this scheduler changes them).
    const task = this.running.get(id)?.task ?? this.waiting.get(id) ?? this.get(id);
    if (task.state === 'completed' || task.state === 'failed' || task.state === 'cancelled') {
      throw new InvalidStateError(id, task.state, 'cancel');
    }
    const run = this.running.get(id);
    // Where the run stopped: the engine's progress at the cancel, not the last stored poll.
    let reached: Partial<TaskRecord> = {};
    if (run) {
      run.cancelled = true;
      run.controller.cancel();
      reached = { progress: progressOf(run.controller.progress(), this.clock.now() - run.startedAtMs) };
    } else {
      this.queue.remove(id);
      this.waiting.delete(id);
    }
    const updated = this.transition(id, { state: 'cancelled', completedAt: this.isoNow(), retryAt: null, ...reached }, { level: 'INFO', message: 'cancelled' }, task);
    if (run) run.task = updated;
    return updated;
  }

  /** Cancels the unfinished tasks among `ids` in one commit; returns how many it cancelled. */
  cancelMany(ids: string[]): number {
    let cancelled = 0;
    this.inOneCommit(() => {
      for (const id of ids) {
        try {
          this.cancel(id);
          cancelled++;
        } catch (error) {
          if (!(error instanceof InvalidStateError) && !(error instanceof TaskNotFoundError)) throw error;
        }
      }
    });
    return cancelled;
  }

  pause(id: string): TaskRecord {
    const task = this.get(id);
    const run = this.running.get(id);
    if (task.state !== 'running' || !run) throw new InvalidStateError(id, task.state, 'pause');
    run.controller.pause();
    run.task = this.transition(id, { state: 'paused' }, undefined, run.task);
    return run.task;
  }

  resume(id: string): TaskRecord {
    const task = this.get(id);
    const run = this.running.get(id);
    if (task.state !== 'paused' || !run) throw new InvalidStateError(id, task.state, 'resume');
    run.controller.resume();
    run.task = this.transition(id, { state: 'running' }, undefined, run.task);
    return run.task;
  }

  /** Live progress of a running task (or the last stored one). */
  progress(id: string): TaskRecord['progress'] {
    const run = this.running.get(id);
    if (run) return progressOf(run.controller.progress(), this.clock.now() - run.startedAtMs);
    return this.get(id).progress;
  }

  /** Live progress of the running and paused tasks of a batch (a walk over the running runs only). */
  runningProgressOf(batchId: string): { id: string; progress: NonNullable<TaskRecord['progress']> }[] {
    const found: { id: string; progress: NonNullable<TaskRecord['progress']> }[] = [];
    for (const [id, run] of this.running) {
      if (run.task.batchId === batchId && !run.cancelled && (run.task.state === 'running' || run.task.state === 'paused')) found.push({ id, progress: progressOf(run.controller.progress(), this.clock.now() - run.startedAtMs) });
    }
    return found;
  }

  resultPath(id: string): string {
    return join(this.settings.resultsDir, `${id}${this.resultExtension}`);
  }

  private newRecord(input: SubmitInput, memo: NetlistMemo): TaskRecord {
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
      cacheKey: this.cache?.settings.enabled ? this.cache.keyFor(input.spec, memo) : null,
      runMs: null,
      retryAt: null,
      progress: null,
      summary: null,
    };
  }

  // Starts as many ready tasks as the executor has free capacity for, batchSize per round.
  // `dueBy`: the time a wake-up timer was set for; entries ready by then count as ready even if
  // the clock reads a little earlier (Node's timers may fire up to a millisecond before Date.now()
  // reaches their time, and re-arming for the last millisecond once left a retry waiting forever).
  private pump(dueBy = 0): void {
    if (this.stopping || this.pumping) return;
    this.pumping = true;
    try {
      let started = 0;
      while (this.running.size < this.executor.capacity) {
        if (started >= this.settings.batchSize) {
          setImmediate(() => this.pump(dueBy));
          return;
        }
        const id = this.queue.popReady(Math.max(this.clock.now(), dueBy));
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
    if (at !== undefined) this.wakeUp = this.clock.setTimeout(() => this.pump(at), at - this.clock.now());
  }

  private startTask(id: string): void {
    const task = this.waiting.get(id) ?? this.store.tasks.get(id);
    this.waiting.delete(id);
    if (!task || task.state !== 'queued') return;
    const controller = new RunController();
    const run: Running = {
      controller,
      task,
      startedAtMs: this.clock.now(),
      lastStep: -1,
      timedOut: false,
      cancelled: false,
      lastProgressStoredAt: 0,
    };
    if (this.settings.taskTimeoutMs > 0) {
      run.timeout = this.clock.setTimeout(() => {
        run.timedOut = true;
        controller.cancel();
      }, this.settings.taskTimeoutMs);
    }
    this.running.set(id, run);
    this.armProgressPoll();
    const attempts = task.attempts + 1;
    const startedAt = this.isoNow();
    this.write(id, () => {
      run.task = this.transition(id, { state: 'running', startedAt, attempts, retryAt: null }, { level: 'INFO', message: `started (attempt ${attempts})` }, run.task);
    });
    this.executor
      .run({ taskId: id, spec: task.spec, buffers: controller.buffers, output: this.resultTarget(id), priority: task.priority })
      .then(
        (outcome) => this.finish(id, outcome),
        (error: unknown) => this.finish(id, { ok: false, error: { code: 'EXECUTOR_ERROR', message: String((error as Error)?.message ?? error), deterministic: false } }),
      )
      .catch((error: unknown) => this.log('ERROR', `internal error finishing the task: ${(error as Error).message}`, id));
  }

  private reportAllProgress(): void {
    for (const run of this.running.values()) this.reportProgress(run);
  }

  private reportProgress(run: Running): void {
    const task = run.task;
    if (task.state !== 'running' || run.cancelled) return;
    const now = this.clock.now();
    const progress = progressOf(run.controller.progress(), now - run.startedAtMs);
    if (progress.step === run.lastStep) return;
    run.lastStep = progress.step;
    // Progress goes to the bus every interval; to the store at most once a second.
    if (now - run.lastProgressStoredAt >= 1000) {
      run.lastProgressStoredAt = now;
      run.task = this.store.tasks.updateFrom(task, { progress });
      this.events.emit('progress', run.task, progress);
    } else {
      this.events.emit('progress', { ...task, progress }, progress);
    }
  }

  /** Polls progress every progressIntervalMs on the scheduler's clock while runs go on. */
  private armProgressPoll(): void {
    if (this.progressTimer !== undefined) return;
    this.progressTimer = this.clock.setTimeout(() => {
      this.progressTimer = undefined;
      this.reportAllProgress();
      if (this.running.size > 0 && !this.stopping) this.armProgressPoll();
    }, this.settings.progressIntervalMs);
  }

  private stopProgressPoll(): void {
    if (this.progressTimer !== undefined) this.clock.clearTimeout(this.progressTimer);
    this.progressTimer = undefined;
  }

  private async finish(id: string, outcome: ExecutionOutcome): Promise<void> {
    const run = this.running.get(id);
    // A run ends once: a second report of it (a remote executor hearing of a job twice) is ignored.
    if (!run) return;
    this.running.delete(id);
    if (run.timeout) this.clock.clearTimeout(run.timeout);
    if (this.running.size === 0) this.stopProgressPoll();
    if (this.stopping) return;
    if (run.cancelled || run.task.state === 'cancelled') {
      rmSync(this.resultPath(id), { force: true }); // written by a run that finished as it was cancelled
      this.pump(); // a cancelled run never enters the cache
      return;
    }
    // A run that outlived its time-out fails even when it got to the end (the time-out fired while
    // the result was being encoded, after the engine's last look at the cancel flag).
    if (outcome.ok && !run.timedOut) {
      const summary = await this.keepResult(run.task, outcome);
      // run.task is read when the write runs: its start may still be waiting for the commit too.
      this.write(id, () => this.complete(run.task, summary));
    } else {
      if (outcome.ok) rmSync(this.resultPath(id), { force: true });
      const error: ExecutionFailure = run.timedOut || outcome.ok
        ? { code: 'TIMEOUT', message: `the run exceeded the task time-out of ${this.settings.taskTimeoutMs} ms`, deterministic: false }
        : outcome.error;
      const reached = progressOf(run.controller.progress(), this.clock.now() - run.startedAtMs);
      this.write(id, () => this.fail(run.task, error, reached));
    }
    this.pump(); // the next run starts now; its start is written with this end
  }

  /**
   * Runs a store write of a run's start or end: at once inside an open commit, else with the other
   * writes of the next commit, at most one every commitIntervalMs (at thousands of runs per second
   * a commit per start and per end was the service thread's largest cost). Until then the store
   * shows the run's previous state; the scheduler's own operations (get, cancel, pause, resume,
   * submit, stop) commit the waiting writes first. A crash in between loses at most the starts and
   * ends of that interval: those runs are queued again on the next start().
   */
  private write(id: string, write: () => void): void {
    if (this.deferredEvents) {
      write();
      return;
    }
    this.pendingWrites.push({ id, write });
    if (this.commitTimer !== undefined) return;
    const wait = this.lastCommitAt + (this.settings.commitIntervalMs ?? DEFAULT_COMMIT_INTERVAL_MS) - Date.now();
    this.commitTimer = wait > 0 ? setTimeout(() => this.commitWrites(), wait) : setImmediate(() => this.commitWrites());
  }

  /** Commits the waiting writes in one transaction (with the starts they allow), then tells the bus. */
  private commitWrites(): void {
    if (this.pendingWrites.length === 0) {
      this.clearCommitTimer();
      return;
    }
    if (this.deferredEvents) this.applyPendingWrites(); // a commit is open: they join it
    else this.inOneCommit(() => this.pump());
  }

  private clearCommitTimer(): void {
    if (this.commitTimer === undefined) return;
    clearTimeout(this.commitTimer as NodeJS.Timeout);
    clearImmediate(this.commitTimer as NodeJS.Immediate);
    this.commitTimer = undefined;
  }

  /** Inside a commit: the waiting writes first, in their order. */
  private applyPendingWrites(): void {
    this.clearCommitTimer();
    if (this.pendingWrites.length === 0) return;
    const writes = this.pendingWrites;
    this.pendingWrites = [];
    this.lastCommitAt = Date.now();
    for (const { id, write } of writes) {
      try {
        write();
      } catch (error) {
        this.log('ERROR', `internal error recording the task: ${(error as Error).message}`, id);
      }
    }
  }

  /**
   * Runs fn in one store transaction; the state events of the transitions in it go to the bus
   * after the commit (as a lone transition's do), and none if it rolls back.
   */
  private inOneCommit(fn: () => void): void {
    if (this.deferredEvents) {
      fn();
      return;
    }
    const events: TaskRecord[] = [];
    this.deferredEvents = events;
    try {
      this.store.transaction(() => {
        this.applyPendingWrites();
        fn();
      });
    } finally {
      this.deferredEvents = undefined;
    }
    for (const record of events) this.events.emit('state', record);
  }

  /**
   * Writes the result file when the executor returned arrays and enters it in the cache; returns
   * the run's statistics and the summary kept with the task.
   */
  private async keepResult(task: TaskRecord, outcome: Extract<ExecutionOutcome, { ok: true }>): Promise<RunSummary> {
    const target = this.resultTarget(task.id);
    if ('result' in outcome) await this.writeTaskResult(task.id, outcome.result); // executors without our disk
    const summary: RunSummary =
      'result' in outcome
        ? { measurements: outcome.result.measurements, signals: Object.keys(outcome.result.signals), stats: outcome.result.stats }
        : outcome.written;
    const { stats } = summary;
    if (this.cache && task.cacheKey) {
      const description = { modelFile: this.modelName(task), parameters: task.spec.parameters, runMs: stats.wallMs };
      await this.cache.putFile(task.cacheKey, target.path, target.format, target.compression, description);
    }
    return summary;
  }

  private complete(task: TaskRecord, { measurements, signals, stats }: RunSummary): void {
    const done = progressOf({ phase: 'done', step: stats.steps, totalSteps: stats.steps, time: 0, percent: 100, paused: false }, 0);
    this.transition(
      task.id,
      { state: 'completed', completedAt: this.isoNow(), runMs: stats.wallMs, progress: done, errorCode: null, errorMessage: null, summary: { measurements, signals } },
      { level: 'INFO', message: `completed in ${stats.wallMs.toFixed(1)} ms`, duration: stats.wallMs / 1000 },
      task,
    );
  }

  private resultTarget(id: string): ResultTarget {
    return { path: this.resultPath(id), format: this.settings.resultFormat, compression: this.settings.resultCompression, sync: this.settings.syncResults };
  }

  /** `reached`: where the failed run stopped, kept with a final failure (a retry starts from 0). */
  private fail(task: TaskRecord, error: ExecutionFailure, reached: TaskRecord['progress'] = null): void {
    const retriesLeft = task.attempts <= this.settings.retryAttempts;
    if (error.deterministic || !retriesLeft) {
      this.transition(
        task.id,
        { state: 'failed', completedAt: this.isoNow(), errorCode: error.code, errorMessage: error.message, progress: reached },
        { level: 'ERROR', message: `failed: ${error.message}` },
        task,
      );
      return;
    }
    const delay = this.settings.retryDelayMs * 2 ** (task.attempts - 1);
    const readyAt = this.clock.now() + delay;
    const queued = this.transition(
      task.id,
      { state: 'queued', retryAt: new Date(readyAt).toISOString(), errorCode: error.code, errorMessage: error.message, progress: null },
      { level: 'WARNING', message: `attempt ${task.attempts} failed (${error.code}: ${error.message}); retry in ${delay} ms` },
      task,
    );
    this.waiting.set(task.id, queued);
    this.queue.insertOrdered(task.id, task.priority, readyAt, (other) => this.order.get(other) ?? Number.MAX_SAFE_INTEGER);
  }

  private async writeTaskResult(id: string, result: StoredResult): Promise<void> {
    const path = this.resultPath(id);
    try {
      await writeResult(path, result, this.settings.resultFormat, this.settings.resultCompression, { sync: this.settings.syncResults });
    } catch (error) {
      rmSync(path, { force: true });
      throw error;
    }
  }

  private modelName(task: TaskRecord): string {
    return task.spec.netlist.name ?? task.id;
  }

  /**
   * Updates the task and records the log line in one transaction (one commit), then tells the bus.
   * `current`: the task's stored record when the caller holds it (spares reading it back).
   */
  private transition(
    id: string,
    patch: Partial<TaskRecord>,
    note?: { level: 'INFO' | 'WARNING' | 'ERROR'; message: string; duration?: number },
    current?: TaskRecord,
  ): TaskRecord {
    const write = (): TaskRecord => {
      const record = current ? this.store.tasks.updateFrom(current, patch) : this.store.tasks.update(id, patch);
      if (note) this.log(note.level, note.message, id, note.duration);
      return record;
    };
    // Inside inOneCommit the transaction is open already (a savepoint would add two statements).
    const updated = this.deferredEvents ? write() : this.store.transaction(write);
    if (updated.state === 'completed' || updated.state === 'failed' || updated.state === 'cancelled') this.order.delete(id);
    if (this.deferredEvents) this.deferredEvents.push(updated);
    else this.events.emit('state', updated);
    return updated;
  }

  private log(level: 'INFO' | 'WARNING' | 'ERROR', message: string, taskId: string | null, duration?: number): void {
    this.store.logs.append({ timestamp: this.isoNow(), level, message, ...(taskId !== null ? { taskId } : {}), duration });
  }

  private isoNow(): string {
    return new Date(this.clock.now()).toISOString();
  }
}

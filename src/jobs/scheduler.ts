// The scheduler: accepts tasks, keeps them durable in the store, starts them by priority (FIFO
// within one priority) on an executor without exceeding its capacity, and carries them through
// their states: retries of transient failures (backoff.ts), time-outs, cancel, pause and resume
// reaching the running engine, and recovery of interrupted tasks after a restart. Result files and
// cache entries are kept by result-keeping.ts, progress is polled by run-progress.ts. A write the
// data directory cannot take (a full disk, storage.ts) never escapes a timer or a run's end: a
// start waits in the queue, the end of a run is recorded once space is back, a request gets
// StorageFullError, and what the store held stays as it was.
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { RunController } from '../engine/controller.js';
import type { Store } from '../store/types.js';
import type { ResultCache } from './cache/result-cache.js';
import type { NetlistMemo } from './cache/key.js';
import { retryDelayMs } from './backoff.js';
import { systemClock, type Clock } from './clock.js';
import { InvalidStateError, QueueFullError, TaskNotFoundError } from './errors.js';
import type { TaskEvents } from './events.js';
import type { ExecutionFailure, ExecutionOutcome, Executor, RunSummary } from './executors/types.js';
import { PriorityQueue, type QueuedTask } from './queue.js';
import { progressOf } from './progress.js';
import { ResultKeeper } from './result-keeping.js';
import { PendingWrites, type PendingWrite } from './pending-writes.js';
import { ProgressPoll, progressNow, type Running } from './run-progress.js';
import { isStorageFull, StorageHealth } from './storage.js';
import type { CacheEntryRecord, Compression, Priority, StorageFormat, StoredResult, TaskRecord, TaskSpec, TaskState } from './types.js';

/** How long stop() waits for the runs it cancelled to end [ms]. */
const STOP_WAIT_MS = 5000;
/** Default of SchedulerSettings.commitIntervalMs. */
const COMMIT_INTERVAL_MS = 5;

/** Tasks per state, states without tasks left out. */
export type StateCounts = Partial<Record<TaskState, number>>;

export interface SchedulerSettings {
  /** Unfinished tasks (queued, running, paused) accepted at most; beyond: QueueFullError. */
  queueSize: number;
  /** A run longer than this is stopped and retried (0: no limit). */
  taskTimeoutMs: number;
  /** Retries after the first attempt for transient failures. */
  retryAttempts: number;
  /** Attempt n waits retryDelayMs · 2^(n−1) before it starts (backoff.ts). */
  retryDelayMs: number;
  /** Fraction of each retry wait drawn at random (0…1, default 0: the exact doubling). */
  retryJitter?: number;
  /** Tasks started per dispatch round before yielding to the event loop. */
  batchSize: number;
  resultsDir: string;
  resultFormat: StorageFormat;
  resultCompression: Compression;
  progressIntervalMs: number;
  /** Flush each result file to the device before its task completes (durability `full`). */
  syncResults: boolean;
  /**
   * Queued tasks of one priority held in memory at most (default 512); the others wait in the
   * store and are paged in as the held ones start.
   */
  queueWindow?: number;
  /**
   * The starts and ends of runs are written to the store together at most this often (one commit
   * for all of them; default 5 ms): at thousands of runs per second a commit per run was the
   * service thread's largest cost. Runs start at once; their records follow within this time.
   */
  commitIntervalMs?: number;
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

export class Scheduler {
  /** The queued tasks held in memory: a window of each priority, the rest paged in from the store. */
  private readonly queue: PriorityQueue;
  private readonly running = new Map<string, Running>();
  /** Store sequence numbers (order within a priority) of the tasks held: queued in the window, or running. */
  private readonly seqs = new Map<string, number>();
  /** Stored records of the queued tasks the queue holds: only this scheduler changes them, so
   *  starting a task needs no read and decode of its row. */
  private readonly waiting = new Map<string, TaskRecord>();
  private wakeUp: unknown;
  private stopping = false;
  private pumping = false;
  /** Called when the last run in progress ends (stop() waits for them). */
  private idleWaiters: (() => void)[] = [];
  /** Set inside inOneCommit: state events wait there for the commit. */
  private deferredEvents: TaskRecord[] | undefined;
  /** Set inside inOneCommit: the tasks started in it (their starts are undone when it fails). */
  private startedInCommit: TaskRecord[] | undefined;
  /** Starts and ends of runs waiting for the next commit (defer). */
  private readonly pending: PendingWrites;
  private lastIso = { ms: Number.NaN, text: '' };
  readonly storage: StorageHealth;
  private readonly results: ResultKeeper;
  private readonly progressPoll: ProgressPoll;

  constructor(
    private readonly store: Store,
    private readonly executor: Executor,
    private readonly cache: ResultCache | undefined,
    readonly events: TaskEvents,
    readonly settings: SchedulerSettings,
    private readonly clock: Clock = systemClock,
    storage?: StorageHealth,
  ) {
    this.storage = storage ?? new StorageHealth(dirname(settings.resultsDir), () => store.counters.add('storage.probe', 1));
    mkdirSync(settings.resultsDir, { recursive: true });
    executor.onCapacityChange?.(() => this.pump());
    this.results = new ResultKeeper(settings, cache, this.storage);
    this.pending = new PendingWrites(settings.commitIntervalMs ?? COMMIT_INTERVAL_MS, () => this.commitPending());
    this.queue = new PriorityQueue((priority, afterSeq, limit) => this.pageIn(priority, afterSeq, limit), settings.queueWindow);
    this.progressPoll = new ProgressPoll(this.running, store, events, this.storage, clock, settings.progressIntervalMs);
  }

  /**
   * Recovers tasks left running or paused by a previous process (queued again, or failed once
   * their attempts are used up), then starts dispatching; the queued tasks are paged in from the
   * store as they come up.
   */
  start(): void {
    for (const task of this.store.tasks.inStates(['running', 'paused'])) {
      // Interrupted mid-run: the attempt counts; it runs again unless its retries are used up.
      if (task.attempts > this.settings.retryAttempts) {
        this.transition(task.id, { state: 'failed', completedAt: this.isoNow(), errorCode: 'INTERRUPTED', errorMessage: 'the service stopped during every attempt' }, undefined, task);
      } else {
        this.transition(task.id, { state: 'queued', progress: null }, undefined, task);
      }
    }
    this.pump();
  }

  /** The next stored queued tasks of a priority, kept as the queue's records (PriorityQueue). */
  private pageIn(priority: Priority, afterSeq: number, limit: number): QueuedTask[] {
    return this.store.tasks.queuedPage(priority, afterSeq, limit).map(({ task, seq }) => {
      // A run whose start waits for its commit (after a rewind: queue.ts) is not queued again.
      if (this.running.has(task.id)) return { id: task.id, seq, readyAt: 0, started: true };
      this.waiting.set(task.id, task);
      this.seqs.set(task.id, seq);
      return { id: task.id, seq, readyAt: task.retryAt ? Date.parse(task.retryAt) : 0 };
    });
  }

  /** Stops dispatching and stops the runs in progress; they stay recorded as running and are re-queued by the next start(). */
  async stop(): Promise<void> {
    this.commitPending(false);
    this.stopping = true;
    if (this.wakeUp) this.clock.clearTimeout(this.wakeUp);
    for (const run of this.running.values()) run.controller.cancel();
    this.progressPoll.stop();
    await this.runsEnded(STOP_WAIT_MS);
  }

  /** Resolves once no run is in progress, or after waitMs on the scheduler's clock. */
  private runsEnded(waitMs: number): Promise<void> {
    if (this.running.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = this.clock.setTimeout(resolve, waitMs);
      this.idleWaiters.push(() => {
        this.clock.clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Forgets a run that ended (or whose start was undone). */
  private ended(id: string): void {
    const run = this.running.get(id);
    this.running.delete(id);
    if (run?.timeout) this.clock.clearTimeout(run.timeout);
    if (this.running.size > 0) return;
    this.progressPoll.disarm();
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const notify of waiters) notify();
  }

  get activeRuns(): number {
    return this.running.size;
  }

  async submit(input: SubmitInput): Promise<TaskRecord> {
    return (await this.submitMany([input]))[0];
  }

  /**
   * Accepts all inputs or none (queue capacity is checked for the whole set). `checked`: the
   * submission's checks, still running: the records are made meanwhile, and nothing is stored
   * (and no capacity taken) unless they pass; their error is this call's.
   */
  async submitMany(inputs: SubmitInput[], checked?: Promise<void>): Promise<TaskRecord[]> {
    if (!checked) this.checkCapacity(inputs.length);
    try {
      return await this.submitNew(inputs, checked);
    } catch (error) {
      checked?.catch(() => undefined); // failed before waiting for the checks: their outcome no longer matters
      throw this.storage.failed(error); // a full disk is reported as such; other errors as they are
    }
  }

  /** QUEUE_FULL unless the unfinished tasks and `adding` fit, from the counts the store keeps (no count over the rows). */
  private checkCapacity(adding: number): void {
    const counts = this.store.tasks.countByState();
    const unfinished = counts.queued + counts.running + counts.paused;
    if (unfinished + adding > this.settings.queueSize) {
      throw new QueueFullError(this.settings.queueSize, Math.max(1, Math.ceil(this.settings.retryDelayMs / 1000)));
    }
  }

  private async submitNew(inputs: SubmitInput[], checked: Promise<void> | undefined): Promise<TaskRecord[]> {
    const records: TaskRecord[] = [];
    const hits: { record: TaskRecord; entry: CacheEntryRecord }[] = [];
    const memo: NetlistMemo = new Map();
    // One time for the submission: its tasks were submitted together (and share the string).
    const submittedAt = this.isoNow();
    for (const input of inputs) {
      const record = this.newRecord(input, memo, submittedAt);
      const entry = this.cache && record.cacheKey ? this.cache.lookup(record.cacheKey) : undefined;
      if (entry) {
        const now = this.isoNow();
        Object.assign(record, { state: 'completed', cacheHit: true, startedAt: now, completedAt: now, runMs: entry.runMs });
        hits.push({ record, entry });
      }
      records.push(record);
    }
    const plan = this.store.tasks.planInsert(records);
    if (checked) {
      await checked;
      this.checkCapacity(records.length); // after the wait: other submissions may have taken room
    }
    // The result files of hits exist before their records say completed.
    for (const { record, entry } of hits) await this.results.copyFromCache(entry, record.id);
    // The new tasks and the starts they allow commit together (one commit per submission); the
    // state events follow the commit: the submitted records first, then the starts.
    const forget = (): void => {
      for (const record of records) {
        this.seqs.delete(record.id);
        this.waiting.delete(record.id);
        this.queue.remove(record.id);
      }
      this.queue.rewind();
    };
    this.inOneCommit(() => {
      const seqs = this.store.tasks.insertPlanned(plan);
      if (records.length === 1) {
        this.log('INFO', records[0].cacheHit ? 'completed from the result cache' : `queued (${records[0].priority})`, records[0].id);
      } else {
        // One line for a submission of many (a sweep of 100 000 runs would write 100 000 lines).
        const hitCount = records.filter((r) => r.cacheHit).length;
        const batch = records[0].batchId ? ` of batch ${records[0].batchId}` : '';
        this.log('INFO', `queued ${records.length - hitCount} tasks${batch}${hitCount > 0 ? `, ${hitCount} completed from the result cache` : ''} (${records[0].id} … ${records[records.length - 1].id})`, null);
      }
      for (const record of records) this.deferredEvents!.push(record);
      for (const [i, record] of records.entries()) {
        // Held when the queue has room at the end of its priority; else paged in in its turn.
        if (record.state !== 'queued' || !this.queue.push(record.id, record.priority, seqs[i])) continue;
        this.seqs.set(record.id, seqs[i]);
        this.waiting.set(record.id, record);
      }
      this.pump();
    }, forget);
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
    return this.results.read(id);
  }

  cancel(id: string): TaskRecord {
    // A run that ended, its end not yet recorded: the cancel wins (its result goes).
    const ending = this.pending.endOf(id);
    // Running and queued tasks are held here as stored (only this scheduler changes them).
    const task = this.running.get(id)?.task ?? this.waiting.get(id) ?? ending?.task ?? this.get(id);
    if (task.state === 'completed' || task.state === 'failed' || task.state === 'cancelled') {
      throw new InvalidStateError(id, task.state, 'cancel');
    }
    const run = this.running.get(id);
    // Where the run stopped: the engine's progress at the cancel, not the last stored poll.
    const reached: Partial<TaskRecord> = run ? { progress: progressNow(run, this.clock) } : {};
    if (ending) this.pending.remove(ending);
    let updated: TaskRecord;
    try {
      // Recorded first: a cancel the store cannot take changes nothing.
      updated = this.transition(id, { state: 'cancelled', completedAt: this.isoNow(), retryAt: null, ...reached }, { level: 'INFO', message: 'cancelled' }, task);
    } catch (error) {
      if (ending) this.defer(ending);
      throw error;
    }
    if (ending) this.results.remove(id);
    if (run) {
      run.cancelled = true;
      run.controller.cancel();
      run.task = updated;
    } else {
      this.queue.remove(id);
      this.waiting.delete(id);
    }
    this.seqs.delete(id);
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

  /**
   * Cancels the queued tasks of a batch (waiting for their start or a retry, held or still in the
   * store) with one statement and one log line, where cancel() takes a statement and a log line
   * per task (seconds for a batch of 100 000); each still gets its state event. Returns how many
   * it cancelled; its running and paused tasks are left to cancel().
   */
  cancelQueuedOfBatch(batchId: string): number {
    let queued: TaskRecord[] = [];
    try {
      this.inOneCommit(() => {
        // Inside the commit: the starts and ends waiting for it are written first.
        queued = this.store.tasks.queuedOfBatch(batchId);
        if (queued.length === 0) return;
        const completedAt = this.isoNow();
        const changed = this.store.tasks.cancelQueuedOfBatch(batchId, completedAt);
        this.log('INFO', `cancelled ${changed} queued tasks of batch ${batchId}`, null);
        for (const task of queued) this.deferredEvents!.push({ ...task, state: 'cancelled', completedAt, retryAt: null });
      });
    } catch (error) {
      throw this.storage.failed(error);
    }
    for (const { id } of queued) {
      this.queue.remove(id);
      this.waiting.delete(id);
      this.seqs.delete(id);
    }
    return queued.length;
  }

  pause(id: string): TaskRecord {
    const run = this.running.get(id);
    const task = run?.task ?? this.get(id);
    if (task.state !== 'running' || !run) throw new InvalidStateError(id, task.state, 'pause');
    run.controller.pause();
    // The progress reached, not the one last stored (at most once a second): the PAUSED message
    // and the record show it. The engine stops at its next check; reportProgress stores the steps
    // it still makes.
    const progress = progressNow(run, this.clock);
    run.lastStep = progress.step;
    run.task = this.transition(id, { state: 'paused', progress }, undefined, run.task);
    return run.task;
  }

  resume(id: string): TaskRecord {
    const run = this.running.get(id);
    const task = run?.task ?? this.get(id);
    if (task.state !== 'paused' || !run) throw new InvalidStateError(id, task.state, 'resume');
    run.task = this.transition(id, { state: 'running' }, undefined, run.task);
    run.controller.resume();
    return run.task;
  }

  /** Live progress of a running task (or the last stored one). */
  progress(id: string): TaskRecord['progress'] {
    const run = this.running.get(id);
    if (run) return progressNow(run, this.clock);
    return this.get(id).progress;
  }

  /** Live progress of the running and paused tasks of a batch (a walk over the running runs only). */
  runningProgressOf(batchId: string): { id: string; progress: NonNullable<TaskRecord['progress']> }[] {
    const found: { id: string; progress: NonNullable<TaskRecord['progress']> }[] = [];
    for (const [id, run] of this.running) {
      if (run.task.batchId === batchId && !run.cancelled && (run.task.state === 'running' || run.task.state === 'paused')) {
        found.push({ id, progress: progressNow(run, this.clock) });
      }
    }
    return found;
  }

  resultPath(id: string): string {
    return this.results.path(id);
  }

  private newRecord(input: SubmitInput, memo: NetlistMemo, submittedAt: string): TaskRecord {
    return {
      id: randomUUID(),
      owner: input.owner,
      priority: input.priority,
      state: 'queued',
      spec: input.spec,
      request: input.request,
      batchId: input.batchId ?? null,
      submittedAt,
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
        if (!this.startOrRequeue(id)) return; // the store takes no writes: starts wait for it
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

  /** Starts a task; false (the task back in the queue) when its start cannot be recorded for want of space. */
  private startOrRequeue(id: string): boolean {
    const task = this.waiting.get(id);
    try {
      this.startTask(id);
      return true;
    } catch (error) {
      if (!isStorageFull(error) || !task) throw error;
      this.requeue(task);
      this.storage.whenWritable(() => this.pump());
      return false;
    }
  }

  /** A queued task back in the queue at its place (or left to be paged in from the store). */
  private requeue(task: TaskRecord, readyAt = task.retryAt ? Date.parse(task.retryAt) : 0): void {
    const seq = this.seqs.get(task.id);
    if (seq !== undefined && this.queue.insertOrdered(task.id, task.priority, seq, readyAt)) {
      this.waiting.set(task.id, task);
    } else {
      this.waiting.delete(task.id);
      this.seqs.delete(task.id);
    }
  }

  private startTask(id: string): void {
    const task = this.waiting.get(id) ?? this.store.tasks.get(id);
    this.waiting.delete(id);
    if (!task || task.state !== 'queued') return;
    const started = this.recordStart(task);
    const controller = new RunController();
    const run: Running = {
      controller,
      task: started,
      startedAtMs: this.clock.now(),
      lastStep: -1,
      timedOut: false,
      cancelled: false,
      // The first progress is stored a second into the run: a short run's progress never reaches
      // the store (its record gets the final one), and readers of a running task get it live.
      lastProgressStoredAt: this.clock.now(),
    };
    if (this.settings.taskTimeoutMs > 0) {
      run.timeout = this.clock.setTimeout(() => {
        run.timedOut = true;
        controller.cancel();
      }, this.settings.taskTimeoutMs);
    }
    this.running.set(id, run);
    this.progressPoll.arm();
    this.executor
      .run({ taskId: id, spec: task.spec, buffers: controller.buffers, output: this.results.target(id), priority: task.priority })
      .then(
        (outcome) => this.finish(id, outcome, run),
        (error: unknown) => this.finish(id, { ok: false, error: { code: 'EXECUTOR_ERROR', message: String((error as Error)?.message ?? error), deterministic: false } }, run),
      )
      .catch((error: unknown) => this.logSafely('ERROR', `internal error finishing the task: ${(error as Error).message}`, id));
  }

  /**
   * The start of a run: written with the next commit (defer), or at once inside a commit that is
   * open (a submission's) and for a retry (its record clears the retry time and error readers
   * watch). A start whose commit fails is undone (inOneCommit), so that no run goes on that the
   * store does not know of.
   */
  private recordStart(task: TaskRecord): TaskRecord {
    const attempts = task.attempts + 1;
    const patch: Partial<TaskRecord> = { state: 'running', startedAt: this.isoNow(), attempts, retryAt: null };
    const note = { level: 'INFO' as const, message: `started (attempt ${attempts})` };
    const write = (): TaskRecord => {
      const started = this.transition(task.id, patch, note, task);
      this.startedInCommit?.push(task);
      return started;
    };
    if (this.deferredEvents || task.attempts > 0) return write();
    this.defer({ task, kind: 'start', write });
    return { ...task, ...patch };
  }

  private async finish(id: string, outcome: ExecutionOutcome, started: Running): Promise<void> {
    const run = this.running.get(id);
    // A run ends once: a second report of it (a remote executor hearing of a job twice), or the end
    // of a run whose start was undone (inOneCommit), is ignored.
    if (!run || run !== started) return;
    this.ended(id);
    const task = run.task;
    if (this.stopping) return;
    if (run.cancelled || task.state === 'cancelled') {
      this.results.remove(id); // written by a run that finished as it was cancelled
      this.pump(); // a cancelled run never enters the cache
      return;
    }
    // A run that outlived its time-out fails even when it got to the end (the time-out fired while
    // the result was being encoded, after the engine's last look at the cancel flag).
    if (outcome.ok && !run.timedOut) {
      let summary: RunSummary;
      try {
        summary = await this.results.keep(task, outcome);
      } catch (error) {
        if (!isStorageFull(this.storage.failed(error))) throw error;
        // The result could not be written for want of space: the attempt failed, and is retried.
        this.results.remove(id);
        const failure: ExecutionFailure = { code: 'STORAGE_FULL', message: `the result could not be written: ${(error as Error).message}`, deterministic: false };
        this.recordEnd(task, () => this.fail(task, failure));
        return;
      }
      this.recordEnd(task, () => this.complete(task, summary));
    } else {
      if (outcome.ok) this.results.remove(id);
      const error: ExecutionFailure = run.timedOut || outcome.ok
        ? { code: 'TIMEOUT', message: `the run exceeded the task time-out of ${this.settings.taskTimeoutMs} ms`, deterministic: false }
        : outcome.error;
      const reached = progressNow(run, this.clock);
      this.recordEnd(task, () => this.fail(task, error, reached));
    }
    this.pump(); // the next run starts now; its record follows with this run's end
  }

  /**
   * Records the end of a run with the next commit; when the store cannot take it for want of space,
   * again once it can (the task stays `running` in the store until then).
   */
  private recordEnd(task: TaskRecord, end: () => void): void {
    this.defer({ task, kind: 'end', write: end });
  }

  private defer(write: PendingWrite): void {
    this.pending.add(write);
  }

  /**
   * Writes the starts and ends waiting for it in one commit (on the timer, or before another
   * write), then starts what the queue has ready unless `thenPump` is false.
   */
  private commitPending(thenPump = true): void {
    const writes = this.pending.take();
    if (this.stopping || writes.length === 0) return;
    try {
      this.inOneCommit(() => {
        for (const { write } of writes) write();
      });
    } catch (error) {
      if (isStorageFull(this.storage.failed(error))) {
        // The starts were undone (inOneCommit); the ends wait for space, unless their task changed
        // meanwhile (a cancel while its end waited, a start that was undone).
        this.storage.whenWritable(() => {
          for (const w of writes) {
            if (w.kind === 'end' && !this.stopping && this.store.tasks.get(w.task.id)?.state === w.task.state) this.defer(w);
          }
          this.pump();
        });
        return;
      }
      this.commitEachAlone(writes);
    }
    if (thenPump) this.pump(); // retries put back in the queue wait for their time (armWakeUp)
  }

  /** Not the disk: each write on its own, so that one that cannot be recorded holds back no other. */
  private commitEachAlone(writes: PendingWrite[]): void {
    for (const { task, write } of writes) {
      try {
        this.inOneCommit(write);
      } catch (single) {
        this.logSafely('ERROR', `internal error recording the task: ${(single as Error).message}`, task.id);
      }
    }
  }

  /**
   * Runs fn in one store transaction; the state events of the transitions in it go to the bus
   * after the commit (as a lone transition's do), and none if it rolls back.
   */
  private inOneCommit(fn: () => void, undo?: () => void): void {
    if (this.deferredEvents) {
      fn();
      return;
    }
    // The writes waiting for the timer go first: the store sees every task's changes in order.
    if (this.pending.size > 0) this.commitPending();
    const events: TaskRecord[] = [];
    const started: TaskRecord[] = [];
    this.deferredEvents = events;
    this.startedInCommit = started;
    try {
      this.store.transaction(fn);
    } catch (error) {
      // Rolled back: the runs started in it stop and their tasks wait in the queue again.
      for (const task of started) {
        this.running.get(task.id)?.controller.cancel();
        this.ended(task.id);
        this.requeue(task);
      }
      undo?.();
      throw error;
    } finally {
      this.deferredEvents = undefined;
      this.startedInCommit = undefined;
    }
    for (const record of events) this.events.emit('state', record);
  }

  /** The tasks of a batch per state, as committed: counts the store keeps (no count over its rows). */
  batchStateCounts(batchId: string): StateCounts {
    return this.store.batchResults.countByState(batchId);
  }

  private complete(task: TaskRecord, { measurements, signals, stats, steady }: RunSummary): void {
    const done = progressOf({ phase: 'done', step: stats.steps, totalSteps: stats.steps, time: 0, percent: 100, paused: false }, 0);
    this.transition(
      task.id,
      { state: 'completed', completedAt: this.isoNow(), runMs: stats.wallMs, progress: done, errorCode: null, errorMessage: null, summary: { measurements, signals, ...(steady ? { steady } : {}) } },
      { level: 'INFO', message: `completed in ${stats.wallMs.toFixed(1)} ms`, duration: stats.wallMs / 1000 },
      task,
    );
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
    const delay = retryDelayMs({ delayMs: this.settings.retryDelayMs, jitter: this.settings.retryJitter ?? 0 }, task.attempts);
    const readyAt = this.clock.now() + delay;
    const queued = this.transition(
      task.id,
      { state: 'queued', retryAt: new Date(readyAt).toISOString(), errorCode: error.code, errorMessage: error.message, progress: null },
      { level: 'WARNING', message: `attempt ${task.attempts} failed (${error.code}: ${error.message}); retry in ${delay} ms` },
      task,
    );
    this.requeue(queued, readyAt);
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
    if (!this.deferredEvents && this.pending.size > 0) this.commitPending();
    let updated: TaskRecord;
    try {
      updated = this.deferredEvents ? write() : this.store.transaction(write);
    } catch (error) {
      throw this.storage.failed(error);
    }
    if (updated.state === 'completed' || updated.state === 'failed' || updated.state === 'cancelled') this.seqs.delete(id);
    if (this.deferredEvents) this.deferredEvents.push(updated);
    else this.events.emit('state', updated);
    return updated;
  }

  /** A log line that is dropped when the store cannot take it (it reports a failure already). */
  private logSafely(level: 'INFO' | 'WARNING' | 'ERROR', message: string, taskId: string): void {
    try {
      this.log(level, message, taskId);
    } catch (error) {
      this.storage.failed(error);
    }
  }

  private log(level: 'INFO' | 'WARNING' | 'ERROR', message: string, taskId: string | null, duration?: number): void {
    this.store.logs.append({ timestamp: this.isoNow(), level, message, ...(taskId !== null ? { taskId } : {}), duration });
  }

  /** The clock's time as ISO text, formatted once per millisecond (a sweep's records share it). */
  private isoNow(): string {
    const ms = this.clock.now();
    if (ms !== this.lastIso.ms) this.lastIso = { ms, text: new Date(ms).toISOString() };
    return this.lastIso.text;
  }
}

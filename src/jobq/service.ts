// The job-queue service's logic: checks requests beyond their shape (priority, model path, parameter
// keys, output variables), submits them to the job runtime as the owner `jobq`, and reads tasks,
// results, cache, statistics and logs back. Controllers call it; presenters (TaskPresenter,
// CachePresenter, SystemPresenter) shape what it returns.
import { CHECK_THREAD_MIN } from '../jobs/check-thread.js';
import type { CircuitCheck } from '../jobs/check-worker.js';
import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { batchTable, type BatchTable } from '../jobs/batch-table.js';
import type { ServiceRuntime } from '../jobs/runtime.js';
import type { SubmitInput } from '../jobs/scheduler.js';
import { PRIORITIES, type Priority, type StoredResult, type TaskRecord } from '../jobs/types.js';
import type { JobqConfig } from './config.js';
import { JobqError, RequestValidationError, taskNotFound } from './errors.js';
import type { CacheStats } from '../jobs/cache/result-cache.js';
import type { CacheEntryRecord, LogRecord } from '../store/records.js';
import type { LogLevelName, SimulationRequest } from './models.js';
import type { HealthFacts, StatsFacts } from './SystemPresenter.js';
import { ModelFiles, type LoadedModel } from './model-files.js';
import { PerformanceTracker } from './performance.js';
import { prepareTask, steadyOptions } from './prepare.js';
import type { StoredJobqRequest } from './TaskPresenter.js';

export const JOBQ_OWNER = 'jobq';

/** A batch item's circuit check left for later (submitBatch). */
interface DeferredCheck {
  index: number;
  check: CircuitCheck;
}

/** The item's priority, or INVALID_PRIORITY. */
function checkedPriority(request: SimulationRequest): Priority {
  const priority = request.priority ?? 'NORMAL';
  if (!PRIORITIES.includes(priority as Priority)) {
    throw new JobqError(400, 'INVALID_PRIORITY', `Invalid priority ${JSON.stringify(priority)}; allowed values: ${PRIORITIES.join(', ')}`, {
      field: 'priority',
      suggestion: `Use one of ${PRIORITIES.join(', ')}`,
    });
  }
  return priority as Priority;
}

/** `run`'s result; its error named with the batch item's index. */
function withItemIndex<T>(index: number | undefined, run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw withIndex(error, index);
  }
}

function withIndex(error: unknown, index: number | undefined): unknown {
  if (index !== undefined && error instanceof RequestValidationError) {
    return new RequestValidationError(error.items.map((item) => ({ ...item, loc: item.loc[0] === 'body' ? ['body', index, ...item.loc.slice(1)] : item.loc })));
  }
  if (index === undefined || !(error instanceof JobqError)) return error;
  const field = error.extra.field ? `[${index}].${error.extra.field}` : `[${index}]`;
  return new JobqError(error.status, error.code, `Item ${index}: ${error.message}`, { ...error.extra, field });
}

export class JobqService {
  readonly models: ModelFiles;
  readonly performance: PerformanceTracker;
  private readonly startedAt = Date.now();

  constructor(
    readonly runtime: ServiceRuntime,
    readonly config: JobqConfig,
    readonly simulatorVersion: string,
  ) {
    this.models = new ModelFiles(config.simulator.models_dir);
    this.performance = new PerformanceTracker(runtime, runtime.events, JOBQ_OWNER);
  }

  get uptimeSeconds(): number {
    return (Date.now() - this.startedAt) / 1000;
  }

  /**
   * Checks one request and builds the runtime's submission; `index` names a batch item in errors;
   * `loaded`: the model files a batch has read so far (each is read once per batch).
   */
  /**
   * `deferred`: the circuit check is not made here but added to this list (submitBatch makes the
   * checks of many items on the circuit-check thread).
   */
  async prepare(request: SimulationRequest, index?: number, loaded?: Map<string, Promise<LoadedModel>>, deferred?: DeferredCheck[]): Promise<SubmitInput> {
    const priority = withItemIndex(index, () => checkedPriority(request));
    const model = await this.loadModel(request.model_file, loaded).catch((error: unknown) => {
      throw withIndex(error, index);
    });
    return withItemIndex(index, () => this.prepareLoaded(request, priority, model, index, deferred));
  }

  /** prepare with the item's model read: no await per item of a large batch. */
  private prepareLoaded(request: SimulationRequest, priority: Priority, model: LoadedModel, index: number | undefined, deferred: DeferredCheck[] | undefined): SubmitInput {
    const parameters = request.parameters ?? {};
    const prepared = prepareTask(model, parameters, request.output_variables, this.config.cache.include_files, this.config.orchestration.max_steps, steadyOptions(request.steady), deferred === undefined);
    deferred?.push({ index: index ?? 0, check: { netlist: prepared.spec.netlist, parameters: prepared.spec.parameters } });
    const stored: StoredJobqRequest = {
      model_file: request.model_file,
      parameters,
      output_variables: request.output_variables ?? null,
      metadata: request.metadata ?? {},
      outputs: prepared.outputs,
    };
    return { owner: JOBQ_OWNER, priority, spec: prepared.spec, request: stored, modelName: request.model_file };
  }

  /**
   * The items of a batch, prepared in order with their models read first (each file once; a file
   * that cannot be read fails at the turn of its first item, after that item's own checks).
   */
  private async prepareItems(requests: SimulationRequest[], loaded: Map<string, Promise<LoadedModel>>, deferred: DeferredCheck[] | undefined): Promise<SubmitInput[]> {
    const models = new Map<string, { model: LoadedModel } | { failed: unknown }>();
    for (const { model_file: file } of requests) {
      if (!models.has(file)) models.set(file, await this.loadModel(file, loaded).then((model) => ({ model }), (failed: unknown) => ({ failed })));
    }
    return requests.map((request, index) => withItemIndex(index, () => {
      const priority = checkedPriority(request);
      const read = models.get(request.model_file)!;
      if ('failed' in read) throw read.failed;
      return this.prepareLoaded(request, priority, read.model, index, deferred);
    }));
  }

  /**
   * Makes the deferred circuit checks on the circuit-check thread; the first item that fails is
   * prepared again here, with its check, for its error (every item, should the thread not take them).
   */
  private async checkDeferred(requests: SimulationRequest[], deferred: DeferredCheck[], loaded: Map<string, Promise<LoadedModel>>): Promise<void> {
    if (deferred.length === 0) return;
    const failing = await this.runtime.checks.firstFailing(deferred.map((d) => d.check));
    if (failing === -1) return;
    for (const { index } of failing === undefined ? deferred : deferred.slice(failing)) await this.prepare(requests[index], index, loaded);
  }

  /** A model file, read once per batch: every item of one submission sees the same version of it. */
  private loadModel(modelFile: string, loaded?: Map<string, Promise<LoadedModel>>): Promise<LoadedModel> {
    if (!loaded) return this.models.load(modelFile);
    let model = loaded.get(modelFile);
    if (!model) {
      model = this.models.load(modelFile);
      loaded.set(modelFile, model);
    }
    return model;
  }

  /** 500 SIMULATOR_CONNECTION_ERROR unless the executor can take runs (a remote simulator is probed again first). */
  private async checkSimulator(): Promise<void> {
    const executor = this.runtime.executor;
    if (!executor.connected() && !(executor.probe && (await executor.probe()))) {
      throw new JobqError(500, 'SIMULATOR_CONNECTION_ERROR', `The simulator (${this.runtime.executor.name} executor) cannot take runs`, {
        suggestion: 'Check that the service is not shutting down and the simulator settings (simulator.*) are right, then retry',
      });
    }
  }

  async submit(request: SimulationRequest): Promise<TaskRecord> {
    const input = await this.prepare(request);
    await this.checkSimulator();
    return this.runtime.scheduler.submit(input);
  }

  /**
   * All items are checked before any is queued; one bad item queues nothing. The tasks are
   * recorded as a batch (its id names its results table).
   */
  async submitBatch(requests: SimulationRequest[]): Promise<{ batchId: string; tasks: TaskRecord[] }> {
    const limit = this.config.orchestration.queue_size;
    if (requests.length === 0) throw new RequestValidationError([{ loc: ['body'], msg: 'List should have at least 1 item after validation, not 0', type: 'too_short' }]);
    if (requests.length > limit) {
      throw new RequestValidationError([{ loc: ['body'], msg: `List should have at most ${limit} items after validation, not ${requests.length}`, type: 'too_long' }]);
    }
    const inputs: SubmitInput[] = [];
    const loaded = new Map<string, Promise<LoadedModel>>();
    // The circuit checks of many items go to the circuit-check thread together.
    const deferred: DeferredCheck[] | undefined = requests.length >= CHECK_THREAD_MIN ? [] : undefined;
    try {
      inputs.push(...(await this.prepareItems(requests, loaded, deferred)));
    } catch (error) {
      // An earlier item whose circuit fails is the one reported, as when each is checked in turn.
      if (deferred) await this.checkDeferred(requests, deferred, loaded);
      throw error;
    }
    const batchId = randomUUID();
    for (const input of inputs) input.batchId = batchId; // the inputs were just built for this batch
    // The scheduler makes the records while the checks run on their threads, and stores them once
    // the checks and the simulator's probe have passed.
    const checked = (deferred ? this.checkDeferred(requests, deferred, loaded) : Promise.resolve()).then(() => this.checkSimulator());
    const tasks = await this.runtime.scheduler.submitMany(inputs, checked);
    this.runtime.recordBatchOfTasks({ id: batchId, owner: JOBQ_OWNER, createdAt: new Date().toISOString() });
    return { batchId, tasks };
  }

  /** The results table of a batch of this service: one row per task, read page by page. */
  batchResults(batchId: string): Promise<BatchTable> {
    const batch = this.runtime.batchResults.header(batchId);
    if (!batch || batch.owner !== JOBQ_OWNER) {
      throw new JobqError(404, 'BATCH_NOT_FOUND', `No batch ${batchId}`, { field: 'batch_id', suggestion: 'Use the batch_id of a POST /simulations/batch answer' });
    }
    return batchTable(this.runtime.batchResults, batchId, {
      names: { run: 'run', id: 'task_id', status: 'status', duration: 'duration_ms', error: 'error_message' },
      head: { batch_id: batch.id, batch_size: batch.size },
      status: (state) => (state === 'paused' ? 'running' : state),
      readMeasurements: async (taskId) => (await this.runtime.scheduler.result(taskId)).measurements,
    });
  }

  task(id: string): TaskRecord {
    const task = this.runtime.task(id);
    if (!task || task.owner !== JOBQ_OWNER) throw taskNotFound(id);
    return task;
  }

  async result(task: TaskRecord): Promise<StoredResult | undefined> {
    return task.state === 'completed' ? this.runtime.scheduler.result(task.id) : undefined;
  }

  cancel(id: string): TaskRecord {
    const task = this.task(id);
    if (task.state === 'completed' || task.state === 'failed' || task.state === 'cancelled') {
      throw new JobqError(400, 'TASK_NOT_CANCELLABLE', `Cannot cancel ${task.state} simulation`, { field: 'task_id' });
    }
    return this.runtime.scheduler.cancel(id);
  }

  cacheStats(): CacheStats {
    return this.runtime.cache.stats();
  }

  clearCache(confirm: boolean): { removed: number; bytes: number } {
    if (confirm !== true) {
      throw new JobqError(400, 'CONFIRMATION_REQUIRED', 'Cache clear requires confirmation: add confirm=true to the query', {
        field: 'confirm',
        suggestion: 'POST /cache/clear?confirm=true',
      });
    }
    return this.runtime.cache.clear();
  }

  cacheEntry(key: string): CacheEntryRecord {
    const entry = this.runtime.cache.entry(key);
    if (!entry) {
      throw new JobqError(404, 'CACHE_ENTRY_NOT_FOUND', `No cache entry ${key}`, {
        field: 'cache_key',
        suggestion: 'Use the cache_key of a completed task (GET /simulations/{task_id})',
      });
    }
    return entry;
  }

  /** `connected` from a probe of a remote simulator (system.listMethods), else the executor's state; Redis and workers in scale-out. */
  async health(): Promise<HealthFacts> {
    const executor = this.runtime.executor;
    const connected = executor.probe ? await executor.probe() : executor.connected();
    return { connected, remote: executor.status?.(), storage: this.runtime.storageState(), uptimeSeconds: this.uptimeSeconds };
  }

  stats(): StatsFacts {
    return {
      counts: this.runtime.countTasks(JOBQ_OWNER),
      figures: this.performance.figures(),
      cacheHitRate: this.runtime.cache.stats().hitRate,
      cpuCores: this.runtime.executor.status?.().cores ?? availableParallelism(),
      batchSize: this.config.orchestration.batch_size,
      maxConcurrent: this.config.orchestration.max_concurrent_simulations,
      uptimeSeconds: this.uptimeSeconds,
    };
  }

  logs(limit: number, level: LogLevelName | undefined): LogRecord[] {
    if (!this.config.api.enable_logs) throw new JobqError(404, 'NOT_FOUND', 'Log access is disabled (api.enable_logs: false)');
    return this.runtime.recentLogs(limit, level);
  }

  close(): void {
    this.performance.close();
  }
}

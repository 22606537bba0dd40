// The job-queue service's logic: checks requests beyond their shape (priority, model path, parameter
// keys, output variables), submits them to the job runtime as the owner `jobq`, and reads tasks,
// results, cache, statistics and logs back. Controllers call it; presenters shape what it returns.
import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { batchTable, type BatchTable } from '../jobs/batch-table.js';
import type { Runtime } from '../jobs/runtime.js';
import type { SubmitInput } from '../jobs/scheduler.js';
import { PRIORITIES, type Priority, type StoredResult, type TaskRecord } from '../jobs/types.js';
import type { JobqConfig } from './config.js';
import { JobqError, RequestValidationError, taskNotFound } from './errors.js';
import type { CacheClearResponse, CacheEntryResponse, CacheStatsResponse, HealthResponse, LogLevelName, LogsResponse, SimulationRequest, StatsResponse } from './models.js';
import { ModelFiles, type LoadedModel } from './model-files.js';
import { PerformanceTracker } from './performance.js';
import { prepareTask, steadyOptions } from './prepare.js';
import type { StoredRequest } from './TaskPresenter.js';

export const OWNER = 'jobq';
export const API_VERSION = '1.0.0';
const MIB = 1024 * 1024;

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
    readonly runtime: Runtime,
    readonly config: JobqConfig,
    readonly simulatorVersion: string,
  ) {
    this.models = new ModelFiles(config.simulator.models_dir);
    this.performance = new PerformanceTracker(runtime, runtime.events, OWNER);
  }

  get uptimeSeconds(): number {
    return (Date.now() - this.startedAt) / 1000;
  }

  /**
   * Checks one request and builds the runtime's submission; `index` names a batch item in errors;
   * `loaded`: the model files a batch has read so far (each is read once per batch).
   */
  async prepare(request: SimulationRequest, index?: number, loaded?: Map<string, Promise<LoadedModel>>): Promise<SubmitInput> {
    try {
      const priority = request.priority ?? 'NORMAL';
      if (!PRIORITIES.includes(priority as Priority)) {
        throw new JobqError(400, 'INVALID_PRIORITY', `Invalid priority ${JSON.stringify(priority)}; allowed values: ${PRIORITIES.join(', ')}`, {
          field: 'priority',
          suggestion: `Use one of ${PRIORITIES.join(', ')}`,
        });
      }
      const model = await this.loadModel(request.model_file, loaded);
      const parameters = request.parameters ?? {};
      const prepared = prepareTask(model, parameters, request.output_variables, this.config.cache.include_files, this.config.orchestration.max_steps, steadyOptions(request.steady));
      const stored: StoredRequest = {
        model_file: request.model_file,
        parameters,
        output_variables: request.output_variables ?? null,
        metadata: request.metadata ?? {},
        outputs: prepared.outputs,
      };
      return { owner: OWNER, priority: priority as Priority, spec: prepared.spec, request: stored, modelName: request.model_file };
    } catch (error) {
      throw withIndex(error, index);
    }
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
    for (const [index, request] of requests.entries()) inputs.push(await this.prepare(request, index, loaded));
    await this.checkSimulator();
    const batchId = randomUUID();
    const tasks = await this.runtime.scheduler.submitMany(inputs.map((input) => ({ ...input, batchId })));
    this.runtime.recordBatch({ id: batchId, owner: OWNER, taskIds: tasks.map((t) => t.id), createdAt: new Date().toISOString() });
    return { batchId, tasks };
  }

  /** The results table of a batch of this service: one row per task, read page by page. */
  batchResults(batchId: string): Promise<BatchTable> {
    const batch = this.runtime.batchResults.header(batchId);
    if (!batch || batch.owner !== OWNER) {
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
    if (!task || task.owner !== OWNER) throw taskNotFound(id);
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

  cacheStats(): CacheStatsResponse {
    const s = this.runtime.cache.stats();
    return {
      enabled: s.enabled,
      hits: s.hits,
      misses: s.misses,
      hit_rate: s.hitRate,
      total_entries: s.entries,
      storage_format: s.format,
      compression: s.compression,
      disk_usage_mb: s.diskBytes / MIB,
      oldest_entry: s.oldest,
      newest_entry: s.newest,
    };
  }

  clearCache(confirm: boolean): CacheClearResponse {
    if (confirm !== true) {
      throw new JobqError(400, 'CONFIRMATION_REQUIRED', 'Cache clear requires confirmation: add confirm=true to the query', {
        field: 'confirm',
        suggestion: 'POST /cache/clear?confirm=true',
      });
    }
    const { removed, bytes } = this.runtime.cache.clear();
    return { message: `Cache cleared: ${removed} entries removed`, entries_removed: removed, disk_space_freed_mb: bytes / MIB };
  }

  cacheEntry(key: string): CacheEntryResponse {
    const entry = this.runtime.cache.entry(key);
    if (!entry) {
      throw new JobqError(404, 'CACHE_ENTRY_NOT_FOUND', `No cache entry ${key}`, {
        field: 'cache_key',
        suggestion: 'Use the cache_key of a completed task (GET /simulations/{task_id})',
      });
    }
    return {
      cache_key: entry.key,
      model_file: entry.modelFile,
      parameters: entry.parameters,
      created_at: entry.createdAt,
      accessed_at: entry.accessedAt,
      access_count: entry.accessCount,
      size_bytes: entry.sizeBytes,
      storage_format: entry.format,
    };
  }

  /** `simulator_connected` from a probe of a remote simulator (system.listMethods), else the executor's state; Redis and workers in scale-out. */
  async health(): Promise<HealthResponse> {
    const executor = this.runtime.executor;
    const connected = executor.probe ? await executor.probe() : executor.connected();
    const remote = executor.status?.();
    const scaleOut = remote ? { redis_connected: remote.redis === 'UP', workers: remote.workers } : {};
    const storage = this.runtime.storageState();
    const store = storage.writable ? { store_writable: true } : { store_writable: false, store_error: storage.reason };
    return { status: connected && storage.writable ? 'healthy' : 'degraded', version: API_VERSION, uptime_seconds: this.uptimeSeconds, simulator_connected: connected, ...store, ...scaleOut };
  }

  stats(): StatsResponse {
    const counts = this.runtime.countTasks(OWNER);
    const figures = this.performance.figures();
    return {
      queue: { pending: counts.queued, running: counts.running + counts.paused, completed: counts.completed, failed: counts.failed, cancelled: counts.cancelled },
      performance: {
        average_duration_seconds: figures.averageDurationSeconds,
        total_simulations: counts.completed + counts.failed,
        cache_hit_rate: this.runtime.cache.stats().hitRate,
        speedup_factor: figures.speedupFactor,
      },
      system: {
        cpu_cores: this.runtime.executor.status?.().cores ?? availableParallelism(),
        batch_size: this.config.orchestration.batch_size,
        max_concurrent: this.config.orchestration.max_concurrent_simulations,
        uptime_seconds: this.uptimeSeconds,
      },
    };
  }

  logs(limit: number, level: LogLevelName | undefined): LogsResponse {
    if (!this.config.api.enable_logs) throw new JobqError(404, 'NOT_FOUND', 'Log access is disabled (api.enable_logs: false)');
    const logs = this.runtime.recentLogs(limit, level).map((r) => ({
      timestamp: r.timestamp,
      level: r.level,
      message: r.message,
      ...(r.taskId !== undefined ? { task_id: r.taskId } : {}),
      ...(r.duration !== undefined ? { duration: r.duration } : {}),
    }));
    return { logs, count: logs.length };
  }

  close(): void {
    this.performance.close();
  }
}

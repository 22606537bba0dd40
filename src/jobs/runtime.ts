// Assembles the job runtime both services use: the store, the result cache, the executor, the
// event bus and the scheduler, from one settings object with documented defaults.
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { engineInfo } from '../engine/index.js';
import { openStore } from '../store/open.js';
import type { BatchRecord, CircuitRepository, Store, TaskFilter } from '../store/types.js';
import type { SqliteBatchResults } from '../store/batch-results.js';
import type { LogLevel, LogRecord, TaskRecord, TaskState } from '../store/records.js';
import { ResultCache, type CacheSettings } from './cache/result-cache.js';
import { CircuitCheckThread } from './check-thread.js';
import { simulationNice } from '../threads/priority.js';
import { TaskEvents } from './events.js';
import { EmbeddedExecutor } from './executors/embedded.js';
import type { Executor } from './executors/types.js';
import { importQueueModule } from './executors/bullmq/packages.js';
import { queueSettingsFromEnv, serviceIdentity, type QueueSettings } from './executors/bullmq/settings.js';
import { sharedFolderIdentity } from './executors/bullmq/shared-results.js';
import { DURABILITY_LEVELS, markOpen, removeAbandonedTemporaries, requeueDamagedResults, type Durability } from './durability.js';
import { Scheduler, type SchedulerSettings } from './scheduler.js';
import { isStorageFull, StorageHealth, type StorageState } from './storage.js';
import { systemClock, type Clock } from './clock.js';

export interface RuntimeSettings {
  dataDir: string;
  /** Runs at once (default: the number of cores). */
  maxConcurrentSimulations: number;
  scheduler: Omit<SchedulerSettings, 'resultsDir' | 'syncResults'>;
  /** What a crash may cost: see durability.ts (default `normal`: nothing on a process crash). */
  durability: Durability;
  cache: Omit<CacheSettings, 'dir'>;
  /** Seconds between sweeps of expired cache entries. */
  cacheSweepSeconds: number;
  /** Where runs execute: embedded worker threads (default) or BullMQ on Redis (executors/bullmq). */
  queue?: QueueSettings;
  /** Nice levels the simulation threads run below the service's thread (src/threads/priority.ts; default PESIM_SIMULATION_NICE or 10, unset: 0). */
  simulationNice?: number;
}

/** PESIM_DURABILITY (`normal` or `full`), default `normal`; anything else stops the start-up. */
export function durabilityFromEnv(env: NodeJS.ProcessEnv = process.env): Durability {
  const value = env.PESIM_DURABILITY;
  if (value === undefined || value === '') return 'normal';
  if ((DURABILITY_LEVELS as readonly string[]).includes(value)) return value as Durability;
  throw new Error(`PESIM_DURABILITY must be one of ${DURABILITY_LEVELS.join(', ')} (got ${JSON.stringify(value)})`);
}

export function defaultRuntimeSettings(dataDir: string): RuntimeSettings {
  return {
    dataDir,
    maxConcurrentSimulations: availableParallelism(),
    scheduler: {
      queueSize: 1000,
      taskTimeoutMs: 3_600_000,
      retryAttempts: 3,
      retryDelayMs: 5000,
      batchSize: 10,
      resultFormat: 'parquet',
      resultCompression: 'snappy',
      progressIntervalMs: 100,
    },
    cache: {
      enabled: true,
      format: 'parquet',
      compression: 'snappy',
      ttlSeconds: 0,
      includeFiles: false,
      includeParameters: true,
      excludeFields: [],
    },
    cacheSweepSeconds: 60,
    durability: durabilityFromEnv(),
    queue: queueSettingsFromEnv(),
    simulationNice: simulationNice(),
  };
}

/** Reads of the store that the services make through the runtime (they do not open the store). */
export interface RuntimeQueries {
  task(id: string): TaskRecord | undefined;
  listTasks(filter: TaskFilter): { tasks: TaskRecord[]; total: number };
  countTasks(owner?: string): Record<TaskState, number>;
  recordBatch(batch: BatchRecord): void;
  /** A batch of the tasks submitted with its id (their batchId), in submission order; returns how many. */
  recordBatchOfTasks(batch: Omit<BatchRecord, 'taskIds'>): number;
  batch(id: string): BatchRecord | undefined;
  /** A batch's header, counts per state and results table, at any size. */
  batchResults: SqliteBatchResults;
  recentLogs(limit: number, level?: LogLevel): LogRecord[];
  tasksInStates(states: TaskState[]): TaskRecord[];
  /** Persistent counters (the job queue's performance figures). */
  addToCounter(name: string, delta: number): void;
  /** Several counters at once, in one commit. */
  addToCounters(deltas: Record<string, number>): void;
  counter(name: string): number;
  /** Whether the data directory takes writes (storage.ts); not, while it is full. */
  storageState(): StorageState;
  /** The uploaded circuits of the simulation service. */
  circuits: CircuitRepository;
}

export interface Runtime extends RuntimeQueries {
  /** The durable store; the runtime's own parts use it, services go through RuntimeQueries. */
  store: Store;
  cache: ResultCache;
  executor: Executor;
  events: TaskEvents;
  scheduler: Scheduler;
  /** Circuit checks of large sweeps, off the service's thread (check-thread.ts). */
  checks: CircuitCheckThread;
  close(): Promise<void>;
}

/** The runtime as the services see it: queries, scheduler, cache, executor and events, never the store. */
export type ServiceRuntime = Omit<Runtime, 'store'>;

function queriesOf(store: Store, storage: StorageHealth): RuntimeQueries {
  return {
    storageState: () => storage.state,
    task: (id) => store.tasks.get(id),
    listTasks: (filter) => store.tasks.list(filter),
    countTasks: (owner) => store.tasks.countByState(owner),
    recordBatch: (batch) => store.batches.insert(batch),
    recordBatchOfTasks: (batch) => store.batches.insertOfTasks(batch),
    batch: (id) => store.batches.get(id),
    batchResults: store.batchResults,
    recentLogs: (limit, level) => store.logs.recent(limit, level),
    tasksInStates: (states) => store.tasks.inStates(states),
    addToCounter: (name, delta) => store.counters.add(name, delta),
    addToCounters: (deltas) => store.transaction(() => {
      for (const [name, delta] of Object.entries(deltas)) store.counters.add(name, delta);
    }),
    counter: (name) => store.counters.get(name),
    circuits: store.circuits,
  };
}

export interface RuntimeOptions {
  /** Another executor (remote workers); the embedded pool otherwise. */
  executor?: Executor;
  /** The embedded pool's threads start on executor.startThreads() or the first run, not now. */
  deferWorkerThreads?: boolean;
  clock?: Clock;
}

/**
 * The executor the settings ask for when it is not the embedded pool: BullMQ and its Redis driver
 * are loaded only here, so a service on the embedded defaults never loads them (nor needs them
 * installed: they are optional peer dependencies, see executors/bullmq/packages.ts).
 */
export async function remoteExecutorFor(settings: RuntimeSettings): Promise<Executor | undefined> {
  const queue = settings.queue;
  if (queue?.backend !== 'bullmq' || !queue.redisUrl) return undefined;
  const { BullmqExecutor } = await importQueueModule(() => import('./executors/bullmq/executor.js'));
  const maxResultBytes = Math.floor(queue.maxResultMb * 1024 * 1024);
  const sharedResults = queue.sharedResultsDir === undefined ? undefined : { dir: queue.sharedResultsDir, folder: sharedFolderIdentity(queue.sharedResultsDir, 'sim.api.shared-results-dir / shared_results_dir / PESIM_SHARED_RESULTS_DIR') };
  return BullmqExecutor.start({ redisUrl: queue.redisUrl, serviceId: serviceIdentity(settings.dataDir), maxResultBytes, sharedResults });
}

function embeddedExecutor(settings: RuntimeSettings, deferThreads: boolean): Executor {
  if (settings.queue?.backend === 'bullmq') {
    throw new Error('the settings ask for the bullmq queue: create its executor with remoteExecutorFor() and pass it as options.executor');
  }
  return new EmbeddedExecutor({ threads: settings.maxConcurrentSimulations, deferThreads, niceIncrement: settings.simulationNice ?? 0 });
}

export function createRuntime(settings: RuntimeSettings, options: RuntimeOptions = {}): Runtime {
  const clock = options.clock ?? systemClock;
  const store = openStore(settings.dataDir, { durability: settings.durability });
  const marker = markOpen(settings.dataDir);
  try {
    const cache = new ResultCache(store, { ...settings.cache, dir: join(settings.dataDir, 'cache') }, engineInfo().version, () => clock.now());
    const executor = options.executor ?? embeddedExecutor(settings, options.deferWorkerThreads ?? false);
    const events = new TaskEvents();
    const schedulerSettings = { ...settings.scheduler, resultsDir: join(settings.dataDir, 'results'), syncResults: settings.durability === 'full' };
    const storage = new StorageHealth(settings.dataDir, () => store.counters.add('storage.probe', 1));
    const scheduler = new Scheduler(store, executor, cache, events, schedulerSettings, clock, storage);
    const checks = new CircuitCheckThread();
    const sweep = setInterval(() => {
      try {
        cache.sweep();
      } catch (error) {
        if (!isStorageFull(error)) throw error;
        storage.failed(error); // the expired entries go at a later sweep
      }
    }, settings.cacheSweepSeconds * 1000);
    sweep.unref();
    // Result files not flushed to the device may not have survived an OS crash: check them.
    if (marker.uncleanBefore && settings.durability === 'normal') {
      requeueDamagedResults(store, (id) => scheduler.resultPath(id), schedulerSettings.resultFormat);
    }
    // A crash in the middle of a result write leaves its temporary file behind.
    if (marker.uncleanBefore) removeAbandonedTemporaries([schedulerSettings.resultsDir, join(settings.dataDir, 'cache')]);
    scheduler.start();
    return {
      ...queriesOf(store, storage),
      store,
      cache,
      executor,
      events,
      scheduler,
      checks,
      async close() {
        clearInterval(sweep);
        storage.close();
        await scheduler.stop();
        await executor.close();
        await checks.close();
        store.close();
        await store.whenClosed();
        marker.release();
      },
    };
  } catch (error) {
    store.close();
    marker.release();
    throw error;
  }
}

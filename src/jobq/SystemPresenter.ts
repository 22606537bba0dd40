// The job-queue service's bodies about itself (spec §4: /health, /stats, /logs) from what the
// service gathers of the runtime (JobqService.health, .stats, .logs).
import type { ExecutorStatus } from '../jobs/executors/types.js';
import type { StorageState } from '../jobs/storage.js';
import type { LogRecord, TaskState } from '../store/records.js';
import type { HealthResponse, LogsResponse, StatsResponse } from './models.js';
import type { PerformanceFigures } from './performance.js';

export const API_VERSION = '1.0.0';

/** What the service knows of its health. */
export interface HealthFacts {
  /** The simulator takes runs (a remote one answered its probe). */
  connected: boolean;
  /** Redis and workers, in scale-out. */
  remote: ExecutorStatus | undefined;
  storage: StorageState;
  uptimeSeconds: number;
}

/** `healthy` while the simulator takes runs and the store takes writes; `degraded` otherwise. */
export function presentHealth({ connected, remote, storage, uptimeSeconds }: HealthFacts): HealthResponse {
  const scaleOut = remote ? { redis_connected: remote.redis === 'UP', workers: remote.workers } : {};
  const store = storage.writable ? { store_writable: true } : { store_writable: false, store_error: storage.reason };
  return { status: connected && storage.writable ? 'healthy' : 'degraded', version: API_VERSION, uptime_seconds: uptimeSeconds, simulator_connected: connected, ...store, ...scaleOut };
}

/** What the service counts and measures for /stats. */
export interface StatsFacts {
  counts: Record<TaskState, number>;
  figures: PerformanceFigures;
  cacheHitRate: number;
  cpuCores: number;
  batchSize: number;
  maxConcurrent: number;
  uptimeSeconds: number;
}

export function presentStats(f: StatsFacts): StatsResponse {
  const { counts } = f;
  return {
    queue: { pending: counts.queued, running: counts.running + counts.paused, completed: counts.completed, failed: counts.failed, cancelled: counts.cancelled },
    performance: {
      average_duration_seconds: f.figures.averageDurationSeconds,
      total_simulations: counts.completed + counts.failed,
      cache_hit_rate: f.cacheHitRate,
      speedup_factor: f.figures.speedupFactor,
    },
    system: { cpu_cores: f.cpuCores, batch_size: f.batchSize, max_concurrent: f.maxConcurrent, uptime_seconds: f.uptimeSeconds },
  };
}

export function presentLogs(records: LogRecord[]): LogsResponse {
  const logs = records.map((r) => ({
    timestamp: r.timestamp,
    level: r.level,
    message: r.message,
    ...(r.taskId !== undefined ? { task_id: r.taskId } : {}),
    ...(r.duration !== undefined ? { duration: r.duration } : {}),
  }));
  return { logs, count: logs.length };
}

// Health checks (docs/spec/decisions.md §1.3): /api/v1/health with the service and engine versions, and the
// Spring-style /actuator/health with one status per component. Both are public (no API key).
import { Controller, Example, Get, NoSecurity, Response, Route, Tags } from '@tsoa/runtime';
import { engineInfo } from '../engine/index.js';
import type { Runtime } from '../jobs/runtime.js';
import type { ErrorBody } from '../http/error-body.js';
import type { Executor } from '../jobs/executors/types.js';

export interface EngineVersions {
  /** Version of the native engine. */
  version: string;
  /** Version of Eigen it was built with. */
  eigen: string;
}

/** Where simulations run; with `bullmq`, the Redis connection and the live `pesim worker` processes. */
export interface QueueHealth {
  backend: 'embedded' | 'bullmq';
  redis?: 'UP' | 'DOWN';
  /** Live worker processes (heartbeat seen within the last three intervals). */
  workers?: number;
  /** Simulation threads of the live workers. */
  cores?: number;
}

export interface HealthResponse {
  /** `DEGRADED` while the data directory takes no writes (full): reads are served, submissions answer 507. */
  status: 'UP' | 'DOWN' | 'DEGRADED';
  /** Service version. */
  version: string;
  uptimeSeconds: number;
  engine: EngineVersions;
  queue?: QueueHealth;
}

export interface ComponentHealth {
  status: 'UP' | 'DOWN';
}

/**
 * The store: `DEGRADED` while its data directory takes no writes (full disk): stored simulations
 * and results are still read; `DOWN` when it cannot be read.
 */
export interface StoreHealth {
  status: 'UP' | 'DOWN' | 'DEGRADED';
  /** False while writes fail for want of space. */
  writable: boolean;
  /** ISO time of the first failed write, while not writable. */
  since?: string;
  /** What failed, while not writable. */
  reason?: string;
}

/** Live `pesim worker` processes (BullMQ mode): UP when at least one is alive; not part of the overall status. */
export interface WorkersHealth {
  status: 'UP' | 'DOWN';
  count: number;
  cores: number;
}

export interface ActuatorHealthResponse {
  /** `DEGRADED` (HTTP 200) when only the store is degraded; `DOWN` (HTTP 503) when a component is down. */
  status: 'UP' | 'DOWN' | 'DEGRADED';
  components: { engine: ComponentHealth; queue: ComponentHealth; store: StoreHealth; redis?: ComponentHealth; workers?: WorkersHealth };
}

/** What the health endpoints need of the service. */
export interface HealthDeps {
  runtime: Pick<Runtime, 'executor' | 'countTasks' | 'storageState'>;
  /** Process start of the service (uptime). */
  startedAt: number;
  version: string;
}

@Route('')
@Tags('health')
@NoSecurity()
@Response<ErrorBody>(500, 'Internal error')
export class HealthController extends Controller {
  constructor(private readonly services: HealthDeps) {
    super();
  }

  /** Service status, version, uptime and the engine's versions. */
  @Get('api/v1/health')
  @Example<HealthResponse>({ status: 'UP', version: '0.1.0', uptimeSeconds: 12.5, engine: { version: '0.1.0', eigen: '3.4.0' } })
  public health(): HealthResponse {
    const engine = engineInfo();
    return {
      status: this.services.runtime.storageState().writable ? 'UP' : 'DEGRADED',
      version: this.services.version,
      uptimeSeconds: (Date.now() - this.services.startedAt) / 1000,
      engine: { version: engine.version, eigen: engine.eigen },
      queue: queueHealth(this.services.runtime.executor),
    };
  }

  /**
   * Spring Boot actuator style: engine, queue (executor) and store each UP or DOWN; the store is
   * DEGRADED (and so is the whole, with HTTP 200) while its data directory is full.
   */
  @Get('actuator/health')
  @Response<ActuatorHealthResponse>(503, 'A component is DOWN')
  @Example<ActuatorHealthResponse>({ status: 'UP', components: { engine: { status: 'UP' }, queue: { status: 'UP' }, store: { status: 'UP', writable: true } } })
  public actuator(): ActuatorHealthResponse {
    const engine = probe(() => engineInfo());
    const queue = probe(() => {
      if (!this.services.runtime.executor.connected()) throw new Error('executor closed');
    });
    const readable = probe(() => this.services.runtime.countTasks());
    const storage = this.services.runtime.storageState();
    const store: StoreHealth = readable === 'DOWN' ? { status: 'DOWN', writable: storage.writable } : storage.writable ? { status: 'UP', writable: true } : { status: 'DEGRADED', ...storage };
    const remote = this.services.runtime.executor.status?.();
    const up = engine === 'UP' && queue === 'UP' && store.status !== 'DOWN' && (!remote || remote.redis === 'UP');
    if (!up) this.setStatus(503);
    const components: ActuatorHealthResponse['components'] = { engine: { status: engine }, queue: { status: queue }, store };
    if (remote) {
      components.redis = { status: remote.redis };
      components.workers = { status: remote.workers > 0 ? 'UP' : 'DOWN', count: remote.workers, cores: remote.cores };
    }
    return { status: !up ? 'DOWN' : store.status === 'DEGRADED' ? 'DEGRADED' : 'UP', components };
  }
}

function queueHealth(executor: Executor): QueueHealth {
  const remote = executor.status?.();
  return remote ? { backend: remote.backend, redis: remote.redis, workers: remote.workers, cores: remote.cores } : { backend: 'embedded' };
}

function probe(check: () => unknown): 'UP' | 'DOWN' {
  try {
    check();
    return 'UP';
  } catch {
    return 'DOWN';
  }
}

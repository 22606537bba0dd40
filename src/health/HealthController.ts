// Health checks (decisions.md §1.3): /api/v1/health with the service and engine versions, and the
// Spring-style /actuator/health with one status per component. Both are public (no API key).
import { Controller, Example, Get, NoSecurity, Response, Route, Tags } from '@tsoa/runtime';
import { engineInfo } from '../engine/index.js';
import type { ServiceContext } from '../server/context.js';
import type { ErrorBody } from '../http/error-body.js';

export interface EngineVersions {
  /** Version of the native engine. */
  version: string;
  /** Version of Eigen it was built with. */
  eigen: string;
}

export interface HealthResponse {
  status: 'UP' | 'DOWN';
  /** Service version. */
  version: string;
  uptimeSeconds: number;
  engine: EngineVersions;
}

export interface ComponentHealth {
  status: 'UP' | 'DOWN';
}

export interface ActuatorHealthResponse {
  status: 'UP' | 'DOWN';
  components: { engine: ComponentHealth; queue: ComponentHealth; store: ComponentHealth };
}

@Route('')
@Tags('health')
@NoSecurity()
@Response<ErrorBody>(500, 'Internal error')
export class HealthController extends Controller {
  constructor(private readonly services: ServiceContext) {
    super();
  }

  /** Service status, version, uptime and the engine's versions. */
  @Get('api/v1/health')
  @Example<HealthResponse>({ status: 'UP', version: '0.1.0', uptimeSeconds: 12.5, engine: { version: '0.1.0', eigen: '3.4.0' } })
  public health(): HealthResponse {
    const engine = engineInfo();
    return {
      status: 'UP',
      version: this.services.version,
      uptimeSeconds: (Date.now() - this.services.startedAt) / 1000,
      engine: { version: engine.version, eigen: engine.eigen },
    };
  }

  /** Spring Boot actuator style: engine, queue (executor) and store each UP or DOWN. */
  @Get('actuator/health')
  @Response<ActuatorHealthResponse>(503, 'A component is DOWN')
  @Example<ActuatorHealthResponse>({ status: 'UP', components: { engine: { status: 'UP' }, queue: { status: 'UP' }, store: { status: 'UP' } } })
  public actuator(): ActuatorHealthResponse {
    const engine = probe(() => engineInfo());
    const queue = probe(() => {
      if (!this.services.runtime.executor.connected()) throw new Error('executor closed');
    });
    const store = probe(() => this.services.runtime.store.tasks.countByState());
    const up = engine === 'UP' && queue === 'UP' && store === 'UP';
    if (!up) this.setStatus(503);
    return { status: up ? 'UP' : 'DOWN', components: { engine: { status: engine }, queue: { status: queue }, store: { status: store } } };
  }
}

function probe(check: () => unknown): 'UP' | 'DOWN' {
  try {
    check();
    return 'UP';
  } catch {
    return 'DOWN';
  }
}

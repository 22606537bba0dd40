// How controllers reach the running service (tsoa's `iocModule`, named in tsoa.json).
//
// Every request carries the ServiceContext of the server that received it in `ctx.state.services`
// (set by app.ts), so several services can run in one process (tests) without globals. tsoa's
// generated routes call `iocContainer(request).get(ControllerClass)`, which constructs the
// controller with that context. Each controller declares the narrow part of it that it uses (its
// `...Deps` interface, next to the controller) and sees nothing else:
//
//   export interface AnalysisDeps { simulations: Pick<SimulationService, 'result'> }
//   @Route('api/v1/analysis')
//   export class AnalysisController extends Controller {
//     constructor(deps: AnalysisDeps) { super(); ... }
//   }
//
// A controller's constructor must take exactly this one argument; the check at the end of this file
// keeps ServiceContext a match for every controller's Deps.
import type { Request as KoaRequest } from 'koa';
import type { IocContainer } from '@tsoa/runtime';
import type { Logger } from 'pino';
import type { ServiceRuntime } from '../jobs/runtime.js';
import type { ProgressHub } from '../simulations/progress-hub.js';
import type { CircuitService } from '../circuits/CircuitService.js';
import type { SimulationService } from '../simulations/SimulationService.js';
import type { BatchService } from '../simulations/BatchService.js';
import type { SimulationServiceConfig } from './config.js';
import type { AnalysisDeps } from '../analysis/AnalysisController.js';
import type { CircuitDeps } from '../circuits/CircuitController.js';
import type { SchematicDeps } from '../circuits/SchematicController.js';
import type { HealthDeps } from '../health/HealthController.js';
import type { LossDeps } from '../losses/LossController.js';
import type { BatchDeps } from '../simulations/BatchController.js';
import type { SimulationDeps } from '../simulations/SimulationController.js';

export interface ServiceContext {
  config: SimulationServiceConfig;
  runtime: ServiceRuntime;
  hub: ProgressHub;
  circuits: CircuitService;
  /** Simulations of this service: task(id) (404s), status, result(id) (the stored waveforms; 409 unless completed). */
  simulations: SimulationService;
  batches: BatchService;
  logger: Logger;
  /** Process start of this service (health uptime). */
  startedAt: number;
  version: string;
  /** Enders of open streaming responses (SSE), called when the service closes. */
  openStreams: Set<() => void>;
}

type ControllerClass<T> = new (services: ServiceContext) => T;

/** The ServiceContext of the server handling `request`. */
export function servicesOf(request: KoaRequest): ServiceContext {
  const services = (request.ctx.state as { services?: ServiceContext }).services;
  if (!services) throw new Error('no ServiceContext on the request: the app did not install it');
  return services;
}

export function iocContainer(request: KoaRequest): IocContainer {
  const services = servicesOf(request);
  const get = (controller: unknown): unknown => new (controller as ControllerClass<unknown>)(services);
  return { get: get as IocContainer['get'] };
}

/** Compile-time check: the context provides what every controller declares it needs. */
type Provides<Deps> = ServiceContext extends Deps ? true : never;
export const CONTROLLER_DEPS_PROVIDED: Provides<AnalysisDeps & CircuitDeps & SchematicDeps & HealthDeps & LossDeps & BatchDeps & SimulationDeps> = true;

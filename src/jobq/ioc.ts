// tsoa's IoC hook for the job-queue routes: controllers are built per request with the service of
// the app that serves it (ctx.state.jobq), so several apps can live in one process (tests).
import type { IocContainer, ServiceIdentifier } from '@tsoa/runtime';
import type { Request } from 'koa';
import type { JobqService } from './service.js';

type ControllerClass = new (service: JobqService) => unknown;

export function iocContainer(request: Request): IocContainer {
  const service = (request.ctx.state as { jobq?: JobqService }).jobq;
  if (!service) throw new Error('the job-queue service is not attached to this request');
  const build = (controller: ServiceIdentifier): unknown => {
    if (typeof controller !== 'function') throw new Error(`cannot build controller ${String(controller)}`);
    return new (controller as ControllerClass)(service);
  };
  return { get: build } as IocContainer;
}

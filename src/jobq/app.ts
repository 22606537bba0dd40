// Assembly of the job-queue service's Koa app: errors first, then CORS, access control, the API
// reference, the body parser and tsoa's routes (controllers in src/jobq/controllers).
import cors from '@koa/cors';
import { Router } from '@koa/router';
import Koa from 'koa';
import { koaBody } from 'koa-body';
import type { Logger } from 'pino';
import { RegisterRoutes } from '../generated/jobq/routes.js';
import '../http/tsoa/fast-float.js';
import '../http/tsoa/fast-model-arrays.js';
import { authMiddleware, rateLimitMiddleware, type ApiKeys } from './access.js';
import { docsMiddleware } from './docs.js';
import { errorRenderer } from '../http/error-renderer.js';
import { jsonBodyGuard } from '../http/json-body.js';
import { offThreadJson, skipWhenRead } from '../http/json-off-thread.js';
import { jobqErrors } from './errors.js';
import type { JobqService } from './service.js';

function corsOptions(origins: string[]): cors.Options {
  if (origins.includes('*')) return { origin: '*' };
  const allowed = new Set(origins);
  // An origin not in the list gets no Access-Control-Allow-Origin header (the browser refuses).
  return { origin: (ctx) => (allowed.has(ctx.get('Origin')) ? ctx.get('Origin') : ''), credentials: true };
}

export function createJobqApp(service: JobqService, keys: ApiKeys, logger: Logger): Koa {
  const { api } = service.config;
  const app = new Koa({ proxy: false });
  app.silent = true; // the error middleware logs what needs logging
  app.use(errorRenderer(jobqErrors, logger));
  app.use(async (ctx, next) => {
    const started = performance.now();
    await next();
    logger.debug({ method: ctx.method, path: ctx.path, status: ctx.status, ms: +(performance.now() - started).toFixed(2) }, 'request');
  });
  app.use(cors({ ...corsOptions(api.cors_origins), allowHeaders: ['Content-Type', 'Authorization'], exposeHeaders: ['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] }));
  app.use(rateLimitMiddleware(api.rate_limit, keys));
  app.use(authMiddleware(keys));
  app.use(docsMiddleware(keys.enabled));
  const guard = jsonBodyGuard({ multipart: false });
  app.use(guard.mediaType);
  app.use(offThreadJson({ limit: Math.floor(api.max_body_mb * 1024 * 1024), strict: false }));
  app.use(skipWhenRead(koaBody({ jsonLimit: `${api.max_body_mb}mb`, text: false, urlencoded: false, multipart: false, jsonStrict: false })));
  app.use(skipWhenRead(guard.parsed));
  app.use(async (ctx, next) => {
    ctx.state.jobq = service;
    await next();
  });
  const router = new Router();
  RegisterRoutes(router);
  app.use(router.routes());
  app.use(router.allowedMethods({ throw: true }));
  return app;
}

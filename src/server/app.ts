// The Koa application of the simulation service, assembled in the order requests pass through it:
// request id and access log → error rendering (error-body.ts, so every failure below has the
// docs/spec/decisions.md §1.1 body) → the ServiceContext on ctx.state (context.ts) → API-key check (auth.ts) →
// the dashboard's files (web-static.ts) → API reference pages (docs.ts) → body parsing with the size
// limit (JSON and multipart; other media types are a 415, and a parsed JSON body is checked for
// depth, out-of-range numbers and prototype keys: src/http/json-body.ts) → the routes tsoa generates from the controllers (src/generated/sim/routes.ts).
// The body parser (koa-body) loads on the first request with a body, or when the service calls
// `preload()` once it listens (src/http/deferred-body.ts).
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import Koa, { type Context, type Next } from 'koa';
import { Router } from '@koa/router';
import type {} from 'koa-body'; // its declarations: ctx.request.files
import type { Logger } from 'pino';
import { RegisterRoutes } from '../generated/sim/routes.js';
import '../http/tsoa/fast-float.js';
import { authMiddleware } from '../http/auth.js';
import { deferredKoaBody } from '../http/deferred-body.js';
import { offThreadJson, skipWhenRead } from '../http/json-off-thread.js';
import { jsonBodyGuard } from '../http/json-body.js';
import type { ServiceContext } from './context.js';
import { docsMiddleware } from './docs.js';
import { errorRenderer } from '../http/error-renderer.js';
import { simulationErrors } from './error-format.js';
import { webMiddleware } from './web-static.js';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

function requestLog(logger: Logger) {
  return async function logRequest(ctx: Context, next: Next): Promise<void> {
    const given = ctx.get('X-Request-Id');
    const id = REQUEST_ID.test(given) ? given : randomUUID();
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    const log = logger.child({ requestId: id });
    ctx.state.log = log;
    const started = performance.now();
    try {
      await next();
    } finally {
      log.info({ method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round((performance.now() - started) * 10) / 10 }, 'request');
    }
  };
}

export interface ServiceApp {
  app: Koa;
  /** Loads what the app loads on first use (the body parser); a service calls it once it listens. */
  preload(): Promise<void>;
}

export function createApp(services: ServiceContext): ServiceApp {
  const app = new Koa();
  app.proxy = false;
  // Errors are rendered by errorRenderer; Koa's default handler would log them a second time.
  app.silent = true;
  const limit = services.config.maxBodyBytes;
  const router = new Router();
  RegisterRoutes(router);

  app.use(requestLog(services.logger));
  app.use(errorRenderer(simulationErrors, services.logger));
  app.use(async (ctx, next) => {
    ctx.state.services = services;
    await next();
  });
  app.use(authMiddleware(services.config.authEnabled, services.config.apiKeys));
  app.use(webMiddleware());
  app.use(docsMiddleware());
  const guard = jsonBodyGuard({ multipart: true });
  app.use(guard.mediaType);
  app.use(offThreadJson({ limit, strict: true }));
  const body = deferredKoaBody({
    multipart: true,
    urlencoded: false,
    text: false,
    jsonLimit: limit,
    jsonStrict: true,
    formidable: { maxFileSize: limit, maxTotalFileSize: limit, maxFiles: 64, maxFields: 100, keepExtensions: false, allowEmptyFiles: true, minFileSize: 0 },
  });
  app.use(skipWhenRead(body.middleware));
  app.use(skipWhenRead(guard.parsed));
  app.use(async (ctx, next) => {
    // tsoa reads uploaded files from ctx.request.files and fails on undefined when none were sent.
    ctx.request.files ??= {};
    try {
      await next();
    } finally {
      // formidable keeps every uploaded part in a temporary file: none outlives its request.
      const parts = Object.values(ctx.request.files).flat();
      await Promise.all(parts.map((part) => rm(part.filepath, { force: true })));
    }
  });
  app.use(router.routes());
  // Sets 405/501 with Allow; the error renderer turns them into the service's JSON error body.
  app.use(router.allowedMethods());
  return { app, preload: body.preload };
}

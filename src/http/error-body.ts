// Rendering every failure as decisions.md §1.1's body: AppError as thrown, tsoa's ValidateError and
// koa-body's parse/size errors as VALIDATION_ERROR / PAYLOAD_TOO_LARGE, job-runtime errors by code,
// and anything else as a 500 INTERNAL_ERROR without internals (logged with the request id).
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { ValidateError } from '@tsoa/runtime';
import { JobError, QueueFullError } from '../jobs/errors.js';
import { AppError, type ErrorDetail } from './errors.js';
import { readableValidationMessage } from './validation-messages.js';

/** The JSON body of every non-2xx response (OpenAPI: ErrorBody). */
export interface ErrorBody {
  /** Machine-readable code: VALIDATION_ERROR, UNAUTHORIZED, SIMULATION_NOT_FOUND, ... */
  error: string;
  /** One sentence a person can act on. */
  message: string;
  details?: ErrorDetail[];
  path: string;
  /** ISO 8601 UTC. */
  timestamp: string;
}

function fieldName(raw: string): string {
  return raw.replace(/^(requestBody|body)\.?/, '') || 'body';
}

/** tsoa's field errors as details, with readable field names. */
function validationDetails(error: ValidateError): ErrorDetail[] {
  return Object.entries(error.fields).map(([field, { message }]) => ({ field: fieldName(field), message: readableValidationMessage(message) }));
}

/** The AppError a failure is shown as. */
export function toAppError(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  if (error instanceof ValidateError) {
    const details = validationDetails(error);
    const first = details[0];
    return new AppError(400, 'VALIDATION_ERROR', first ? `Invalid request: ${first.field} ${first.message}` : 'Invalid request', details);
  }
  if (error instanceof QueueFullError) {
    return new AppError(503, 'QUEUE_FULL', error.message, undefined, { 'Retry-After': String(error.retryAfterSeconds) });
  }
  if (error instanceof JobError) {
    if (error.code === 'TASK_NOT_FOUND') return new AppError(404, 'SIMULATION_NOT_FOUND', error.message.replace(/^No task/, 'No simulation'));
    if (error.code === 'INVALID_STATE') return new AppError(409, 'INVALID_STATE', error.message.replace(/ task /, ' simulation '));
  }
  const e = error as { status?: unknown; type?: unknown; message?: unknown; code?: unknown; httpCode?: unknown } | null;
  const status = typeof e?.status === 'number' ? e.status : typeof e?.httpCode === 'number' ? e.httpCode : undefined;
  // raw-body / co-body (JSON, form) and formidable (multipart) size and parse failures.
  if (status === 413 || e?.type === 'entity.too.large') {
    return new AppError(413, 'PAYLOAD_TOO_LARGE', 'The request body is larger than the configured limit (sim.api.max-body-size)');
  }
  if (status === 400 && /multipart|boundary/i.test(String(e?.message))) {
    return new AppError(400, 'VALIDATION_ERROR', `Malformed multipart/form-data body: ${String(e?.message)}`, [
      { field: 'body', message: 'is not a well-formed multipart/form-data body (each part needs its headers, and the body ends with the closing boundary)' },
    ]);
  }
  if (e?.type === 'entity.parse.failed' || (status === 400 && /JSON|Unexpected token/i.test(String(e?.message)))) {
    return new AppError(400, 'VALIDATION_ERROR', `Malformed request body: ${String(e?.message)}`, [{ field: 'body', message: 'is not valid JSON' }]);
  }
  if (status === 415) return new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', String(e?.message ?? 'Unsupported content type'));

  return undefined;
}

export function errorBody(error: AppError, path: string): ErrorBody {
  return {
    error: error.code,
    message: error.message,
    ...(error.details && error.details.length > 0 ? { details: error.details } : {}),
    path,
    timestamp: new Date().toISOString(),
  };
}

/** Mounted first: renders what the rest of the stack throws, and unmatched routes as 404. */
export function errorMiddleware(logger: Logger) {
  return async function renderErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new AppError(404, 'NOT_FOUND', `No resource at ${ctx.method} ${ctx.path}; see /v3/api-docs`);
      }
      // koa-router's allowedMethods set these with the Allow header and no body.
      if (ctx.status === 405 && ctx.body == null) {
        throw new AppError(405, 'METHOD_NOT_ALLOWED', `${ctx.path} does not answer ${ctx.method}; it answers ${ctx.response.get('Allow') || 'no method'}`);
      }
      if (ctx.status === 501 && ctx.body == null) throw new AppError(501, 'NOT_IMPLEMENTED', `The method ${ctx.method} is not implemented by this service`);
    } catch (error) {
      let app = toAppError(error);
      if (!app) {
        (ctx.state.log as Logger | undefined ?? logger).error({ err: error }, 'unhandled error');
        app = new AppError(500, 'INTERNAL_ERROR', 'An internal error occurred; the request id in X-Request-Id identifies it in the service log');
      }
      if (ctx.headerSent) return; // a stream already started: nothing can be sent any more
      ctx.status = app.status;
      for (const [name, value] of Object.entries(app.headers ?? {})) ctx.set(name, value);
      ctx.body = errorBody(app, ctx.path);
    }
  };
}

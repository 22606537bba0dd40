// Errors of the job-queue service and their rendering (decisions.md §2): every failure becomes
// `{detail, error_code, field?, suggestion?}` with its status, request validation becomes FastAPI's
// 422 `{detail: [{loc, msg, type}]}`, and anything unexpected a 500 INTERNAL_ERROR without internals.
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { InvalidStateError, QueueFullError, TaskNotFoundError } from '../jobs/errors.js';
import type { ErrorResponse, HTTPValidationError, ValidationErrorItem } from './models.js';
import { allowedValuesOf } from '../http/validation-messages.js';

export class JobqError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
    readonly extra: { field?: string; suggestion?: string; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.name = 'JobqError';
  }

  body(): ErrorResponse {
    const body: ErrorResponse = { detail: this.message, error_code: this.code };
    if (this.extra.field !== undefined) body.field = this.extra.field;
    if (this.extra.suggestion !== undefined) body.suggestion = this.extra.suggestion;
    return body;
  }
}

/** 422: the request does not have the required shape. */
export class RequestValidationError extends Error {
  constructor(readonly items: ValidationErrorItem[]) {
    super(items.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
    this.name = 'RequestValidationError';
  }
}

export const taskNotFound = (id: string): JobqError =>
  new JobqError(404, 'TASK_NOT_FOUND', `Simulation task ${id} not found`, { field: 'task_id', suggestion: 'Use a task_id returned by POST /simulations' });

/** tsoa's field keys (`body.model_file`, `body.$3.priority`, `output_variables.$0`, `limit`) as FastAPI locations. */
/** Fields whose keys are free-form and may hold dots (`R.1.R`): the rest of the path is one key. */
const MAP_FIELDS = new Set(['parameters', 'metadata']);

function locationOf(key: string, ctx: Context): (string | number)[] {
  const split = key.split('.');
  const map = split.findIndex((p, i) => MAP_FIELDS.has(p) && i < split.length - 2);
  const joined = map >= 0 ? [...split.slice(0, map + 1), split.slice(map + 1).join('.')] : split;
  const parts = joined.map((p) => (/^\$\d+$/.test(p) ? Number(p.slice(1)) : p));
  if (parts[0] === 'body' || parts[0] === 'requests' || parts[0] === 'request') return ['body', ...parts.slice(1)];
  const name = String(parts[0]);
  if (Object.hasOwn(ctx.query, name)) return ['query', ...parts];
  const params = (ctx as Context & { params?: Record<string, string> }).params ?? {};
  if (Object.hasOwn(params, name)) return ['path', ...parts];
  return ['body', ...parts];
}

/** FastAPI/pydantic error types for tsoa's messages. */
function typeOf(message: string): { type: string; msg: string } {
  if (/is required/.test(message)) return { type: 'missing', msg: 'Field required' };
  const bound = /^(max|min) (-?[\d.e+-]+)$/.exec(message.trim());
  if (bound) {
    return bound[1] === 'max'
      ? { type: 'less_than_equal', msg: `Input should be less than or equal to ${bound[2]}` }
      : { type: 'greater_than_equal', msg: `Input should be greater than or equal to ${bound[2]}` };
  }
  const allowed = allowedValuesOf(message);
  if (allowed) return { type: 'enum', msg: `Input should be ${allowed.map((v) => `'${v}'`).join(', ')}` };
  if (/invalid float|invalid number|invalid double|invalid integer/i.test(message)) return { type: 'float_type', msg: 'Input should be a valid number' };
  if (/invalid string/i.test(message)) return { type: 'string_type', msg: 'Input should be a valid string' };
  if (/invalid boolean/i.test(message)) return { type: 'bool_parsing', msg: 'Input should be a valid boolean' };
  if (/invalid array/i.test(message)) return { type: 'list_type', msg: 'Input should be a valid list' };
  if (/invalid object|not an object/i.test(message)) return { type: 'dict_type', msg: 'Input should be a valid dictionary' };
  return { type: 'value_error', msg: message };
}

interface TsoaFieldError {
  message: string;
  value?: unknown;
}

export function fromTsoaFields(fields: Record<string, TsoaFieldError>, ctx: Context): RequestValidationError {
  return new RequestValidationError(
    Object.entries(fields).map(([key, error]) => ({ loc: locationOf(key, ctx), ...typeOf(error.message) })),
  );
}

function render(ctx: Context, status: number, body: ErrorResponse | HTTPValidationError, headers: Record<string, string> = {}): void {
  ctx.status = status;
  ctx.body = body;
  for (const [name, value] of Object.entries(headers)) ctx.set(name, value);
}

/** Maps job-runtime errors and HTTP-layer errors to the service's errors. */
export function toJobqError(error: unknown): JobqError | RequestValidationError | undefined {
  if (error instanceof JobqError || error instanceof RequestValidationError) return error;
  if (error instanceof TaskNotFoundError) return taskNotFound(error.taskId);
  if (error instanceof QueueFullError) {
    return new JobqError(503, 'QUEUE_FULL', error.message, {
      suggestion: `Retry after ${error.retryAfterSeconds} s, or raise orchestration.queue_size`,
      headers: { 'Retry-After': String(error.retryAfterSeconds) },
    });
  }
  if (error instanceof InvalidStateError) {
    return new JobqError(400, 'TASK_NOT_CANCELLABLE', `Cannot cancel ${error.state} simulation`, { field: 'task_id' });
  }
  return undefined;
}

/** The error middleware, mounted first. */
export function errorMiddleware(logger: Logger) {
  return async function renderErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) render(ctx, 404, { detail: 'Not Found', error_code: 'NOT_FOUND' });
    } catch (caught) {
      const e = caught as Error & { status?: number; fields?: Record<string, TsoaFieldError>; type?: string; expose?: boolean };
      const mapped = toJobqError(caught) ?? (e.fields ? fromTsoaFields(e.fields, ctx) : undefined);
      if (mapped instanceof RequestValidationError) {
        render(ctx, 422, { detail: mapped.items, error_code: 'VALIDATION_ERROR' });
      } else if (mapped) {
        render(ctx, mapped.status, mapped.body(), mapped.extra.headers);
      } else if (e.status === 413 || e.type === 'entity.too.large') {
        render(ctx, 413, { detail: 'The request body is larger than the configured limit (api.max_body_mb)', error_code: 'PAYLOAD_TOO_LARGE', field: 'body', suggestion: 'Send a smaller body (a batch in several parts) or raise api.max_body_mb' });
      } else if (e.status === 400 && (e.type === 'entity.parse.failed' || /json/i.test(e.message))) {
        render(ctx, 422, { detail: [{ loc: ['body'], msg: `JSON decode error: ${e.message}`, type: 'json_invalid' }], error_code: 'VALIDATION_ERROR' });
      } else if (e.status !== undefined && e.status >= 400 && e.status < 500 && e.expose !== false) {
        render(ctx, e.status, { detail: e.message, error_code: e.status === 405 ? 'METHOD_NOT_ALLOWED' : 'VALIDATION_ERROR' });
      } else {
        logger.error({ err: caught, path: ctx.path }, 'unhandled error');
        render(ctx, 500, { detail: 'Internal server error', error_code: 'INTERNAL_ERROR' });
      }
    }
  };
}

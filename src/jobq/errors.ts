// Errors of the job-queue service and their rendering (docs/spec/decisions.md §2): every failure becomes
// `{detail, error_code, field?, suggestion?}` with its status, request validation becomes FastAPI's
// 422 `{detail: [{loc, msg, type}]}`, and anything unexpected a 500 INTERNAL_ERROR without internals.
import type { Context } from 'koa';
import { describeByteLimit, type ErrorFormatter, type ErrorResponse as ErrorResponseOf, type HttpProblem } from '../http/error-renderer.js';
import { PesimError } from '../errors/pesim-error.js';
import type { QueueFullError } from '../jobs/errors.js';
import { isStorageFull, StorageFullError } from '../jobs/storage.js';
import type { ErrorResponse, ValidationErrorItem } from './models.js';
import { allowedValuesOf } from '../http/validation-messages.js';
import { forbiddenKeyError, JsonBodyError } from '../http/json-body.js';

export class JobqError extends PesimError {
  constructor(
    readonly status: number,
    code: string,
    detail: string,
    readonly extra: { field?: string; suggestion?: string; headers?: Record<string, string> } = {},
  ) {
    super(code, detail, { field: extra.field });
  }

  body(): ErrorResponse {
    const body: ErrorResponse = { detail: this.message, error_code: this.code };
    if (this.extra.field !== undefined) body.field = this.extra.field;
    if (this.extra.suggestion !== undefined) body.suggestion = this.extra.suggestion;
    return body;
  }
}

/** 422: the request does not have the required shape. */
export class RequestValidationError extends PesimError {
  constructor(readonly items: ValidationErrorItem[]) {
    super('VALIDATION_ERROR', items.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
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

const JSON_PROBLEM_TYPES = { 'too-deep': 'value_error', 'not-finite': 'finite_number', 'forbidden-key': 'value_error' } as const;

/** A JSON body the schema cannot judge (too deep, 1e999, a `__proto__` key) as a 422 at its location. */
function jsonBodyError(error: unknown): RequestValidationError | undefined {
  const found = error instanceof JsonBodyError ? error : forbiddenKeyError(error);
  if (!found) return undefined;
  const { kind, path, message } = found.problem;
  return new RequestValidationError([{ loc: ['body', ...path], msg: `Input ${message}`, type: JSON_PROBLEM_TYPES[kind] }]);
}

/** The job runtime's errors by code, in the service's shape. */
const storageFull = (message: string): JobqError =>
  new JobqError(507, 'STORAGE_FULL', message, {
    suggestion: 'Free space in the data directory (data_dir); stored tasks and results can still be read, and submissions are taken again once space is back',
  });

const RUNTIME_ERRORS: Record<string, (error: PesimError) => JobqError> = {
  STORAGE_FULL: (error) => storageFull(error.message),
  TASK_NOT_FOUND: (error) => taskNotFound(error.taskId ?? ''),
  QUEUE_FULL: (error) => {
    const retryAfter = (error as QueueFullError).retryAfterSeconds;
    return new JobqError(503, 'QUEUE_FULL', error.message, {
      suggestion: `Retry after ${retryAfter} s, or raise orchestration.queue_size`,
      headers: { 'Retry-After': String(retryAfter) },
    });
  },
  // The one operation of this service a state refuses is cancelling.
  INVALID_STATE: (error) => new JobqError(400, 'TASK_NOT_CANCELLABLE', `Cannot cancel ${error.state} simulation`, { field: 'task_id' }),
};

/** Maps job-runtime errors and HTTP-layer errors to the service's errors. */
export function toJobqError(error: unknown): JobqError | RequestValidationError | undefined {
  if (error instanceof JobqError || error instanceof RequestValidationError) return error;
  const body = jsonBodyError(error);
  if (body) return body;
  // A write SQLite or the file system refused for want of space (their codes, not ours).
  if (isStorageFull(error) && !(error instanceof StorageFullError)) return storageFull(`The data directory is full: ${(error as Error).message}`);
  if (error instanceof PesimError && Object.hasOwn(RUNTIME_ERRORS, error.code)) return RUNTIME_ERRORS[error.code](error);
  return undefined;
}

function respond(error: JobqError | RequestValidationError): ErrorResponseOf {
  if (error instanceof RequestValidationError) return { status: 422, body: { detail: error.items, error_code: 'VALIDATION_ERROR' } };
  return { status: error.status, body: error.body(), headers: error.extra.headers };
}

function httpError(problem: HttpProblem): JobqError | RequestValidationError {
  switch (problem.kind) {
    case 'not-found':
      return new JobqError(404, 'NOT_FOUND', 'Not Found');
    case 'body-too-large':
      return new JobqError(413, 'PAYLOAD_TOO_LARGE', `The request body is larger than the limit${problem.limit === undefined ? '' : ` of ${describeByteLimit(problem.limit)}`} (api.max_body_mb)`, {
        field: 'body',
        suggestion: 'Send a smaller body (a batch in several parts) or raise api.max_body_mb',
      });
    case 'malformed-json':
    case 'malformed-multipart':
      return new RequestValidationError([{ loc: ['body'], msg: `JSON decode error: ${problem.message}`, type: 'json_invalid' }]);
    case 'method-not-allowed':
      return new JobqError(405, 'METHOD_NOT_ALLOWED', problem.message || 'Method Not Allowed');
    case 'unsupported-media-type':
      return new JobqError(415, 'UNSUPPORTED_MEDIA_TYPE', problem.message, { field: 'Content-Type', suggestion: 'Send the body as JSON with Content-Type: application/json' });
    default:
      return new JobqError(problem.status, 'VALIDATION_ERROR', problem.message);
  }
}

/** How the job queue shows a failure: `{detail, error_code, field?, suggestion?}`, 422 in FastAPI's shape. */
export const jobqErrors: ErrorFormatter = {
  known(error, ctx) {
    const fields = (error as { fields?: Record<string, TsoaFieldError> } | null)?.fields;
    const mapped = toJobqError(error) ?? (fields ? fromTsoaFields(fields, ctx) : undefined);
    return mapped && respond(mapped);
  },
  http: (problem) => respond(httpError(problem)),
  internal: () => ({ status: 500, body: { detail: 'Internal server error', error_code: 'INTERNAL_ERROR' } }),
};

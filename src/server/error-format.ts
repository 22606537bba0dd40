// How the simulation service shows a failure: every error is an AppError rendered as ErrorBody
// (docs/spec/decisions.md §1.1). Job-runtime errors get the service's names (SIMULATION_NOT_FOUND), failures
// of the HTTP layer their codes (PAYLOAD_TOO_LARGE, METHOD_NOT_ALLOWED, ...), and anything else a
// 500 INTERNAL_ERROR without internals (logged with the request id).
import type { Context } from 'koa';
import type { PesimError } from '../errors/pesim-error.js';
import { JobError, type InvalidStateError, type QueueFullError } from '../jobs/errors.js';
import { isStorageFull, StorageFullError } from '../jobs/storage.js';
import type { ServiceContext } from './context.js';
import { errorBody, requestError } from '../http/error-body.js';
import { AppError } from '../http/errors.js';
import { describeByteLimit, type ErrorFormatter, type ErrorResponse, type HttpProblem } from '../http/error-renderer.js';
import { fieldOfPath, forbiddenKeyError, JsonBodyError } from '../http/json-body.js';

/** 507 for a write the full data directory refused (health shows the store DEGRADED until space is back). */
function storageError(error: unknown, ctx: Context): AppError | undefined {
  if (!isStorageFull(error)) return undefined;
  const services = (ctx.state as { services?: ServiceContext }).services;
  const full = services?.runtime.scheduler.storage.failed(error) ?? error;
  const message = full instanceof StorageFullError ? full.message : `The data directory is full: ${(error as Error).message}`;
  return new AppError(507, 'STORAGE_FULL', message);
}

/** The job runtime's errors by code, in the service's names (a task is a simulation here). */
const RUNTIME_ERRORS: Record<string, (error: PesimError) => AppError> = {
  QUEUE_FULL: (error) => {
    const retryAfter = (error as QueueFullError).retryAfterSeconds;
    return new AppError(503, 'QUEUE_FULL', error.message, undefined, { 'Retry-After': String(retryAfter) });
  },
  TASK_NOT_FOUND: (error) => new AppError(404, 'SIMULATION_NOT_FOUND', `No simulation ${error.taskId}`),
  INVALID_STATE: (error) => new AppError(409, 'INVALID_STATE', `Cannot ${(error as InvalidStateError).operation} simulation ${error.taskId}: it is ${error.state}`),
};

function runtimeError(error: unknown): AppError | undefined {
  return error instanceof JobError && Object.hasOwn(RUNTIME_ERRORS, error.code) ? RUNTIME_ERRORS[error.code](error) : undefined;
}

/** A JSON body the schema cannot judge (too deep, 1e999, a `__proto__` key): 400 naming the field. */
function jsonBodyError(error: unknown): AppError | undefined {
  const found = error instanceof JsonBodyError ? error : forbiddenKeyError(error);
  if (!found) return undefined;
  const field = fieldOfPath(found.problem.path);
  return new AppError(400, 'VALIDATION_ERROR', `Invalid request: ${found.message}`, [{ field, message: found.problem.message }]);
}

/** `limit`: the service's body limit, for parsers that do not say which limit a body passed. */
function httpError(problem: HttpProblem, limit?: number): AppError {
  switch (problem.kind) {
    case 'not-found':
      return new AppError(404, 'NOT_FOUND', `${problem.message}; see /v3/api-docs`);
    case 'method-not-allowed':
      return new AppError(405, 'METHOD_NOT_ALLOWED', problem.message);
    case 'not-implemented':
      return new AppError(501, 'NOT_IMPLEMENTED', problem.message);
    case 'body-too-large':
      return new AppError(413, 'PAYLOAD_TOO_LARGE', `The request body is larger than the limit of ${describeByteLimit(problem.limit ?? limit ?? 0)} (sim.api.max-body-size, SIM_MAX_BODY_SIZE)`);
    case 'malformed-multipart':
      return new AppError(400, 'VALIDATION_ERROR', `Malformed multipart/form-data body: ${problem.message}`, [
        { field: 'body', message: 'is not a well-formed multipart/form-data body (each part needs its headers, and the body ends with the closing boundary)' },
      ]);
    case 'malformed-json':
      return new AppError(400, 'VALIDATION_ERROR', `Malformed request body: ${problem.message}`, [{ field: 'body', message: 'is not valid JSON' }]);
    case 'unsupported-media-type':
      return new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', problem.message || 'Unsupported content type', [{ field: 'Content-Type', message: 'must be application/json (multipart/form-data for file uploads)' }]);
    case 'client-error':
      return new AppError(problem.status, problem.status === 400 ? 'VALIDATION_ERROR' : 'BAD_REQUEST', problem.message);
  }
}

function respond(error: AppError, ctx: Context): ErrorResponse {
  return { status: error.status, body: errorBody(error, ctx.path), headers: error.headers };
}

export const simulationErrors: ErrorFormatter = {
  known(error, ctx) {
    const app = requestError(error, (ctx.request as { body?: unknown }).body) ?? storageError(error, ctx) ?? runtimeError(error) ?? jsonBodyError(error);
    return app && respond(app, ctx);
  },
  http: (problem, ctx) => respond(httpError(problem, (ctx.state as { services?: ServiceContext }).services?.config.maxBodyBytes), ctx),
  internal: (ctx) => respond(new AppError(500, 'INTERNAL_ERROR', 'An internal error occurred; the request id in X-Request-Id identifies it in the service log'), ctx),
};

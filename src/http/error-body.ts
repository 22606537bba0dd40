// The AppError body (docs/spec/decisions.md §1.1) the simulation service answers with, and tsoa's request
// validation errors turned into AppErrors with readable field names. The service's formatter
// (src/server/error-format.ts) decides which AppError each failure becomes.
import { ValidateError } from '@tsoa/runtime';
import { AppError, type ErrorDetail } from './errors.js';
import { fieldOfPath, type JsonPath } from './json-body.js';
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

/**
 * The path of tsoa's field name in the body. tsoa joins names with dots (`body.data.$3`) and names an
 * entry of a map by its key alone, without the map (`R.1.R.$1` for `sweep["R.1.R"][1]`): the path is
 * found by walking the body, keys with dots included; a name that starts below a top-level field is
 * looked up under each. Undefined when the body has no such place.
 */
function pathInBody(segments: string[], body: unknown): JsonPath | undefined {
  const walk = (value: unknown, rest: string[]): JsonPath | undefined => {
    if (rest.length === 0) return [];
    if (Array.isArray(value)) {
      const index = /^\$(\d+)$/.exec(rest[0]);
      const tail = index ? walk(value[Number(index[1])], rest.slice(1)) : undefined;
      return tail && [Number(index![1]), ...tail];
    }
    if (value === null || typeof value !== 'object') return undefined;
    for (let n = rest.length; n >= 1; n--) {
      const key = rest.slice(0, n).join('.');
      if (!Object.hasOwn(value, key)) continue;
      const tail = walk((value as Record<string, unknown>)[key], rest.slice(n));
      if (tail) return [key, ...tail];
    }
    return rest.length === 1 ? [rest[0]] : undefined; // a missing property
  };
  const direct = walk(body, segments);
  if (direct) return direct;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  for (const [key, value] of Object.entries(body)) {
    if (value === null || typeof value !== 'object') continue;
    const below = walk(value, segments);
    if (below && below.length > 1) return [key, ...below];
  }
  return undefined;
}

/**
 * tsoa's field name in the services' convention (fieldOfPath): `body.data.$3` → `data[3]`,
 * `body.R.1.R.$1` of a sweep → `sweep.R.1.R[1]`.
 */
function fieldName(raw: string, body: unknown): string {
  const name = raw.replace(/^(requestBody|body)\.?/, '');
  if (name === '') return 'body';
  const path = pathInBody(name.split('.'), body);
  return path ? fieldOfPath(path) : name.replace(/\.\$(\d+)(?=\.|$)/g, '[$1]');
}

/** tsoa's field errors as details, with readable field names. */
function validationDetails(error: ValidateError, body: unknown): ErrorDetail[] {
  return Object.entries(error.fields).map(([field, { message, value }]) => ({ field: fieldName(field, body), message: readableValidationMessage(message, value) }));
}

/**
 * An AppError as thrown, or tsoa's ValidateError as a 400 VALIDATION_ERROR (`body`: the request
 * body, where the fields are looked up); undefined for others.
 */
export function requestError(error: unknown, body?: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  if (error instanceof ValidateError) {
    const details = validationDetails(error, body);
    const first = details[0];
    return new AppError(400, 'VALIDATION_ERROR', first ? `Invalid request: ${first.field} ${first.message}` : 'Invalid request', details);
  }
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

// The AppError body (docs/spec/decisions.md §1.1) the simulation service answers with, and tsoa's request
// validation errors turned into AppErrors with readable field names. The service's formatter
// (src/server/error-format.ts) decides which AppError each failure becomes.
import { ValidateError } from '@tsoa/runtime';
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

/**
 * tsoa's field name in the services' convention (the one of fieldOfPath): `body.data.$3` →
 * `data[3]`, `body.sweep.R.1.R.$1` → `sweep.R.1.R[1]`.
 */
function fieldName(raw: string): string {
  return raw.replace(/^(requestBody|body)\.?/, '').replace(/\.\$(\d+)(?=\.|$)/g, '[$1]') || 'body';
}

/**
 * tsoa names an entry of a record (`sweep: Record<string, number[]>`) without the record's own
 * name (`R.1.R.$1`): the body's top-level object holding that key gives it back (`sweep.R.1.R.$1`).
 */
function withRecordName(field: string, body: unknown): string {
  if (/^(requestBody|body)\b/.test(field) || typeof body !== 'object' || body === null) return field;
  const key = field.replace(/(\.\$\d+)+$/, '');
  for (const [name, value] of Object.entries(body)) {
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, key)) return `${name}.${field}`;
  }
  return field;
}

/** tsoa's field errors as details, with readable field names. */
function validationDetails(error: ValidateError, body: unknown): ErrorDetail[] {
  return Object.entries(error.fields).map(([field, { message, value }]) => ({ field: fieldName(withRecordName(field, body)), message: readableValidationMessage(message, value) }));
}

/**
 * An AppError as thrown, or tsoa's ValidateError as a 400 VALIDATION_ERROR (`body`: the request
 * body, which names the records tsoa leaves unnamed); undefined for others.
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

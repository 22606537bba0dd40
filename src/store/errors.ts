// Errors of the durable store. Each carries a `code` callers test for instead of matching messages:
// NOT_FOUND (update of an unknown id), ALREADY_EXISTS (insert of a taken id), INVALID_RECORD (a
// value of the wrong type or shape, refused before anything is written), SCHEMA_TOO_NEW and
// MIGRATION_FAILED (opening the database).

import { PesimError } from '../errors/pesim-error.js';

export type StoreErrorCode = 'NOT_FOUND' | 'ALREADY_EXISTS' | 'INVALID_RECORD' | 'SCHEMA_TOO_NEW' | 'MIGRATION_FAILED';

export class StoreError extends PesimError {
  declare readonly code: StoreErrorCode;

  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

export function notFound(kind: string, id: string): StoreError {
  return new StoreError('NOT_FOUND', `No ${kind} ${id}`);
}

export function invalid(field: string, expected: string, value: unknown): StoreError {
  const shown =
    typeof value === 'string' ? `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`
    : typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined ? String(value)
    : Array.isArray(value) ? 'an array'
    : typeof value;
  return new StoreError('INVALID_RECORD', `${field} must be ${expected} (got ${shown})`);
}

/** Turns SQLite's unique-key violation on inserting `id` into ALREADY_EXISTS; rethrows the rest. */
export function rethrowConflict(error: unknown, kind: string, id: string): never {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    throw new StoreError('ALREADY_EXISTS', `The ${kind} ${id} already exists`, { cause: error });
  }
  throw error;
}

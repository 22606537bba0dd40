// Mapping between plain records and SQLite rows. A record codec names, for every field, its column,
// how to encode it (checking the type first, so bad input is refused before any SQL runs and never
// coerced into something else) and how to decode it. Repositories build their statements from it.
import { parseExact, stringifyExact } from './exact-json.js';
import { invalid, StoreError } from './errors.js';

export type SqlValue = string | number | bigint | Buffer | null;
export type Row = Record<string, SqlValue>;

export interface FieldCodec<T> {
  column: string;
  encode(value: T, field: string): SqlValue;
  decode(value: SqlValue): T;
}

/** One codec per field of R (all fields required: optional fields are handled by hand). */
export type RecordCodec<R> = { [K in keyof R]-?: FieldCodec<R[K]> };

/** ISO-8601 in UTC as Date.prototype.toISOString writes it; such strings sort in time order. */
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

export function text(column: string): FieldCodec<string> {
  return {
    column,
    encode: (v, field) => {
      if (typeof v !== 'string') throw invalid(field, 'a string', v);
      return v;
    },
    decode: (v) => v as string,
  };
}

export function nullableText(column: string): FieldCodec<string | null> {
  const inner = text(column);
  return { column, encode: (v, field) => (v === null ? null : inner.encode(v, field)), decode: (v) => v as string | null };
}

export function oneOf<T extends string>(column: string, values: readonly T[]): FieldCodec<T> {
  return {
    column,
    encode: (v, field) => {
      if (!values.includes(v)) throw invalid(field, `one of ${values.join(', ')}`, v);
      return v;
    },
    decode: (v) => v as T,
  };
}

export function checkTimestamp(v: unknown, field: string): string {
  if (typeof v !== 'string' || !ISO_UTC.test(v) || Number.isNaN(Date.parse(v))) {
    throw invalid(field, 'an ISO-8601 UTC timestamp (YYYY-MM-DDTHH:MM:SS.sssZ)', v);
  }
  return v;
}

export function timestamp(column: string): FieldCodec<string> {
  return { column, encode: checkTimestamp, decode: (v) => v as string };
}

export function nullableTimestamp(column: string): FieldCodec<string | null> {
  return { column, encode: (v, field) => (v === null ? null : checkTimestamp(v, field)), decode: (v) => v as string | null };
}

export function integer(column: string, min = 0): FieldCodec<number> {
  return {
    column,
    encode: (v, field) => {
      if (!Number.isSafeInteger(v) || v < min) throw invalid(field, `an integer ≥ ${min}`, v);
      return v;
    },
    decode: (v) => Number(v),
  };
}

export function checkFinite(v: unknown, field: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw invalid(field, 'a finite number', v);
  return v;
}

export function real(column: string): FieldCodec<number> {
  return { column, encode: checkFinite, decode: (v) => Number(v) };
}

export function nullableReal(column: string): FieldCodec<number | null> {
  return { column, encode: (v, field) => (v === null ? null : checkFinite(v, field)), decode: (v) => (v === null ? null : Number(v)) };
}

export function bool(column: string): FieldCodec<boolean> {
  return {
    column,
    encode: (v, field) => {
      if (typeof v !== 'boolean') throw invalid(field, 'a boolean', v);
      return v ? 1 : 0;
    },
    decode: (v) => v === 1,
  };
}

/** JSON text; non-finite numbers are refused (JSON.stringify would silently turn them into null). */
export function toJson(value: unknown, field: string): string {
  let out: string | undefined;
  try {
    // Fast path: without a replacer JSON.stringify writes NaN and ±Infinity as null, so only text
    // with a null in it needs the checking pass below.
    out = JSON.stringify(value);
    if (out !== undefined && !out.includes('null')) return out;
    out = JSON.stringify(value, (_key, v: unknown) => {
      if (typeof v === 'number' && !Number.isFinite(v)) throw invalid(field, 'JSON without NaN or Infinity', v);
      return v;
    });
  } catch (error) {
    if (error instanceof StoreError) throw error;
    throw new StoreError('INVALID_RECORD', `${field} cannot be stored as JSON: ${(error as Error).message}`, { cause: error });
  }
  if (out === undefined) throw invalid(field, 'a JSON value', value);
  return out;
}

export type JsonShape = 'object' | 'array' | 'any';

function checkShape(v: unknown, shape: JsonShape, field: string): void {
  if (shape === 'object' && (typeof v !== 'object' || v === null || Array.isArray(v))) throw invalid(field, 'an object', v);
  if (shape === 'array' && !Array.isArray(v)) throw invalid(field, 'an array', v);
}

export function json<T>(column: string, shape: JsonShape): FieldCodec<T> {
  return {
    column,
    encode: (v, field) => {
      checkShape(v, shape, field);
      return toJson(v, field);
    },
    decode: (v) => JSON.parse(v as string) as T,
  };
}

/** A JSON object kept exactly (exact-json.ts: NaN, ±Infinity and -0 survive); SQL NULL stands for null. */
export function nullableExactJson<T>(column: string): FieldCodec<T | null> {
  return {
    column,
    encode: (v, field) => {
      if (v === null) return null;
      checkShape(v, 'object', field);
      return stringifyExact(v);
    },
    decode: (v) => (v === null ? null : (parseExact(v as string) as T)),
  };
}

/** SQL NULL stands for null. */
export function nullableJson<T>(column: string, shape: JsonShape): FieldCodec<T | null> {
  const inner = json<T>(column, shape);
  return { column, encode: (v, field) => (v === null ? null : inner.encode(v, field)), decode: (v) => (v === null ? null : inner.decode(v)) };
}

/** Any JSON value, null included; SQL NULL stands for undefined. */
export function optionalJson(column: string): FieldCodec<unknown> {
  return { column, encode: (v, field) => (v === undefined ? null : toJson(v, field)), decode: (v) => (v === null ? undefined : JSON.parse(v as string)) };
}

/** Bytes as a BLOB; decoded into a plain Uint8Array of its own. */
export function nullableBlob(column: string): FieldCodec<Uint8Array | null> {
  return {
    column,
    encode: (v, field) => {
      if (v === null) return null;
      if (!(v instanceof Uint8Array)) throw invalid(field, 'a Uint8Array or null', v);
      return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
    },
    decode: (v) => (v === null ? null : new Uint8Array(v as Buffer)),
  };
}

function fields<R>(codec: RecordCodec<R>): (keyof R & string)[] {
  return Object.keys(codec) as (keyof R & string)[];
}

/** "a, b, c": the columns of the codec in its field order. */
export function columnList<R>(codec: RecordCodec<R>): string {
  return fields(codec).map((f) => codec[f].column).join(', ');
}

/** "@a, @b, @c": named parameters for the same columns. */
export function parameterList<R>(codec: RecordCodec<R>): string {
  return fields(codec).map((f) => `@${codec[f].column}`).join(', ');
}

/** The row of a whole record, keyed by column (named statement parameters). */
export function encodeRecord<R>(kind: string, codec: RecordCodec<R>, record: R): Row {
  if (typeof record !== 'object' || record === null) throw invalid(kind, 'an object', record);
  const row: Row = {};
  for (const f of fields(codec)) row[codec[f].column] = codec[f].encode(record[f], `${kind}.${f}`);
  return row;
}

export function decodeRow<R>(codec: RecordCodec<R>, row: Row): R {
  const record = {} as R;
  for (const f of fields(codec)) record[f] = codec[f].decode(row[codec[f].column]);
  return record;
}

/**
 * The defined fields of a patch (undefined means "leave as is"; `key` is never patched), encoded
 * by column, and decoded back so the caller returns exactly what was stored.
 */
export function encodePatch<R>(kind: string, codec: RecordCodec<R>, patch: Partial<R>, key: keyof R): { row: Row; stored: Partial<R> } {
  if (typeof patch !== 'object' || patch === null) throw invalid(`${kind} patch`, 'an object', patch);
  const row: Row = {};
  const stored: Partial<R> = {};
  for (const f of fields(codec)) {
    const value = patch[f];
    if (f === key || value === undefined) continue;
    const encoded = codec[f].encode(value as R[typeof f], `${kind}.${f}`);
    row[codec[f].column] = encoded;
    stored[f] = codec[f].decode(encoded);
  }
  return { row, stored };
}

// Checks of a JSON request body that the schema validation cannot make, shared by both services:
// nesting deeper than MAX_JSON_DEPTH (validators and the store recurse over it; SQLite's json_valid
// refuses 1000 levels), numbers beyond the double range (`1e999` parses to Infinity), and the keys
// `__proto__` / `constructor.prototype` (the body parser refuses them; this finds where they are).
// Each problem names its place in the body as a path of keys and indices. The walk is iterative, so
// a body nested 100 000 deep is reported, not a stack overflow.
import type { Context, Next } from 'koa';
import { PesimError } from '../errors/pesim-error.js';

/** Deepest nesting of objects and arrays a request body may have (the schemas need fewer than 10). */
export const MAX_JSON_DEPTH = 64;

export type JsonPath = (string | number)[];

export interface JsonBodyProblem {
  kind: 'too-deep' | 'not-finite' | 'forbidden-key';
  path: JsonPath;
  message: string;
}

/** The path as a request field name: `metadata.run`, `data[3]`, `body` for the whole body. */
export function fieldOfPath(path: JsonPath): string {
  let field = '';
  for (const part of path) field += typeof part === 'number' ? `[${part}]` : field === '' ? part : `.${part}`;
  return field === '' ? 'body' : field;
}

/** A value's place: its parent's place and its key or index there (the path is built only for a problem). */
interface Place {
  parent: Place | undefined;
  key: string | number;
  depth: number;
}

function pathOf(place: Place | undefined, last?: string | number): JsonPath {
  const path: JsonPath = last === undefined ? [] : [last];
  for (let at = place; at; at = at.parent) path.push(at.key);
  return path.reverse();
}

/** The first problem of a parsed JSON value, depth first; undefined when there is none. */
export function findJsonBodyProblem(value: unknown, maxDepth = MAX_JSON_DEPTH): JsonBodyProblem | undefined {
  const notFinite = 'is a number beyond the range of a double (±1.8e308)';
  const stack: { value: unknown; place: Place | undefined }[] = [{ value, place: undefined }];
  while (stack.length > 0) {
    const { value: item, place } = stack.pop()!;
    if (typeof item === 'number') {
      if (!Number.isFinite(item)) return { kind: 'not-finite', path: pathOf(place), message: notFinite };
      continue;
    }
    if (item === null || typeof item !== 'object') continue;
    const depth = place?.depth ?? 0;
    // Named by the top-level field that holds the deep structure (its full path would be as deep).
    if (depth >= maxDepth) return { kind: 'too-deep', path: pathOf(place).slice(0, 1), message: `holds objects or arrays nested deeper than ${maxDepth} levels` };
    if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) {
        const element: unknown = item[i];
        // Flat arrays of numbers (signal samples) are checked here without a stack entry each.
        if (typeof element === 'number') {
          if (!Number.isFinite(element)) return { kind: 'not-finite', path: pathOf(place, i), message: notFinite };
        } else if (element !== null && typeof element === 'object') stack.push({ value: element, place: { parent: place, key: i, depth: depth + 1 } });
      }
      continue;
    }
    const keys = Object.keys(item);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i];
      const child = (item as Record<string, unknown>)[key];
      if (key === '__proto__' || (key === 'constructor' && child !== null && typeof child === 'object' && Object.hasOwn(child, 'prototype'))) {
        return { kind: 'forbidden-key', path: pathOf(place, key), message: `is not allowed as a key (${key === '__proto__' ? '__proto__' : 'constructor.prototype'} would change object prototypes)` };
      }
      stack.push({ value: child, place: { parent: place, key, depth: depth + 1 } });
    }
  }
  return undefined;
}

/** Thrown for a parsed JSON body with a JsonBodyProblem; each service renders it in its error shape. */
export class JsonBodyError extends PesimError {
  readonly status = 400;
  constructor(readonly problem: JsonBodyProblem) {
    super('JSON_BODY_INVALID', `${fieldOfPath(problem.path)} ${problem.message}`, { field: fieldOfPath(problem.path) });
  }
}

/**
 * The JsonBodyError of a body the parser refused for a `__proto__` or `constructor.prototype` key;
 * undefined for other errors. co-body throws a SyntaxError with the raw text as `body` both for text
 * that is not JSON and for such a key (@hapi/bourne's refusal): text that JSON.parse reads into an
 * object or array was refused for its keys (a bare value is refused by the strict mode instead).
 */
export function forbiddenKeyError(error: unknown): JsonBodyError | undefined {
  const text = (error as { body?: unknown } | null)?.body;
  if (!(error instanceof SyntaxError) || typeof text !== 'string') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text); // own `__proto__` properties: JSON.parse never sets a prototype
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== 'object') return undefined;
  const problem = findJsonBodyProblem(parsed, Number.MAX_SAFE_INTEGER);
  return new JsonBodyError(problem?.kind === 'forbidden-key' ? problem : { kind: 'forbidden-key', path: [], message: 'has a __proto__ or constructor.prototype key, which is not allowed' });
}

/** Media types a JSON route reads; multipart where `multipart` is true (uploads). */
function acceptedType(ctx: Context, multipart: boolean): boolean {
  return Boolean(ctx.request.is('application/json', '+json') || (multipart && ctx.request.is('multipart/form-data')));
}

/**
 * Refuses a body in a media type the services do not read (415, naming the type and the accepted
 * ones) before it is parsed, and checks a parsed JSON body once it is.
 */
export function jsonBodyGuard(options: { multipart: boolean }) {
  const accepted = options.multipart ? 'application/json (multipart/form-data for file uploads)' : 'application/json';
  return {
    /** Mounted before the body parser. */
    async mediaType(ctx: Context, next: Next): Promise<void> {
      const hasBody = (ctx.request.length ?? 0) > 0 || ctx.req.headers['transfer-encoding'] !== undefined;
      if (hasBody && !acceptedType(ctx, options.multipart)) {
        const given = ctx.request.type === '' ? 'no Content-Type' : `the Content-Type ${ctx.request.type}`;
        ctx.throw(415, `The request body has ${given}, which this service does not read: send ${accepted}`);
      }
      await next();
    },
    /** Mounted after the body parser. */
    async parsed(ctx: Context, next: Next): Promise<void> {
      if (ctx.request.is('application/json', '+json')) {
        const problem = findJsonBodyProblem((ctx.request as { body?: unknown }).body);
        if (problem) throw new JsonBodyError(problem);
      }
      await next();
    },
  };
}

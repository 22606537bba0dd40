// The one error renderer of the HTTP services, mounted first: it turns what the rest of the stack
// throws, and the statuses Koa leaves without a body (unmatched path, wrong method), into a response.
// Which body each failure gets is the service's business: each passes an ErrorFormatter that writes
// its own shape (the simulation service's ErrorBody, the job queue's {detail, error_code}).
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';

/** Failures of the HTTP layer itself (routing, body parsing), the same on every service. */
export type HttpProblemKind =
  | 'not-found' | 'method-not-allowed' | 'not-implemented' | 'body-too-large' | 'malformed-json' | 'malformed-multipart'
  | 'unsupported-media-type' | 'client-error';

export interface HttpProblem {
  kind: HttpProblemKind;
  status: number;
  /** What went wrong, from the layer that found it (the parser's message for a malformed body). */
  message: string;
  /** The limit a body-too-large body passed [bytes], when the parser says. */
  limit?: number;
}

/** A byte limit for a message: `52428800 bytes (50 MiB)`. */
export function describeByteLimit(bytes: number): string {
  const mib = bytes / 1024 ** 2;
  return mib >= 1 ? `${bytes} bytes (${Number(mib.toFixed(2))} MiB)` : `${bytes} bytes (${Number((bytes / 1024).toFixed(2))} KiB)`;
}

export interface ErrorResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface ErrorFormatter {
  /** The response for an error the service knows (its own, the runtime's, request validation); undefined otherwise. */
  known(error: unknown, ctx: Context): ErrorResponse | undefined;
  /** The response for a failure of the HTTP layer. */
  http(problem: HttpProblem, ctx: Context): ErrorResponse;
  /** The response for an unexpected failure (the renderer has logged it). */
  internal(ctx: Context): ErrorResponse;
}

/** formidable's codes (its FormidableError.js) for a body that is not well-formed multipart: malformedMultipart, missingMultipartBoundary. */
const MALFORMED_MULTIPART = new Set([1012, 1013]);

/**
 * Classifies the errors koa-body, formidable and koa-router throw, by their status, raw-body's
 * `type` and formidable's numeric `code`; undefined for anything else. co-body throws JSON.parse's
 * SyntaxError with status 400.
 */
export function httpProblemOf(error: unknown): HttpProblem | undefined {
  const e = error as { status?: unknown; statusCode?: unknown; httpCode?: unknown; type?: unknown; code?: unknown; message?: unknown; expose?: unknown; limit?: unknown } | null;
  const status = [e?.status, e?.statusCode, e?.httpCode].find((s): s is number => typeof s === 'number');
  const message = String(e?.message ?? '');
  if (status === 413 || e?.type === 'entity.too.large') {
    return { kind: 'body-too-large', status: 413, message, ...(typeof e?.limit === 'number' ? { limit: e.limit } : {}) };
  }
  if (status === 400 && typeof e?.code === 'number' && MALFORMED_MULTIPART.has(e.code)) return { kind: 'malformed-multipart', status: 400, message };
  if (e?.type === 'entity.parse.failed' || (status === 400 && error instanceof SyntaxError)) return { kind: 'malformed-json', status: 400, message };
  if (status === 415) return { kind: 'unsupported-media-type', status: 415, message };
  if (status === 405) return { kind: 'method-not-allowed', status: 405, message };
  if (status === 501) return { kind: 'not-implemented', status: 501, message };
  if (status !== undefined && status >= 400 && status < 500 && e?.expose !== false) return { kind: 'client-error', status, message };
  return undefined;
}

/** What Koa left without a body: an unmatched path, or koa-router's 405/501 (with Allow). */
function unanswered(ctx: Context): HttpProblem | undefined {
  if (ctx.body != null) return undefined;
  if (ctx.status === 404) return { kind: 'not-found', status: 404, message: `No resource at ${ctx.method} ${ctx.path}` };
  if (ctx.status === 405) {
    return { kind: 'method-not-allowed', status: 405, message: `${ctx.path} does not answer ${ctx.method}; it answers ${ctx.response.get('Allow') || 'no method'}` };
  }
  if (ctx.status === 501) return { kind: 'not-implemented', status: 501, message: `The method ${ctx.method} is not implemented by this service` };
  return undefined;
}

export function errorRenderer(formatter: ErrorFormatter, logger: Logger) {
  return async function renderErrors(ctx: Context, next: Next): Promise<void> {
    let response: ErrorResponse | undefined;
    try {
      await next();
      const problem = unanswered(ctx);
      if (problem) response = formatter.http(problem, ctx);
    } catch (error) {
      response = formatter.known(error, ctx);
      if (!response) {
        const problem = httpProblemOf(error);
        if (problem) response = formatter.http(problem, ctx);
      }
      if (!response) {
        ((ctx.state as { log?: Logger }).log ?? logger).error({ err: error, path: ctx.path }, 'unhandled error');
        response = formatter.internal(ctx);
      }
      if (ctx.headerSent) return; // a stream already started: nothing can be sent any more
    }
    if (!response) return;
    ctx.status = response.status;
    ctx.body = response.body;
    for (const [name, value] of Object.entries(response.headers ?? {})) ctx.set(name, value);
  };
}

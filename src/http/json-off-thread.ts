// Large JSON request bodies are parsed on a thread of their own. JSON.parse of a 16 MB body of
// numbers (a signal for /analysis) holds the event loop for ≈ 0.4 s on a slow core, and every other
// request (health probes, progress streams) waits meanwhile. A body above OFF_THREAD_BYTES, or of
// unannounced length, is read here up to the service's limit (413 naming it beyond), handed to the
// thread (json-parse-worker.ts) and comes back as a value, already checked by findJsonBodyProblem;
// koa-body then leaves it alone (skipWhenRead). Smaller bodies parse inline, where a thread's round
// trip would cost more than it saves. Compressed bodies (Content-Encoding) are left to koa-body.
import type { IncomingMessage } from 'node:http';
import type { Context, Middleware, Next } from 'koa';
import { RequestThread } from '../threads/request-thread.js';
import { JsonBodyError, type JsonBodyProblem } from './json-body.js';

/** Bodies larger than this are parsed on the thread. */
export const OFF_THREAD_BYTES = 256 * 1024;

interface Answer {
  id: number;
  value?: unknown;
  problem?: JsonBodyProblem;
  syntax?: string;
}

/** The one JSON parsing thread of the process (json-parse-worker.ts). */
const thread = new RequestThread<Answer>(new URL('./json-parse-worker', import.meta.url), 'JSON parsing');

/** An error as raw-body / co-body throw it, so that both services' error formats handle it as theirs. */
function bodyError(status: number, type: string, message: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(message), { status, statusCode: status, expose: true, type, ...extra });
}

/** The body's bytes, at most `limit` of them (else a 413 error carrying `limit`). */
function readBytes(request: IncomingMessage, limit: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const tooLarge = (): void => {
      request.off('data', onData);
      request.unpipe();
      request.pause();
      reject(bodyError(413, 'entity.too.large', 'request entity too large', { limit, received }));
    };
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      if (received > limit) return tooLarge();
      chunks.push(chunk);
    };
    request.on('data', onData);
    request.once('end', () => {
      // A fresh buffer of its own, whose memory can be handed to the thread.
      const bytes = new Uint8Array(received);
      let at = 0;
      for (const chunk of chunks) {
        bytes.set(chunk, at);
        at += chunk.length;
      }
      resolve(bytes);
    });
    request.once('error', (error) => reject(bodyError(400, 'request.aborted', `the request body could not be read: ${error.message}`)));
  });
}

function wantsThread(ctx: Context): boolean {
  if (!['POST', 'PUT', 'PATCH'].includes(ctx.method) || !ctx.request.is('application/json', '+json')) return false;
  const encoding = ctx.get('Content-Encoding').toLowerCase();
  if (encoding !== '' && encoding !== 'identity') return false;
  const length = ctx.request.length;
  return length === undefined ? ctx.req.headers['transfer-encoding'] !== undefined : length > OFF_THREAD_BYTES;
}

/** Marks a context whose body this middleware has read and checked. */
const READ = Symbol('json body read off the event loop');

export interface OffThreadJsonOptions {
  /** Largest body [bytes]. */
  limit: number;
  /** Only an object or an array at the top. */
  strict: boolean;
}

/** Mounted before the body parser: parses large JSON bodies on the parsing thread. */
export function offThreadJson(options: OffThreadJsonOptions): Middleware {
  return async function parseLargeJson(ctx: Context, next: Next): Promise<void> {
    if (!wantsThread(ctx)) return next();
    const announced = ctx.request.length;
    if (announced !== undefined && announced > options.limit) {
      throw bodyError(413, 'entity.too.large', 'request entity too large', { limit: options.limit, length: announced });
    }
    const bytes = await readBytes(ctx.req, options.limit);
    // The bytes are moved, not copied: they were read for this request alone.
    const answer = await thread.request({ bytes, strict: options.strict }, [bytes.buffer as ArrayBuffer]);
    if (answer.syntax !== undefined) throw bodyError(400, 'entity.parse.failed', answer.syntax);
    if (answer.problem) throw new JsonBodyError(answer.problem);
    (ctx.request as { body?: unknown }).body = answer.value;
    (ctx.state as Record<symbol, boolean>)[READ] = true;
    await next();
  };
}

/** True when offThreadJson has read and checked the body (the body parser and the checks skip it). */
export function readOffThread(ctx: Context): boolean {
  return (ctx.state as Record<symbol, boolean | undefined>)[READ] === true;
}

/** A body parser that leaves a body already read by offThreadJson alone. */
export function skipWhenRead(parser: Middleware): Middleware {
  return function parseUnlessRead(ctx: Context, next: Next) {
    return readOffThread(ctx) ? next() : parser(ctx, next);
  };
}

// The spec's planned access controls as opt-in settings, off by default (docs/spec/decisions.md §2): Bearer
// API keys (`api.api_keys`, compared in constant time) and a per-minute rate limit per client address
// or key (`api.rate_limit`) with X-RateLimit-Limit / -Remaining / -Reset headers.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Context, Next } from 'koa';
import type { JobqConfig } from './config.js';
import { KeyChecker } from '../http/keys.js';

/** Paths served without a key: health and the API reference. */
export function isPublicPath(path: string): boolean {
  return path === '/health' || path === '/openapi.json' || path === '/docs' || path.startsWith('/docs/') || path === '/redoc' || path.startsWith('/redoc/');
}

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** The job queue's keys: the shared constant-time KeyChecker, and where a request carries its key. */
export class ApiKeys {
  private readonly checker: KeyChecker;

  constructor(keys: string[]) {
    this.checker = new KeyChecker(keys);
  }

  get enabled(): boolean {
    return this.checker.hasKeys;
  }

  accepts(key: string | undefined): boolean {
    return this.checker.accepts(key);
  }

  /** The key of a request: `Authorization: Bearer <key>`, or `?token=<key>` (WebSocket clients in browsers). */
  static keyOf(request: IncomingMessage): string | undefined {
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    if (match) return match[1];
    const token = new URL(request.url ?? '/', 'http://localhost').searchParams.get('token');
    return token ?? undefined;
  }
}

export function authMiddleware(keys: ApiKeys) {
  return async function authenticate(ctx: Context, next: Next): Promise<void> {
    if (!keys.enabled || isPublicPath(ctx.path) || ctx.method === 'OPTIONS') return next();
    if (!keys.accepts(ApiKeys.keyOf(ctx.req))) {
      ctx.status = 401;
      ctx.set('WWW-Authenticate', 'Bearer');
      ctx.body = { detail: 'Not authenticated: send Authorization: Bearer <API_KEY>', error_code: 'UNAUTHORIZED', suggestion: 'Use one of the keys in api.api_keys' };
      return;
    }
    return next();
  };
}

interface Window {
  start: number;
  count: number;
}

/** Counts every request, refused ones included; a request with a valid key counts against that key's budget. */
export function rateLimitMiddleware(settings: JobqConfig['api']['rate_limit'], keys: ApiKeys, now: () => number = Date.now) {
  const windows = new Map<string, Window>();
  let lastSweep = now();
  return async function rateLimit(ctx: Context, next: Next): Promise<void> {
    if (!settings.enabled) return next();
    const key = ApiKeys.keyOf(ctx.req);
    const authenticated = keys.enabled && keys.accepts(key);
    const limit = authenticated ? settings.authenticated_requests_per_minute : settings.requests_per_minute;
    const client = authenticated ? `key:${digest(key ?? '').toString('hex')}` : `ip:${ctx.ip}`;
    const t = now();
    if (t - lastSweep > 60_000) {
      for (const [name, w] of windows) if (t - w.start >= 60_000) windows.delete(name);
      lastSweep = t;
    }
    let window = windows.get(client);
    if (!window || t - window.start >= 60_000) {
      window = { start: t, count: 0 };
      windows.set(client, window);
    }
    window.count++;
    const resetSeconds = Math.max(1, Math.ceil((window.start + 60_000 - t) / 1000));
    ctx.set('X-RateLimit-Limit', String(limit));
    ctx.set('X-RateLimit-Remaining', String(Math.max(0, limit - window.count)));
    ctx.set('X-RateLimit-Reset', String(Math.ceil((window.start + 60_000) / 1000)));
    if (window.count > limit) {
      ctx.status = 429;
      ctx.set('Retry-After', String(resetSeconds));
      ctx.body = { detail: `Rate limit exceeded: ${limit} requests per minute`, error_code: 'RATE_LIMITED', suggestion: `Retry in ${resetSeconds} s` };
      return;
    }
    return next();
  };
}

// Optional API-key authentication (docs/spec/simulation-service.md §5, docs/spec/decisions.md §1.6): when enabled,
// every request under /api/ except /api/v1/health needs `X-API-Key` carrying one of the configured
// keys; health, the API reference (/swagger-ui/**, /docs, /v3/api-docs/**), the WebSocket
// endpoints (/ws/**, /ws-raw/**) and the dashboard's static files stay public. Keys are compared by
// the one constant-time KeyChecker (keys.ts).
import type { Context, Next } from 'koa';
import { AppError } from './errors.js';
import { KeyChecker } from './keys.js';

export { KeyChecker } from './keys.js';

const PUBLIC_API_PATHS = new Set(['/api/v1/health', '/api/v1/health/']);

/** Whether a path needs the key when authentication is enabled. */
export function isProtectedPath(path: string): boolean {
  return path.startsWith('/api/') && !PUBLIC_API_PATHS.has(path);
}

export function authMiddleware(enabled: boolean, keys: readonly string[]) {
  const checker = new KeyChecker(keys);
  return async function requireApiKey(ctx: Context, next: Next): Promise<void> {
    if (enabled && isProtectedPath(ctx.path) && ctx.method !== 'OPTIONS') {
      const header = ctx.get('X-API-Key');
      if (!checker.accepts(header || undefined)) {
        throw new AppError(401, 'UNAUTHORIZED', header ? 'The X-API-Key header does not carry a valid API key' : 'This endpoint needs an API key in the X-API-Key header');
      }
    }
    await next();
  };
}

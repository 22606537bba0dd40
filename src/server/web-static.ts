// The dashboard's static files (built from web/ into dist/web by scripts/build-web.mjs), served at
// `/` by the simulation service. The directory is read once at start-up: only the files found
// there are served (no path is ever joined from the request), each kept in memory with an ETag
// and, from its first request that accepts gzip, a gzip copy (compressing at start-up would cost
// every start ≈ 50 ms). index.html is revalidated on every load (`no-cache`); the other files carry a
// content hash in their names and are cached for a year. Without a built dashboard the request
// passes on (docs.ts then serves its small home page at `/`).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Context, Next } from 'koa';
import { packageDir } from '../http/package-dir.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
};

interface StaticFile {
  type: string;
  body: Buffer;
  compressible: boolean;
  /** The gzip copy, made on first use. */
  gzip?: Buffer;
  etag: string;
  cacheControl: string;
}

/** `dist/web` of the package this file belongs to (from src/server and from dist/src/server). */
export function defaultWebDir(): string {
  return join(packageDir(), 'dist', 'web');
}

function loadFiles(root: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  if (!existsSync(join(root, 'index.html'))) return files;
  for (const name of readdirSync(root)) {
    const type = TYPES[extname(name)];
    if (!type || !statSync(join(root, name)).isFile()) continue;
    const body = readFileSync(join(root, name));
    files.set(name, {
      type,
      body,
      compressible: !type.startsWith('image/png'),
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
      cacheControl: name === 'index.html' ? 'no-cache' : 'public, max-age=31536000, immutable',
    });
  }
  return files;
}

export function webMiddleware(root: string = defaultWebDir()) {
  const files = loadFiles(root);
  return async function serveDashboard(ctx: Context, next: Next): Promise<void> {
    if (files.size === 0 || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    const name = ctx.path === '/' || ctx.path === '/index.html' ? 'index.html' : ctx.path.slice(1);
    const file = name.includes('/') ? undefined : files.get(name);
    if (!file) return next();
    ctx.set('Cache-Control', file.cacheControl);
    ctx.set('ETag', file.etag);
    ctx.set('Vary', 'Accept-Encoding');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = file.type;
    if (ctx.get('If-None-Match') === file.etag) {
      ctx.status = 304;
      return;
    }
    if (file.compressible && ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
      file.gzip ??= gzipSync(file.body, { level: 9 });
      ctx.set('Content-Encoding', 'gzip');
      ctx.body = file.gzip;
      return;
    }
    ctx.body = file.body;
  };
}

// The API reference: /v3/api-docs (the OpenAPI 3 description tsoa generated at build time),
// /swagger-ui/ (swagger-ui-dist's files, copied into dist/vendor at build time, no CDN), /docs → /swagger-ui/, and a
// minimal page at / linking to both until the dashboard exists. All public (auth.ts).
import { createReadStream, existsSync, readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { Context, Next } from 'koa';
import { vendorDir } from '../http/package-dir.js';
import openApi from '../generated/sim/swagger.json' with { type: 'json' };

/** The OpenAPI description as served. */
export const openApiDocument: Record<string, unknown> = openApi as Record<string, unknown>;

const swaggerUiDir = vendorDir('swagger-ui');
/** Only files that exist in the package are served (no path is ever joined from user input). */
const swaggerUiFiles = new Set((existsSync(swaggerUiDir) ? readdirSync(swaggerUiDir) : []).filter((f) => /\.(js|css|html|png)$/.test(f) && !f.endsWith('.map')));

const TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.png': 'image/png',
};

const INITIALIZER = `window.onload = function () {
  window.ui = SwaggerUIBundle({ url: '/v3/api-docs', dom_id: '#swagger-ui', deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'StandaloneLayout', persistAuthorization: true });
};
`;

const HOME = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>pesim simulation service</title></head>
<body style="font-family: sans-serif; max-width: 40em; margin: 2em auto">
<h1>pesim simulation service</h1>
<ul>
<li><a href="/swagger-ui/">Interactive API reference</a> (Swagger UI)</li>
<li><a href="/v3/api-docs">OpenAPI description</a> (JSON)</li>
<li><a href="/api/v1/health">Health</a></li>
</ul>
</body></html>
`;

export function docsMiddleware() {
  return async function serveDocs(ctx: Context, next: Next): Promise<void> {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const path = ctx.path;
    if (path === '/v3/api-docs' || path === '/v3/api-docs/') {
      ctx.body = openApiDocument;
      return;
    }
    if (path === '/docs' || path === '/docs/' || path === '/swagger-ui' || path === '/swagger-ui.html') {
      ctx.redirect('/swagger-ui/');
      return;
    }
    if (path === '/') {
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = HOME;
      return;
    }
    if (path.startsWith('/swagger-ui/')) {
      const file = path.slice('/swagger-ui/'.length) || 'index.html';
      if (file === 'swagger-initializer.js') {
        ctx.type = TYPES['.js'];
        ctx.body = INITIALIZER;
        return;
      }
      if (swaggerUiFiles.has(file)) {
        ctx.type = TYPES[extname(file)] ?? 'application/octet-stream';
        ctx.set('Cache-Control', 'public, max-age=3600');
        ctx.body = createReadStream(join(swaggerUiDir, file));
        return;
      }
    }
    return next();
  };
}

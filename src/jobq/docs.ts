// The interactive API reference of the job-queue service, served locally (no CDN): the OpenAPI
// description at /openapi.json (tsoa's output with the WebSocket described), Swagger UI at /docs and
// ReDoc 2's standalone bundle at /redoc (both copied into dist/vendor at build time).
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import type { Context, Next } from 'koa';
import { vendorDir } from '../http/package-dir.js';
import generated from '../generated/jobq/swagger.json' with { type: 'json' };

const SWAGGER_DIR = vendorDir('swagger-ui');
const REDOC_BUNDLE = join(vendorDir('redoc'), 'redoc.standalone.js');

const SWAGGER_ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

/** The OpenAPI description: tsoa's, plus what tsoa cannot express (the WebSocket, auth). */
export function openApiDocument(bearerEnabled: boolean): Record<string, unknown> {
  const doc = structuredClone(generated) as Record<string, unknown> & { info: Record<string, unknown>; components: Record<string, unknown> };
  doc.info.description = `${String(doc.info.description ?? '')}

WebSocket /ws: send {"action": "subscribe", "task_id": "..."} (or "unsubscribe"); the server answers with
{"type": "update", "task_id", "status", "progress"} messages (progress a fraction 0–1, in order, the last
one in a final state: completed, failed or cancelled), and {"type": "error", "error_code", "detail"} for an
unknown task or a malformed message. 409 is not used by this version.`;
  if (bearerEnabled) {
    doc.components.securitySchemes = { bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY> (api.api_keys)' } };
    doc.security = [{ bearer: [] }];
  }
  return doc;
}

const swaggerPage = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>pesim job-queue service – Swagger UI</title>
<link rel="stylesheet" href="/docs/swagger-ui.css"><link rel="icon" href="/docs/favicon-32x32.png"></head>
<body><div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true });</script>
</body></html>`;

const redocPage = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>pesim job-queue service – ReDoc</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>body { margin: 0; padding: 0; }</style></head>
<body><redoc spec-url="/openapi.json"></redoc><script src="/redoc/redoc.standalone.js"></script></body></html>`;

export function docsMiddleware(bearerEnabled: boolean) {
  const document = JSON.stringify(openApiDocument(bearerEnabled));
  return async function docs(ctx: Context, next: Next): Promise<void> {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const path = ctx.path;
    if (path === '/openapi.json') {
      ctx.type = 'application/json';
      ctx.body = document;
    } else if (path === '/docs' || path === '/docs/') {
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = swaggerPage;
    } else if (path.startsWith('/docs/') && Object.hasOwn(SWAGGER_ASSETS, path.slice(6))) {
      ctx.type = SWAGGER_ASSETS[path.slice(6)];
      ctx.set('Cache-Control', 'public, max-age=86400');
      ctx.body = createReadStream(join(SWAGGER_DIR, path.slice(6)));
    } else if (path === '/redoc' || path === '/redoc/') {
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = redocPage;
    } else if (path === '/redoc/redoc.standalone.js') {
      ctx.type = 'application/javascript; charset=utf-8';
      ctx.set('Cache-Control', 'public, max-age=86400');
      ctx.body = createReadStream(REDOC_BUNDLE);
    } else {
      return next();
    }
  };
}

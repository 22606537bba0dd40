// The dashboard's static files (src/http/web-static.ts) in a real Koa server on 127.0.0.1:0:
// index.html at / revalidated with an ETag (304), hashed assets cached for a year, gzip when
// accepted, nothing outside the directory's own files, and every request passed on when no
// dashboard was built.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import Koa from 'koa';
import { webMiddleware } from '../../../src/server/web-static.js';

interface Answer { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }

function get(server: Server, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, method }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function serve(dir: string): Promise<Server> {
  const app = new Koa();
  app.use(webMiddleware(dir));
  app.use((ctx) => { ctx.status = 404; ctx.body = 'passed on'; });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return server;
}

describe('http: dashboard static files', () => {
  let dir: string;
  let server: Server;
  const script = 'console.log("dashboard");'.repeat(50);
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pesim-web-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>x</title><script src="app-ABC.js"></script>');
    writeFileSync(join(dir, 'app-ABC.js'), script);
    writeFileSync(join(dir, 'notes.txt'), 'not a served type');
    server = await serve(dir);
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves index.html at / with no-cache and an ETag, and 304 when it is unchanged', async () => {
    const first = await get(server, '/');
    expect(first.status).to.equal(200);
    expect(first.headers['content-type']).to.equal('text/html; charset=utf-8');
    expect(first.headers['cache-control']).to.equal('no-cache');
    const etag = first.headers.etag as string;
    expect(etag).to.match(/^"[\w-]+"$/);
    expect((await get(server, '/index.html')).body.toString()).to.equal(first.body.toString());
    const again = await get(server, '/', { 'If-None-Match': etag });
    expect(again.status).to.equal(304);
    expect(again.body.length).to.equal(0);
  });

  it('serves the hashed bundle for a year, gzip-compressed when the client accepts it', async () => {
    const plain = await get(server, '/app-ABC.js');
    expect(plain.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
    expect(plain.headers['content-encoding']).to.equal(undefined);
    expect(plain.body.toString()).to.equal(script);
    const zipped = await get(server, '/app-ABC.js', { 'Accept-Encoding': 'gzip, br' });
    expect(zipped.headers['content-encoding']).to.equal('gzip');
    expect(zipped.body.length).to.be.lessThan(script.length / 5);
    expect(gunzipSync(zipped.body).toString()).to.equal(script);
  });

  it('passes on everything else: other paths, other types, paths outside the directory, other methods', async () => {
    for (const path of ['/api/v1/health', '/notes.txt', '/missing.js', '/../package.json', '/%2e%2e/package.json', '/sub/app-ABC.js']) {
      const r = await get(server, path);
      expect(r.status, path).to.equal(404);
      expect(r.body.toString(), path).to.equal('passed on');
    }
    expect((await get(server, '/', {}, 'POST')).body.toString()).to.equal('passed on');
    const head = await get(server, '/app-ABC.js', {}, 'HEAD');
    expect(head.status).to.equal(200);
    expect(head.body.length).to.equal(0);
  });

  it('passes every request on when no dashboard was built', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'pesim-web-empty-'));
    const bare = await serve(empty);
    try {
      expect((await get(bare, '/')).body.toString()).to.equal('passed on');
    } finally {
      await new Promise((resolve) => bare.close(resolve));
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

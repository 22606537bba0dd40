// Large JSON bodies (above OFF_THREAD_BYTES, or sent without a Content-Length) are parsed on the
// parsing thread: they are answered as small ones are (the analysis, the field named for a bad
// value, a `__proto__` key or malformed JSON), and one above sim.api.max-body-size is a 413 that
// names the limit and the setting.
import { expect } from 'chai';
import { request } from 'node:http';
import { OFF_THREAD_BYTES } from '../../../src/http/json-off-thread.js';
import type { ErrorBody } from '../../../src/http/error-body.js';
import { startHarness, type Harness } from './harness.js';

/** A sine of n samples, whose rms is 1/√2. */
function sine(n: number): number[] {
  return Array.from({ length: n }, (_, i) => Math.sin((2 * Math.PI * i) / 100));
}

/** POSTs a body in pieces without a Content-Length (chunked transfer encoding). */
function postChunked(url: string, pieces: string[]): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'Content-Type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown }));
    });
    req.on('error', reject);
    for (const piece of pieces) req.write(piece);
    req.end();
  });
}

describe('large JSON bodies', function () {
  this.timeout(60_000);
  const limit = 4 * 1024 * 1024;
  let h: Harness;

  before(async () => {
    h = await startHarness({ maxBodyBytes: limit });
  });
  after(() => h?.close());

  it('analyses a signal whose body is parsed on the parsing thread', async () => {
    const body = { data: sine(100_000), sampleRate: 1e5 };
    expect(JSON.stringify(body).length).to.be.greaterThan(OFF_THREAD_BYTES);
    const r = await h.client.post<number>('/api/v1/analysis/rms', body);
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    expect(r.body).to.be.closeTo(Math.SQRT1_2, 1e-9);
  });

  it('reads a body of unannounced length', async () => {
    const text = JSON.stringify({ data: sine(50_000), sampleRate: 1e5 });
    const pieces = [text.slice(0, 1000), text.slice(1000, 500_000), text.slice(500_000)];
    const r = await postChunked(`${h.baseUrl}/api/v1/analysis/rms`, pieces);
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    expect(r.body).to.be.closeTo(Math.SQRT1_2, 1e-9);
  });

  it('names the field of a bad value, a __proto__ key and malformed JSON as for small bodies', async () => {
    const data: unknown[] = sine(60_000);
    data[12_345] = 'x';
    const bad = await h.client.post<ErrorBody>('/api/v1/analysis/rms', { data });
    expect(bad.status).to.equal(400);
    expect(bad.body.details?.[0]).to.deep.equal({ field: 'data[12345]', message: 'must be a number, got "x"' });
    const proto = `{"data": ${JSON.stringify(sine(60_000))}, "metadata": {"__proto__": {"x": 1}}}`;
    const forbidden = await h.client.post<ErrorBody>('/api/v1/analysis/rms', proto, { headers: { 'content-type': 'application/json' } });
    expect(forbidden.status).to.equal(400);
    expect(forbidden.body.details?.[0].field).to.equal('metadata.__proto__');
    const broken = await h.client.post<ErrorBody>('/api/v1/analysis/rms', `{"data": ${JSON.stringify(sine(60_000)).slice(0, -1)}`, {
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.status).to.equal(400);
    expect(broken.body.message).to.match(/^Malformed request body: /);
  });

  it('answers 413 naming the limit and the setting, announced or counted', async () => {
    const announced = await h.client.post<ErrorBody>('/api/v1/analysis/rms', { data: sine(300_000) });
    expect(announced.status).to.equal(413);
    expect(announced.body.error).to.equal('PAYLOAD_TOO_LARGE');
    expect(announced.body.message).to.contain('4194304 bytes (4 MiB)').and.contain('sim.api.max-body-size');
    const text = JSON.stringify({ data: sine(300_000) });
    const counted = await postChunked(`${h.baseUrl}/api/v1/analysis/rms`, [text.slice(0, 3_000_000), text.slice(3_000_000)]);
    expect(counted.status).to.equal(413);
    expect((counted.body as ErrorBody).message).to.contain('4194304 bytes (4 MiB)');
  });
});

// Optional API keys (docs/spec/simulation-service.md §5) with two keys configured: walks every operation of
// the served OpenAPI description — each protected one answers 401 UNAUTHORIZED without a key or
// with a wrong one and something other than 401 with either key; the public ones (security: [])
// need no key. The reference pages stay public; with auth disabled no key is needed.
import { expect } from 'chai';
import { rcStep } from '../../fixtures/circuits.js';
import { circuitFileOf, startHarness, type Harness } from './harness.js';

const KEYS = ['first-key-0123456789', 'second-key'];
const SOME_ID = '3d2f8a61-5c4b-4e0f-8a7d-9b1c2e3f4a5b';

describe('simulation service: API keys', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => {
    h = await startHarness({ authEnabled: true, apiKeys: KEYS });
  });
  after(async () => h.close());

  it('documents the X-API-Key scheme and guards every protected operation', async () => {
    const ops = h.contract.operations;
    const concrete = (template: string): string => template.replace(/\{[^}]+\}/g, SOME_ID);
    const protectedOps = ops.filter((op) => (op.security ?? []).length > 0);
    const publicOps = ops.filter((op) => (op.security ?? []).length === 0);
    expect(protectedOps.length).to.be.at.least(20);
    expect(publicOps.map((op) => op.template).sort()).to.deep.equal(['/actuator/health', '/api/v1/health']);
    for (const op of protectedOps) {
      const path = concrete(op.template);
      const body = op.method === 'POST' || op.method === 'PUT' ? {} : undefined;
      const none = await h.client.request<{ error: string; message: string }>(op.method, path, { body });
      expect(none.status, `${op.method} ${op.template} without key`).to.equal(401);
      expect(none.body.error).to.equal('UNAUTHORIZED');
      expect(none.body.message).to.match(/X-API-Key/);
      const wrong = await h.client.request(op.method, path, { body, headers: { 'X-API-Key': 'second-key-but-longer' } });
      expect(wrong.status, `${op.method} ${op.template} wrong key`).to.equal(401);
      for (const key of KEYS) {
        const ok = await h.client.request(op.method, path, { body, headers: { 'X-API-Key': key } });
        expect(ok.status, `${op.method} ${op.template} with a key`).to.not.equal(401);
      }
    }
    for (const op of publicOps) {
      const r = await h.client.request(op.method, concrete(op.template));
      expect(r.status, `${op.method} ${op.template}`).to.equal(200);
    }
  });

  it('runs a simulation end to end with a key', async () => {
    h.client.defaultHeaders = { 'X-API-Key': KEYS[1] };
    try {
      const r = await h.client.post<{ simulationId: string }>('/api/v1/simulations', { circuitFile: circuitFileOf(rcStep('trapezoidal', 1e-5)) });
      expect(r.status).to.equal(202);
      const done = await h.client.waitForState(r.body.simulationId, 'completed');
      expect(done.results?.measurements['SCOPE.1.ch1_max']).to.be.closeTo(1 - Math.exp(-5), 1e-3);
    } finally {
      h.client.defaultHeaders = {};
    }
  });

  it('keeps the reference pages public', async () => {
    for (const path of ['/v3/api-docs', '/swagger-ui/', '/swagger-ui/swagger-ui.css', '/']) {
      const r = await fetch(`${h.baseUrl}${path}`);
      expect(r.status, path).to.equal(200);
      await r.arrayBuffer();
    }
  });

  it('needs no key when authentication is disabled', async () => {
    const open = await startHarness();
    try {
      const r = await open.client.get<{ total: number }>('/api/v1/simulations');
      expect(r.status).to.equal(200);
      expect(r.body.total).to.equal(0);
    } finally {
      await open.close();
    }
  });
});

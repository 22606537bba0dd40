// Health endpoints, the API reference pages and the error body of unknown routes.
import { expect } from 'chai';
import { startHarness, type Harness } from './harness.js';

describe('simulation service: health and reference', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h.close());

  it('answers /api/v1/health with versions and uptime', async () => {
    const r = await h.client.get<{ status: string; version: string; uptimeSeconds: number; engine: { eigen: string } }>('/api/v1/health');
    expect(r.status).to.equal(200);
    expect(r.body.status).to.equal('UP');
    expect(r.body.version).to.equal('0.1.0');
    expect(r.body.uptimeSeconds).to.be.within(0, 600);
    expect(r.body.engine.eigen).to.match(/^3\.4/);
    expect(r.headers.get('x-request-id')).to.match(/^[\w-]+$/);
  });

  it('answers /actuator/health with one status per component', async () => {
    const r = await h.client.get<{ status: string; components: Record<string, { status: string }> }>('/actuator/health');
    expect(r.status).to.equal(200);
    expect(r.body).to.deep.equal({ status: 'UP', components: { engine: { status: 'UP' }, queue: { status: 'UP' }, store: { status: 'UP', writable: true } } });
  });

  it('renders an unknown route as a 404 error body', async () => {
    const r = await h.client.get<{ error: string; path: string; timestamp: string }>('/api/v1/nothing-here');
    expect(r.status).to.equal(404);
    expect(r.body.error).to.equal('NOT_FOUND');
    expect(r.body.path).to.equal('/api/v1/nothing-here');
    expect(Date.parse(r.body.timestamp)).to.be.closeTo(Date.now(), 60_000);
  });

  it('renders a known path with another method as a 405 error body with Allow', async () => {
    const r = await h.client.request<{ error: string; path: string }>('DELETE', '/api/v1/simulations', { unchecked: true });
    expect(r.status).to.equal(405);
    expect(r.contentType).to.match(/application\/json/);
    expect(r.body).to.include({ error: 'METHOD_NOT_ALLOWED', path: '/api/v1/simulations' });
    expect(r.headers.get('allow')).to.match(/GET/).and.match(/POST/);
  });

  it('answers unknown paths under the SockJS prefix /ws in the JSON error shape; SockJS paths still work', async () => {
    for (const path of ['/ws/nothing', '/ws/a/b', '/ws/1/2/unknown-transport']) {
      const r = await fetch(`${h.baseUrl}${path}`);
      expect(r.status, path).to.equal(404);
      expect(r.headers.get('content-type')).to.match(/application\/json/);
      expect(await r.json()).to.include({ error: 'NOT_FOUND', path });
    }
    const info = await fetch(`${h.baseUrl}/ws/info`);
    expect(info.status).to.equal(200);
    expect(((await info.json()) as { websocket: boolean }).websocket).to.equal(true);
    expect(await (await fetch(`${h.baseUrl}/ws`)).text()).to.contain('Welcome to SockJS');
  });

  it('serves the OpenAPI description, Swagger UI from local files, and /docs as a redirect', async () => {
    const spec = (await (await fetch(`${h.baseUrl}/v3/api-docs`)).json()) as { openapi: string; components: { securitySchemes: Record<string, { name: string }> } };
    expect(spec.openapi).to.match(/^3\./);
    expect(spec.components.securitySchemes.api_key.name).to.equal('X-API-Key');
    const ui = await fetch(`${h.baseUrl}/swagger-ui/`);
    expect(ui.status).to.equal(200);
    expect(await ui.text()).to.contain('swagger-ui-bundle.js');
    const bundle = await fetch(`${h.baseUrl}/swagger-ui/swagger-ui-bundle.js`);
    expect(bundle.status).to.equal(200);
    expect(bundle.headers.get('content-type')).to.contain('javascript');
    await bundle.arrayBuffer();
    const init = await (await fetch(`${h.baseUrl}/swagger-ui/swagger-initializer.js`)).text();
    expect(init).to.contain("'/v3/api-docs'");
    const docs = await fetch(`${h.baseUrl}/docs`, { redirect: 'manual' });
    expect(docs.status).to.equal(302);
    expect(docs.headers.get('location')).to.equal('/swagger-ui/');
    const traversal = await fetch(`${h.baseUrl}/swagger-ui/..%2Fpackage.json`);
    expect(traversal.status).to.equal(404);
    await traversal.arrayBuffer();
  });

  it('documents examples that match their own schemas, and the error body on every operation', () => {
    // (analysis and loss operations belong to their own tests)
    const mine = h.contract.exampleMismatches().filter((m) => !/\/api\/v1\/(analysis|loss)\//.test(m));
    expect(mine.join('\n\n')).to.equal('');
    const withExamples = h.contract.operations.filter((op) => Object.values(op.responses).some((r) => JSON.stringify(r).includes('"examples"')));
    expect(withExamples.length).to.be.at.least(15);
    for (const op of h.contract.operations) {
      const errors = Object.entries(op.responses).filter(([status]) => Number(status) >= 400);
      expect(errors.length, `${op.method} ${op.template}`).to.be.greaterThan(0);
      for (const [status, r] of errors) {
        if (op.template === '/actuator/health' && status === '503') continue; // the health body itself
        expect(JSON.stringify(r.content), `${op.method} ${op.template} ${status}`).to.contain('#/components/schemas/ErrorBody');
      }
    }
  });
});

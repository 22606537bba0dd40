// Shutdown and restart: closing the service stops accepting connections and the running work;
// queued and interrupted simulations stay in the SQLite store and run when a service is started
// again on the same data directory. Circuits survive too.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulationService } from '../../../src/server/server.js';
import { buck, rcStep } from '../../fixtures/circuits.js';
import { circuitFileOf } from './harness.js';

describe('simulation service: restart', function () {
  this.timeout(60_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'pesim-restart-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  const post = async (url: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> => {
    const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  };

  it('keeps queued and interrupted simulations and runs them after a restart', async () => {
    const first = await startSimulationService({ port: 0, dataDir, logLevel: 'silent', maxConcurrent: 1 });
    const long = await post(`${first.url}/api/v1/simulations`, { circuitFile: circuitFileOf(buck({ tEnd: 0.5, dt: 1e-7 })) });
    const short = await post(`${first.url}/api/v1/simulations`, { circuitFile: circuitFileOf(rcStep('trapezoidal', 1e-5)) });
    const form = new FormData();
    form.append('file', new Blob([JSON.stringify(rcStep('backward-euler', 1e-5))]), 'rc.json');
    const circuit = (await (await fetch(`${first.url}/api/v1/circuits/parse`, { method: 'POST', body: form })).json()) as { circuitId: string };
    expect([long.status, short.status]).to.deep.equal([202, 202]);
    await first.close();
    const refused = await fetch(`${first.url}/api/v1/health`).then(() => 'answered', () => 'refused');
    expect(refused).to.equal('refused');

    const second = await startSimulationService({ port: 0, dataDir, logLevel: 'silent', maxConcurrent: 1 });
    try {
      for (const id of [long.body.simulationId, short.body.simulationId]) {
        for (;;) {
          const s = (await (await fetch(`${second.url}/api/v1/simulations/${id}`)).json()) as { status: string };
          if (s.status === 'completed') break;
          expect(['queued', 'running']).to.include(s.status);
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      const info = await fetch(`${second.url}/api/v1/circuits/${circuit.circuitId}/info`);
      expect(info.status).to.equal(200);
    } finally {
      await second.close();
    }
  });
});

// Large batches through HTTP: a sweep whose values are checked on the circuit-check thread refuses
// a bad value with the same error as a small sweep checked on the service's thread; a sweep of
// 100 000 runs is accepted in one request, counted from its submission on, and cancelled at once.
// (How fast is measured by bench/throughput.ts, not here.)
import { expect } from 'chai';
import { rcStep } from '../../fixtures/circuits.js';
import { circuitFileOf, startHarness, type Harness } from './harness.js';

interface ErrorBody {
  error: string;
  message: string;
  details?: { field: string; message: string }[];
}
interface BatchStatus {
  totalSimulations: number;
  completed: number;
  running: number;
  pending: number;
  cancelled: number;
  failed: number;
  done: boolean;
  simulations: Record<string, { status: string; parameterSet: Record<string, number> }>;
}

const base = { circuitFile: circuitFileOf(rcStep('backward-euler', 1e-5, 1e-4)) };

describe('simulation service: large batches', function () {
  this.timeout(300_000);
  let h: Harness;
  before(async () => {
    h = await startHarness({ maxBatchSize: 100_000, queueSize: 100_000, maxBodyBytes: 8 * 1024 * 1024, cacheEnabled: false });
  });
  after(async () => h.close());

  it('refuses a bad value among many with the error a small sweep gets, and queues nothing', async () => {
    const before = (await h.client.get<{ total: number }>('/api/v1/simulations')).body.total;
    const many = Array.from({ length: 200 }, (_, i) => (i === 150 ? -1 : 100 + i));
    const large = await h.client.post<ErrorBody>('/api/v1/simulations/batch', { base, sweep: { 'R.1.R': many, 'C.1.C': [1e-6, 2e-6] } });
    const small = await h.client.post<ErrorBody>('/api/v1/simulations/batch', { base, sweep: { 'R.1.R': [100, -1], 'C.1.C': [1e-6, 2e-6] } });
    expect(small.status).to.equal(422);
    expect(large.status).to.equal(small.status);
    expect(large.body.details).to.deep.equal(small.body.details);
    expect(large.body.message).to.equal(small.body.message);
    expect(large.body.message).to.contain('(got -1)');
    // The same in zip mode, where each variant is checked.
    const zip = await h.client.post<ErrorBody>('/api/v1/simulations/batch', { base, mode: 'zip', sweep: { 'R.1.R': many, 'C.1.C': many.map(() => 1e-6) } });
    expect(zip.status).to.equal(small.status);
    expect(zip.body.details).to.deep.equal(small.body.details);
    expect((await h.client.get<{ total: number }>('/api/v1/simulations')).body.total).to.equal(before);
  });

  it('accepts a sweep of 100 000 runs in one request, counts it from the start and cancels the rest', async () => {
    const sweep = {
      'R.1.R': Array.from({ length: 1000 }, (_, i) => 100 + i),
      'C.1.C': Array.from({ length: 100 }, (_, i) => 1e-6 * (1 + i / 100)),
    };
    const r = await h.client.post<{ batchId: string; totalSimulations: number; simulationIds: string[] }>('/api/v1/simulations/batch', { base, sweep });
    expect(r.status).to.equal(202);
    expect(r.body.totalSimulations).to.equal(100_000);
    expect(new Set(r.body.simulationIds).size).to.equal(100_000);
    const status = await h.client.get<BatchStatus>(`/api/v1/simulations/batch/${r.body.batchId}`);
    expect(status.status).to.equal(200);
    const s = status.body;
    expect(s.totalSimulations).to.equal(100_000);
    expect(s.completed + s.running + s.pending + s.failed).to.equal(100_000);
    expect(Object.keys(s.simulations)).to.have.length(1000);
    expect(s.simulations[r.body.simulationIds[1]].parameterSet).to.deep.equal({ 'R.1.R': 100, 'C.1.C': 1e-6 * (1 + 1 / 100) });
    const cancel = await fetch(`${h.baseUrl}/api/v1/simulations/batch/${r.body.batchId}`, { method: 'DELETE' });
    expect(cancel.status).to.equal(204);
    let end: BatchStatus;
    for (;;) {
      end = (await h.client.get<BatchStatus>(`/api/v1/simulations/batch/${r.body.batchId}`)).body;
      if (end.done) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(end.cancelled).to.be.greaterThan(90_000);
    expect(end.completed + end.cancelled + end.failed).to.equal(100_000);
    expect(end.failed).to.equal(0);
  });
});

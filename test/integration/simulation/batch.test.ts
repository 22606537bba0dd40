// Batches through HTTP: a grid sweep of 20 buck variants whose measured output averages follow
// D·Vin, an explicit list in zip mode, atomic validation (one bad item queues nothing), the
// batch-size limit, batch status (docs/spec/simulation-service.md §2.5), cancel (204) and 404.
import { expect } from 'chai';
import { buck, rcStep } from '../../fixtures/circuits.js';
import { circuitFileOf, startHarness, type Harness } from './harness.js';

interface BatchSubmission {
  batchId: string;
  simulationIds: string[];
  totalSimulations: number;
}
interface BatchStatus {
  batchId: string;
  totalSimulations: number;
  completed: number;
  failed: number;
  running: number;
  pending: number;
  cancelled: number;
  overallProgress: number;
  done: boolean;
  submittedAt: string;
  simulations: Record<string, { status: string; progress: number; parameterSet: Record<string, number>; errorMessage?: string }>;
  failedIds: string[];
}
interface ErrorBody {
  error: string;
  details?: { field: string }[];
}

// Ideal buck (no diode drop, 1 mΩ switches, 2 Ω: continuous conduction from D = 0.2; LC ringing
// decays as e^(−2500 t)), 4 ms at 0.2 µs (250 steps per switching period): 20 000 steps; the
// measurement window is the last 0.8 ms.
const base = { circuitFile: circuitFileOf(buck({ vf: 0, ron: 1e-3, R: 2, dt: 2e-7, tEnd: 4e-3 })) };

describe('simulation service: batches', function () {
  this.timeout(120_000);
  let h: Harness;
  before(async () => {
    h = await startHarness({ maxBatchSize: 25 });
  });
  after(async () => h.close());

  async function waitDone(batchId: string): Promise<BatchStatus> {
    for (;;) {
      const r = await h.client.get<BatchStatus>(`/api/v1/simulations/batch/${batchId}`);
      expect(r.status).to.equal(200);
      if (r.body.done) return r.body;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('runs a grid sweep of 20 buck variants whose output averages follow D·Vin', async () => {
    const duties = [0.2, 0.3, 0.4, 0.5, 0.6];
    const inputs = [12, 24, 36, 48];
    const r = await h.client.post<BatchSubmission>('/api/v1/simulations/batch', { base, sweep: { 'SIGNAL.1.duty': duties, 'V.1.value': inputs } });
    expect(r.status).to.equal(202);
    expect(r.headers.get('location')).to.equal(`/api/v1/simulations/batch/${r.body.batchId}`);
    expect(r.body.totalSimulations).to.equal(20);
    const status = await waitDone(r.body.batchId);
    expect(status).to.include({ batchId: r.body.batchId, totalSimulations: 20, completed: 20, failed: 0, running: 0, pending: 0, overallProgress: 100, done: true });
    expect(status.failedIds).to.deep.equal([]);
    const seen = new Set<string>();
    for (const id of r.body.simulationIds) {
      const entry = status.simulations[id];
      expect(entry.status).to.equal('completed');
      const d = entry.parameterSet['SIGNAL.1.duty'];
      const vin = entry.parameterSet['V.1.value'];
      seen.add(`${d}/${vin}`);
      const s = await h.client.get<{ batchId: string; results: { measurements: Record<string, number> } }>(`/api/v1/simulations/${id}`);
      expect(s.body.batchId).to.equal(r.body.batchId);
      expect(s.body.results.measurements['SCOPE.1.ch1_avg'], `D=${d} Vin=${vin}`).to.be.closeTo(d * vin, 0.02 * d * vin + 0.05);
    }
    expect(seen.size).to.equal(20); // every combination once
    const listed = await h.client.get<{ total: number }>(`/api/v1/simulations?batchId=${r.body.batchId}`);
    expect(listed.body.total).to.equal(20);
  });

  it('accepts an explicit list and a zip sweep', async () => {
    const list = await h.client.post<BatchSubmission>('/api/v1/simulations/batch', {
      simulations: [{ circuitFile: circuitFileOf(rcStep('trapezoidal', 1e-5)) }, { circuitFile: circuitFileOf(rcStep('trapezoidal', 1e-5)), parameters: { 'R.1.R': 2000 } }],
    });
    expect(list.status).to.equal(202);
    expect(list.body.totalSimulations).to.equal(2);
    const done = await waitDone(list.body.batchId);
    expect(done.simulations[list.body.simulationIds[1]].parameterSet).to.deep.equal({ 'R.1.R': 2000 });
    const zip = await h.client.post<BatchSubmission>('/api/v1/simulations/batch', { base, mode: 'zip', sweep: { 'SIGNAL.1.duty': [0.25, 0.75], 'V.1.value': [20, 40] } });
    expect(zip.body.totalSimulations).to.equal(2);
    const z = await waitDone(zip.body.batchId);
    expect(Object.values(z.simulations).map((s) => s.parameterSet)).to.deep.equal([{ 'SIGNAL.1.duty': 0.25, 'V.1.value': 20 }, { 'SIGNAL.1.duty': 0.75, 'V.1.value': 40 }]);
  });

  it('queues nothing when one item is invalid, and enforces the batch-size limit', async () => {
    const before = (await h.client.get<{ total: number }>('/api/v1/simulations')).body.total;
    const bad = await h.client.post<ErrorBody>('/api/v1/simulations/batch', {
      simulations: [{ circuitFile: circuitFileOf(rcStep('trapezoidal', 1e-5)) }, { circuitFile: circuitFileOf(rcStep('trapezoidal', 1e-5)), parameters: { 'R.5.R': 1 } }],
    });
    expect(bad.status).to.equal(400);
    expect(bad.body.details?.[0].field).to.equal('simulations[1].parameters.R.5.R');
    const badSweep = await h.client.post<ErrorBody>('/api/v1/simulations/batch', { base, sweep: { 'X.1.y': [1, 2] } });
    expect(badSweep.status).to.equal(400);
    expect(badSweep.body.details?.[0].field).to.equal('base.parameters.X.1.y');
    // A value that is no number is named by its place in the sweep and what was expected.
    const textValue = await h.client.post<ErrorBody>('/api/v1/simulations/batch', { base, sweep: { 'R.1.R': [4, 'five', 6] } });
    expect(textValue.status).to.equal(400);
    expect(textValue.body.details?.[0]).to.deep.equal({ field: 'sweep.R.1.R[1]', message: 'must be a number, got "five"' });
    expect(textValue.body.message).to.contain('sweep.R.1.R[1] must be a number, got "five"');
    const tooMany = await h.client.post<ErrorBody>('/api/v1/simulations/batch', { base, sweep: { 'SIGNAL.1.duty': [0.1, 0.2, 0.3, 0.4, 0.5, 0.6], 'V.1.value': [1, 2, 3, 4, 5] } });
    expect(tooMany.status).to.equal(400);
    expect(tooMany.body.details?.[0].field).to.equal('simulations');
    const zipMismatch = await h.client.post<ErrorBody>('/api/v1/simulations/batch', { base, mode: 'zip', sweep: { 'SIGNAL.1.duty': [0.1, 0.2], 'V.1.value': [1] } });
    expect(zipMismatch.status).to.equal(400);
    const both = await h.client.post<ErrorBody>('/api/v1/simulations/batch', { base, simulations: [base] });
    expect(both.status).to.equal(400);
    const empty = await h.client.post<ErrorBody>('/api/v1/simulations/batch', { simulations: [] });
    expect(empty.status).to.equal(400);
    const tooLarge = await h.client.post<ErrorBody>('/api/v1/simulations/batch', { simulations: [base, { ...base, simulationTime: 1e3 }] });
    expect(tooLarge.status).to.equal(422);
    expect(tooLarge.body.error).to.equal('SIMULATION_TOO_LARGE');
    expect((await h.client.get<{ total: number }>('/api/v1/simulations')).body.total).to.equal(before);
  });

  it('cancels the unfinished simulations of a batch (204) and answers 404 for unknown batches', async () => {
    const long = { circuitFile: circuitFileOf(buck({ tEnd: 1.5, dt: 1e-7 })) };
    const r = await h.client.post<BatchSubmission>('/api/v1/simulations/batch', { base: long, sweep: { 'R.1.R': [4, 5, 6] } });
    expect(r.status).to.equal(202);
    const del = await h.client.delete(`/api/v1/simulations/batch/${r.body.batchId}`);
    expect(del.status).to.equal(204);
    const status = await waitDone(r.body.batchId);
    expect(status).to.include({ cancelled: 3, completed: 0, done: true });
    // Entries report the progress they reached (below 100); the batch counts them as finished.
    for (const entry of Object.values(status.simulations)) expect(entry.progress).to.be.below(100);
    expect(status.overallProgress).to.equal(100);
    for (const [method, path] of [['GET', ''], ['DELETE', '']] as const) {
      const missing = await h.client.request<ErrorBody>(method, `/api/v1/simulations/batch/7a9e3c10-2b4d-4f6a-8c1e-0d5b9f2a6e38${path}`);
      expect(missing.status).to.equal(404);
      expect(missing.body.error).to.equal('BATCH_NOT_FOUND');
    }
  });
});

// Simulation endpoints through HTTP: submission (inline file or stored circuit, overrides), status
// with measurements, list with filters and paging, progress, ws-info, export in three formats
// parsed back, and every error row of docs/spec/decisions.md §1.1 that a submission can hit. Responses are
// checked against the served OpenAPI description by the harness.
import { expect } from 'chai';
import { tableFromIPC } from 'apache-arrow';
import { readParquet } from 'parquet-wasm';
import { readFileSync, renameSync } from 'node:fs';
import { buck, rcStep } from '../../fixtures/circuits.js';
import { circuitFileOf, startHarness, type Harness, type SimulationStatusBody } from './harness.js';

interface Submission {
  simulationId: string;
  status: string;
  batchId: string | null;
  cacheHit: boolean;
}
interface ErrorBody {
  error: string;
  message: string;
  details?: { field: string; message: string; component?: string }[];
}

describe('simulation service: simulations', () => {
  let h: Harness;
  let rcId: string;
  before(async () => {
    h = await startHarness({ maxSteps: 1e6 });
    // RC step, 1 kΩ / 1 µF, 5 ms at 10 µs: 500 steps.
    const submitted = await h.client.post<Submission>('/api/v1/simulations', { circuitFile: circuitFileOf(rcStep('trapezoidal', 1e-5)), measurementWindow: { start: 4e-3, end: 5e-3 } });
    expect(submitted.status).to.equal(202);
    rcId = submitted.body.simulationId;
    await h.client.waitForState(rcId, 'completed');
  });
  after(async () => h.close());

  it('accepts a base64 circuit with 202, Location and the documented body', async () => {
    const r = await h.client.post<Submission>('/api/v1/simulations', { circuitFile: circuitFileOf(buck({ tEnd: 1e-3, dt: 1e-7 })), priority: 'HIGH', signals: ['SCOPE.1.ch1'] });
    expect(r.status).to.equal(202);
    expect(r.headers.get('location')).to.equal(`/api/v1/simulations/${r.body.simulationId}`);
    expect(r.body).to.include({ batchId: null, cacheHit: false });
    expect(['queued', 'running', 'completed']).to.include(r.body.status);
    const done = await h.client.waitForState(r.body.simulationId, 'completed');
    expect(done.results?.signals).to.deep.equal(['SCOPE.1.ch1']);
  });

  it('reports status with measurements keyed <SCOPE>.<index>.ch<n>_avg|rms|min|max over the window', async () => {
    const r = await h.client.get<SimulationStatusBody & { durationMs: number; completedAt: string; request: { circuitName: string } }>(`/api/v1/simulations/${rcId}`);
    expect(r.status).to.equal(200);
    expect(r.body.status).to.equal('completed');
    expect(r.body.progress).to.include({ mainSimProgress: 100, currentStep: 500, totalSteps: 500 });
    const m = r.body.results!.measurements;
    expect(Object.keys(m).sort()).to.deep.equal(['SCOPE.1.ch1_avg', 'SCOPE.1.ch1_max', 'SCOPE.1.ch1_min', 'SCOPE.1.ch1_rms']);
    // vC = 1 − e^(−t/τ), τ = 1 ms, over [4 ms, 5 ms].
    expect(m['SCOPE.1.ch1_min']).to.be.closeTo(1 - Math.exp(-4), 1e-3);
    expect(m['SCOPE.1.ch1_max']).to.be.closeTo(1 - Math.exp(-5), 1e-3);
    const exactAvg = 1 - (Math.exp(-4) - Math.exp(-5)); // (1/Δt)∫(1 − e^(−t)) dt over [4, 5] ms
    expect(m['SCOPE.1.ch1_avg']).to.be.closeTo(exactAvg, 1e-3);
    expect(r.body.durationMs).to.be.greaterThan(0);
    expect(r.body.errorMessage).to.equal(null);
  });

  it('answers a completed run\'s status from its record, without opening the result file', async () => {
    const id = (await h.client.post<Submission>('/api/v1/simulations', { circuitFile: circuitFileOf(rcStep('backward-euler', 1e-5)) })).body.simulationId;
    const done = await h.client.waitForState(id, 'completed');
    const file = h.handle.runtime.scheduler.resultPath(id);
    renameSync(file, `${file}.away`);
    try {
      const r = await h.client.get<SimulationStatusBody>(`/api/v1/simulations/${id}`);
      expect(r.status).to.equal(200);
      expect(r.body.results).to.deep.equal(done.results);
      expect(Object.keys(r.body.results!.measurements)).to.have.length(4);
      expect(r.body.results!.signals).to.deep.equal(['SCOPE.1.ch1']);
    } finally {
      renameSync(`${file}.away`, file);
    }
  });

  it('parses a resubmitted inline file once: later submissions share its netlist', async () => {
    const simulations = h.handle.services.simulations;
    const content = circuitFileOf(rcStep('trapezoidal', 2e-5));
    const first = await simulations.prepare({ circuitFile: content, parameters: { 'R.1.R': 500 } });
    const again = await simulations.prepare({ circuitFile: `${content}\n`, parameters: { 'R.1.R': 2000 } });
    const other = await simulations.prepare({ circuitFile: circuitFileOf(rcStep('trapezoidal', 3e-5)) });
    expect(again.spec.netlist.elements).to.equal(first.spec.netlist.elements); // the same parsed objects
    expect(other.spec.netlist.elements).to.not.equal(first.spec.netlist.elements);
    expect(again.spec.parameters).to.deep.equal({ 'R.1.R': 2000 });
  });

  it('submits a stored circuit by id with settings and parameter overrides', async () => {
    const up = await h.client.upload<{ circuitId: string }>('/api/v1/circuits/parse', JSON.stringify(rcStep('trapezoidal', 1e-5)), 'rc.json');
    const r = await h.client.post<Submission>('/api/v1/simulations', {
      circuitFile: up.body.circuitId, simulationTime: 2e-3, timeStep: 2e-5, solverType: 'backward-euler', parameters: { 'R.1.R': 500 },
      measurementWindow: { start: 1.9e-3, end: 2e-3 },
    });
    expect(r.status).to.equal(202);
    const s = await h.client.waitForState(r.body.simulationId, 'completed');
    expect(s.progress.totalSteps).to.equal(100);
    // τ = 0.5 ms: at 2 ms the capacitor is at 1 − e^(−4).
    expect(s.results!.measurements['SCOPE.1.ch1_max']).to.be.closeTo(1 - Math.exp(-4), 5e-3);
  });

  it('runs a GeckoCIRCUITS model with its stepped sources, or with exact timing on request (timing)', async () => {
    const ipes = readFileSync(new URL('../../fixtures/gecko/boost_simple.ipes', import.meta.url)).toString('base64');
    const gateAvg = async (extra: object): Promise<number> => {
      const r = await h.client.post<Submission>('/api/v1/simulations', { circuitFile: ipes, ...extra });
      expect(r.status).to.equal(202);
      const s = await h.client.waitForState(r.body.simulationId, 'completed');
      // The scope channels' labels come with the results (the dashboard shows them).
      expect(s.results!.labels).to.include({ 'SCOPE.1.ch3': 'u2', 'SCOPE.1.ch4': 'iL' });
      return s.results!.measurements['SCOPE.1.ch6_avg'];
    };
    // 35 kHz, d = 0.7 at dt = 1 µs: GeckoCIRCUITS' stepped rectangle is on 20 of its 30-step period.
    expect(await gateAvg({})).to.be.closeTo(0.65, 1e-9);
    expect(await gateAvg({ timing: 'exact' })).to.be.closeTo(0.7, 0.01);
    const bad = await h.client.post<{ details: Array<{ field: string }> }>('/api/v1/simulations', { circuitFile: ipes, timing: 'late' });
    expect(bad.status).to.equal(400);
    expect(bad.body.details.map((d) => d.field).join()).to.contain('timing');
  });

  it('completes a repeated request from the result cache', async () => {
    const body = { circuitFile: circuitFileOf(rcStep('trapezoidal', 1e-5)), measurementWindow: { start: 4e-3, end: 5e-3 } };
    const r = await h.client.post<Submission>('/api/v1/simulations', body);
    expect(r.status).to.equal(202);
    expect(r.body).to.include({ status: 'completed', cacheHit: true });
    const s = await h.client.get<SimulationStatusBody>(`/api/v1/simulations/${r.body.simulationId}`);
    const first = await h.client.get<SimulationStatusBody>(`/api/v1/simulations/${rcId}`);
    expect(s.body.results!.measurements).to.deep.equal(first.body.results!.measurements);
  });

  it('lists simulations with status filter and paging', async () => {
    const all = await h.client.get<{ simulations: { simulationId: string; status: string }[]; total: number }>('/api/v1/simulations?status=completed&limit=1000');
    expect(all.status).to.equal(200);
    expect(all.body.total).to.be.at.least(3);
    expect(all.body.simulations.every((s) => s.status === 'completed')).to.equal(true);
    expect(all.body.simulations.map((s) => s.simulationId)).to.include(rcId);
    const page = await h.client.get<{ simulations: { simulationId: string }[]; total: number }>('/api/v1/simulations?limit=1&offset=1&status=completed');
    expect(page.body.simulations).to.have.length(1);
    expect(page.body.simulations[0].simulationId).to.equal(all.body.simulations[1].simulationId);
    const none = await h.client.get<{ total: number }>('/api/v1/simulations?status=failed');
    expect(none.body.total).to.equal(0);
    const bad = await h.client.get<ErrorBody>('/api/v1/simulations?status=done');
    expect(bad.status).to.equal(400);
    expect(bad.body.details?.[0].field).to.equal('status');
  });

  it('answers progress and ws-info', async () => {
    const p = await h.client.get<{ preCalcProgress: number; mainSimProgress: number; currentStep: number; totalSteps: number; estimatedRemainingMs: number }>(`/api/v1/simulations/${rcId}/progress`);
    expect(p.body).to.deep.equal({ preCalcProgress: 100, mainSimProgress: 100, currentStep: 500, totalSteps: 500, estimatedRemainingMs: 0 });
    const w = await h.client.get<Record<string, unknown>>(`/api/v1/simulations/${rcId}/ws-info`);
    expect(w.body).to.deep.equal({
      simulationId: rcId, stompEndpoint: '/ws', rawWebSocketEndpoint: '/ws-raw', subscribeDestination: `/topic/simulations/${rcId}`,
      protocol: 'STOMP/1.2', supportsBidirectional: false, baseUrl: h.baseUrl,
    });
  });

  it('exports CSV, JSON and Parquet with signals, time window and maxPoints', async () => {
    const csv = await h.client.get<string>(`/api/v1/simulations/${rcId}/export`);
    expect(csv.status).to.equal(200);
    expect(csv.contentType).to.match(/^text\/csv/);
    const lines = csv.body.trim().split('\n');
    expect(lines[0]).to.equal('time,SCOPE.1.ch1');
    expect(lines).to.have.length(502); // header + t = 0 … 5 ms
    const [t, v] = lines[501].split(',').map(Number);
    expect(t).to.be.closeTo(5e-3, 1e-12);
    expect(v).to.be.closeTo(1 - Math.exp(-5), 1e-3);

    const json = await h.client.get<{ time: number[]; signals: Record<string, number[]> }>(`/api/v1/simulations/${rcId}/export?format=json&start=0.001&end=0.002&maxPoints=11`);
    expect(json.status).to.equal(200);
    expect(json.body.time).to.have.length(11);
    expect(json.body.time[0]).to.be.closeTo(1e-3, 1e-12);
    expect(json.body.time[10]).to.be.closeTo(2e-3, 1e-9);
    expect(json.body.signals['SCOPE.1.ch1'][0]).to.be.closeTo(1 - Math.exp(-1), 1e-3);

    const pq = await h.client.get(`/api/v1/simulations/${rcId}/export?format=parquet&signals=SCOPE.1.ch1&maxPoints=100`);
    expect(pq.status).to.equal(200);
    expect(pq.contentType).to.equal('application/vnd.apache.parquet');
    expect(pq.headers.get('content-disposition')).to.contain(`${rcId}.parquet`);
    const table = tableFromIPC(readParquet(pq.bytes).intoIPCStream());
    expect(table.schema.fields.map((f) => f.name)).to.deep.equal(['time', 'SCOPE.1.ch1']);
    expect(table.numRows).to.equal(Math.ceil(501 / Math.ceil(501 / 100))); // stride 6 over 501 rows
    const last = table.numRows - 1;
    expect(Number(table.getChildAt(1)!.get(last))).to.be.closeTo(1 - Math.exp(-Number(table.getChildAt(0)!.get(last)) / 1e-3), 1e-3);

    const unknown = await h.client.get<ErrorBody>(`/api/v1/simulations/${rcId}/export?signals=SCOPE.9.ch1`);
    expect(unknown.status).to.equal(400);
    const format = await h.client.get<ErrorBody>(`/api/v1/simulations/${rcId}/export?format=xlsx`);
    expect(format.status).to.equal(400);
  });

  it('answers 400 for malformed JSON, wrong types, missing fields and unknown parameter keys', async () => {
    const malformed = await h.client.request<ErrorBody>('POST', '/api/v1/simulations', { body: '{"circuitFile": ', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).to.equal(400);
    expect(malformed.body.error).to.equal('VALIDATION_ERROR');
    const missing = await h.client.post<ErrorBody>('/api/v1/simulations', { simulationTime: 1e-3 });
    expect(missing.status).to.equal(400);
    expect(missing.body.details?.map((d) => d.field)).to.include('circuitFile');
    const type = await h.client.post<ErrorBody>('/api/v1/simulations', { circuitFile: circuitFileOf(rcStep('trapezoidal', 1e-5)), timeStep: 'fast' });
    expect(type.status).to.equal(400);
    expect(type.body.details?.[0].field).to.equal('timeStep');
    const range = await h.client.post<ErrorBody>('/api/v1/simulations', { circuitFile: circuitFileOf(rcStep('trapezoidal', 1e-5)), timeStep: -1e-6 });
    expect(range.status).to.equal(400);
    const key = await h.client.post<ErrorBody>('/api/v1/simulations', { circuitFile: circuitFileOf(rcStep('trapezoidal', 1e-5)), parameters: { 'R.7.R': 3 } });
    expect(key.status).to.equal(400);
    expect(key.body.details?.[0].field).to.equal('parameters.R.7.R');
    const name = await h.client.post<ErrorBody>('/api/v1/simulations', { circuitFile: circuitFileOf(rcStep('trapezoidal', 1e-5)), parameters: { 'R.1.Z': 3 } });
    expect(name.status).to.equal(400);
    expect(name.body.details?.[0].field).to.equal('parameters.R.1.Z');
    expect(name.body.details?.[0].message).to.contain('its parameters: R');
    const window = await h.client.post<ErrorBody>('/api/v1/simulations', { circuitFile: circuitFileOf(rcStep('trapezoidal', 1e-5)), measurementWindow: { start: 4e-3, end: 1e-3 } });
    expect(window.status).to.equal(400);
    const signal = await h.client.post<ErrorBody>('/api/v1/simulations', { circuitFile: circuitFileOf(rcStep('trapezoidal', 1e-5)), signals: ['SCOPE.1.ch7'] });
    expect(signal.status).to.equal(400);
    expect(signal.body.details?.[0].field).to.equal('signals[0]');
    const priority = await h.client.post<ErrorBody>('/api/v1/simulations', { circuitFile: circuitFileOf(rcStep('trapezoidal', 1e-5)), priority: 'URGENT' });
    expect(priority.status).to.equal(400);
    const solver = await h.client.post<ErrorBody>('/api/v1/simulations', { circuitFile: circuitFileOf(rcStep('trapezoidal', 1e-5)), solverType: 'fast' });
    expect(solver.status).to.equal(400);
    expect(solver.body.details?.[0]).to.deep.equal({ field: 'solverType', message: 'must be one of backward-euler, trapezoidal, gear-shichman' });
    const time = await h.client.post<ErrorBody>('/api/v1/simulations', { circuitFile: circuitFileOf(rcStep('trapezoidal', 1e-5)), simulationTime: -1 });
    expect(time.status).to.equal(400);
    expect(time.body.details?.[0].field).to.equal('simulationTime');
    expect(time.body.message).to.contain('simulationTime');
  });

  it('answers 404 for unknown simulations and circuit ids, 422 for bad circuits and too many steps', async () => {
    for (const path of ['', '/progress', '/export', '/stream', '/ws-info']) {
      const r = await h.client.get<ErrorBody>(`/api/v1/simulations/3d2f8a61-5c4b-4e0f-8a7d-9b1c2e3f4a5b${path}`);
      expect(r.status, path).to.equal(404);
      expect(r.body.error).to.equal('SIMULATION_NOT_FOUND');
    }
    const circuit = await h.client.post<ErrorBody>('/api/v1/simulations', { circuitFile: '0b7d4c1e-8f2a-4e6b-9d3c-5a1f0e2b7c49' });
    expect(circuit.status).to.equal(404);
    expect(circuit.body.error).to.equal('CIRCUIT_NOT_FOUND');
    const notBase64 = await h.client.post<ErrorBody>('/api/v1/simulations', { circuitFile: 'not a file!' });
    expect(notBase64.status).to.equal(400);
    expect(notBase64.body.details?.[0].field).to.equal('circuitFile');
    const garbage = await h.client.post<ErrorBody>('/api/v1/simulations', { circuitFile: Buffer.from('{"elements": 3}').toString('base64') });
    expect(garbage.status).to.equal(422);
    expect(garbage.body.error).to.equal('CIRCUIT_INVALID');
    const loop = rcStep('trapezoidal', 1e-5);
    loop.elements.push({ name: 'V.9', type: 'V', nodes: ['in', '0'], params: { waveform: 'dc', value: 3 } });
    const model = await h.client.post<ErrorBody>('/api/v1/simulations', { circuitFile: circuitFileOf(loop) });
    expect(model.status).to.equal(422);
    expect(model.body.error).to.equal('CIRCUIT_INVALID');
    expect(JSON.stringify(model.body.details)).to.contain('V.9');
    const large = await h.client.post<ErrorBody>('/api/v1/simulations', { circuitFile: circuitFileOf(rcStep('trapezoidal', 1e-5)), simulationTime: 100 });
    expect(large.status).to.equal(422);
    expect(large.body.error).to.equal('SIMULATION_TOO_LARGE');
    expect(large.body.details?.[0].field).to.equal('timeStep');
  });

  it('answers 503 QUEUE_FULL with Retry-After when the queue holds its limit', async () => {
    const small = await startHarness({ queueSize: 1, maxConcurrent: 1 });
    try {
      const first = await small.client.post<Submission>('/api/v1/simulations', { circuitFile: circuitFileOf(buck({ tEnd: 0.5, dt: 1e-7 })) });
      expect(first.status).to.equal(202);
      const second = await small.client.post<ErrorBody>('/api/v1/simulations', { circuitFile: circuitFileOf(rcStep('trapezoidal', 1e-5)) });
      expect(second.status).to.equal(503);
      expect(second.body.error).to.equal('QUEUE_FULL');
      expect(Number(second.headers.get('retry-after'))).to.be.at.least(1);
      const batch = await small.client.post<ErrorBody>('/api/v1/simulations/batch', { simulations: [{ circuitFile: circuitFileOf(rcStep('trapezoidal', 1e-5)) }] });
      expect(batch.status).to.equal(503);
      expect((await small.client.delete(`/api/v1/simulations/${first.body.simulationId}`)).status).to.equal(200);
      const third = await small.client.post<Submission>('/api/v1/simulations', { circuitFile: circuitFileOf(rcStep('trapezoidal', 1e-5)) });
      expect(third.status).to.equal(202);
      await small.client.waitForState(third.body.simulationId, 'completed');
    } finally {
      await small.close();
    }
  });
});

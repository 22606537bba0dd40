// The periodic steady state through the simulation service (request field `steady`,
// docs/steady-state.md): one settled period whose measurements match the Node API's, the report in
// results.steady, the JSON export of that period, checked options, and a batch whose items each
// give one settled period.
import { expect } from 'chai';
import { steadyStateSync } from '../../../src/index.js';
import { buck } from '../../fixtures/circuits.js';
import { circuitFileOf, startHarness, type Harness, type SimulationStatusBody } from './harness.js';

type SteadyStatus = SimulationStatusBody & { results: { steady?: { converged: boolean; iterations: number; period: number; error: number; stepsPerPeriod: number } } | null };

const netlist = buck({ tEnd: 1e-3 });
const circuitFile = circuitFileOf(netlist);

describe('simulation service: periodic steady state', function () {
  this.timeout(120_000);
  let h: Harness;
  before(async () => {
    h = await startHarness({ maxBatchSize: 10 });
  });
  after(async () => h.close());

  it('answers one settled period with its report and the measurements over it', async () => {
    const r = await h.client.post<{ simulationId: string }>('/api/v1/simulations', { circuitFile, steady: { tolerance: 1e-10 } });
    expect(r.status).to.equal(202);
    const status = (await h.client.waitForState(r.body.simulationId)) as SteadyStatus;
    expect(status.status, status.errorMessage ?? '').to.equal('completed');
    const steady = status.results!.steady!;
    expect(steady.converged).to.equal(true);
    expect(steady.error).to.be.at.most(1e-10);
    expect(steady.period).to.be.closeTo(50e-6, 1e-15);
    const direct = steadyStateSync(netlist, { tolerance: 1e-10 });
    expect(status.results!.measurements['SCOPE.1.ch1_avg']).to.be.closeTo(direct.measurements['SCOPE.1.ch1_avg']!, 1e-9);
    const exported = await h.client.get<{ time: number[] }>(`/api/v1/simulations/${r.body.simulationId}/export?format=json`);
    expect(exported.status).to.equal(200);
    const time = (exported.body as unknown as { time: number[] }).time;
    expect(time.length).to.equal(501);
    expect(time.at(-1)).to.be.closeTo(50e-6, 1e-12);
  });

  it('refuses bad options naming the field, and a measurement window with steady', async () => {
    const bad = await h.client.post<{ error: string; details?: { field: string }[] }>('/api/v1/simulations', { circuitFile, steady: { tolerance: -1 } });
    expect(bad.status).to.equal(400);
    expect(bad.body.details?.[0]?.field).to.equal('steady.tolerance');
    for (const [steady, field] of [[{ jacobian: 'medium' }, 'steady.jacobian'], [{ initPeriods: 1.5 }, 'steady.initPeriods'], [{ perturbation: 0.5 }, 'steady.perturbation']] as const) {
      const r = await h.client.post<{ error: string; details?: { field: string }[] }>('/api/v1/simulations', { circuitFile, steady });
      expect(r.status, field).to.equal(400);
      expect(r.body.details?.[0]?.field).to.equal(field);
    }
    const window = await h.client.post<{ error: string; details?: { field: string }[] }>('/api/v1/simulations', { circuitFile, steady: true, measurementWindow: { start: 0, end: 1e-4 } });
    expect(window.status).to.equal(400);
    expect(window.body.details?.[0]?.field).to.equal('measurementWindow');
  });

  it('fails a circuit without a periodic source with the engine\'s reason', async () => {
    const constant = buck({ tEnd: 1e-3 });
    constant.blocks = constant.blocks!.map((b) => (b.name === 'SIGNAL.1' ? { name: 'SIGNAL.1', type: 'CONST', outputs: ['g'], params: { value: 1 } } : b));
    const r = await h.client.post<{ simulationId: string }>('/api/v1/simulations', { circuitFile: circuitFileOf(constant), steady: true });
    const status = await h.client.waitForState(r.body.simulationId);
    expect(status.status).to.equal('failed');
    expect(status.errorMessage).to.match(/no periodic source/);
  });

  it('gives one settled period per item of a batch that asks for the steady state', async () => {
    const duties = [0.3, 0.5, 0.7];
    const r = await h.client.post<{ batchId: string; simulationIds: string[] }>('/api/v1/simulations/batch', { base: { circuitFile, steady: true }, sweep: { 'SIGNAL.1.duty': duties } });
    expect(r.status).to.equal(202);
    for (const [i, id] of r.body.simulationIds.entries()) {
      const status = (await h.client.waitForState(id)) as SteadyStatus;
      expect(status.status, status.errorMessage ?? '').to.equal('completed');
      expect(status.results!.steady!.converged).to.equal(true);
      expect(status.results!.steady!.stepsPerPeriod).to.equal(500);
      // Continuous conduction: vout ≈ D·(48 V + vf) − vf (diode 0.6 V, 10 mΩ switches).
      const expected = duties[i]! * 48.6 - 0.6;
      expect(status.results!.measurements['SCOPE.1.ch1_avg']).to.be.closeTo(expected, 0.25);
    }
  });
});

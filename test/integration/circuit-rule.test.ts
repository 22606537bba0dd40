// One rule for a submitted circuit on both services: read and validated by the engine at submission,
// so the same bad circuit gets the same status on the simulation service and on the job queue.
import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { circuitFileOf, startHarness, type Harness } from './simulation/harness.js';
import { startTestService, type TestService } from './jobq/harness.js';
import { rcStep } from '../fixtures/circuits.js';

const sourceLoop = {
  settings: { tEnd: 1e-3, dt: 1e-6 },
  elements: [
    { name: 'V.1', type: 'V', nodes: ['a', '0'], params: { waveform: 'dc', value: 1 } },
    { name: 'V.2', type: 'V', nodes: ['a', '0'], params: { waveform: 'dc', value: 2 } },
  ],
};
const currentCutset = {
  settings: { tEnd: 1e-3, dt: 1e-6 },
  elements: [
    { name: 'V.1', type: 'V', nodes: ['a', '0'], params: { waveform: 'dc', value: 1 } },
    { name: 'R.1', type: 'R', nodes: ['a', '0'], params: { R: 1 } },
    { name: 'I.1', type: 'I', nodes: ['a', 'x'], params: { waveform: 'dc', value: 1 } },
  ],
};

/** tDURATION 1000 s at dt 1 ns: 10¹² steps, hours of computation. */
const hours = { ...rcStep('trapezoidal', 1e-9), settings: { tEnd: 1000, dt: 1e-9 } };

describe('the same circuit rule on both services', function () {
  this.timeout(60_000);
  let sim: Harness;
  let jobq: TestService;
  before(async () => {
    sim = await startHarness({ cacheEnabled: false });
    jobq = await startTestService();
    writeFileSync(join(jobq.modelsDir, 'loop.json'), JSON.stringify(sourceLoop));
    writeFileSync(join(jobq.modelsDir, 'cutset.json'), JSON.stringify(currentCutset));
    writeFileSync(join(jobq.modelsDir, 'rc-case.json'), JSON.stringify(rcStep('trapezoidal', 1e-5)));
    writeFileSync(join(jobq.modelsDir, 'garbled.json'), '{"settings": ');
    writeFileSync(join(jobq.modelsDir, 'hours.json'), JSON.stringify(hours));
  });
  after(async () => {
    await sim?.close();
    await jobq?.dispose();
  });

  const cases: { name: string; netlist: object | string; model: string; parameters?: Record<string, number>; status: number }[] = [
    { name: 'a voltage-source loop', netlist: sourceLoop, model: 'loop.json', status: 422 },
    { name: 'a node fed only by a current source', netlist: currentCutset, model: 'cutset.json', status: 422 },
    { name: 'a file that does not read', netlist: '{"settings": ', model: 'garbled.json', status: 422 },
    { name: 'a misspelt parameter', netlist: rcStep('trapezoidal', 1e-5), model: 'rc-case.json', parameters: { 'R.1.Rx': 5 }, status: 400 },
    { name: 'an unknown component', netlist: rcStep('trapezoidal', 1e-5), model: 'rc-case.json', parameters: { 'R.9.R': 5 }, status: 400 },
    { name: 'a parameter override out of range', netlist: rcStep('trapezoidal', 1e-5), model: 'rc-case.json', parameters: { 'R.1.R': -1 }, status: 400 },
    { name: 'more steps than the step limit', netlist: hours, model: 'hours.json', status: 422 },
  ];
  for (const c of cases) {
    it(`${c.name}: ${c.status} on both, before anything is queued`, async () => {
      const circuitFile = typeof c.netlist === 'string' ? Buffer.from(c.netlist).toString('base64') : circuitFileOf(c.netlist);
      const a = await sim.client.request<{ error: string }>('POST', '/api/v1/simulations', { body: { circuitFile, parameters: c.parameters }, unchecked: true });
      const b = await jobq.request('POST', '/simulations', { model_file: c.model, parameters: c.parameters });
      expect(a.status, JSON.stringify(a.body)).to.equal(c.status);
      expect(b.status, JSON.stringify(b.body)).to.equal(c.status);
      if (c.status === 422 && c.model !== 'hours.json') expect(a.body.error).to.equal('CIRCUIT_INVALID');
      expect(jobq.runtime.store.tasks.list({}).total, 'nothing queued on the job queue').to.equal(0);
      expect((await sim.client.get<{ total: number }>('/api/v1/simulations')).body.total, 'nothing queued on the simulation service').to.equal(0);
    });
  }

  it('the step limit: the same sentence on both, naming the limit and its setting', async () => {
    const a = await sim.client.request<{ error: string; message: string }>('POST', '/api/v1/simulations', { body: { circuitFile: circuitFileOf(hours) }, unchecked: true });
    const b = await jobq.request('POST', '/simulations', { model_file: 'hours.json' });
    expect(a.body.error).to.equal('SIMULATION_TOO_LARGE');
    expect(a.body.message).to.equal('1.000e+12 steps (simulationTime / timeStep) exceed the limit of 50000000 (sim.api.max-steps); use a longer time step or a shorter simulation');
    const detail = (b.body as { detail: { loc: unknown[]; msg: string; type: string }[] }).detail[0];
    expect(detail.loc).to.deep.equal(['body', 'model_file']);
    expect(detail.type).to.equal('simulation_too_large');
    expect(detail.msg).to.equal('Model file hours.json: 1.000e+12 steps (simulated time / time step of the model) exceed the limit of 50000000 (orchestration.max_steps); use a longer time step or a shorter simulation');
  });

  it('an override out of range is reported under its parameter key, not the model or circuit', async () => {
    const a = await sim.client.request<{ details: { field: string }[] }>('POST', '/api/v1/simulations', { body: { circuitFile: circuitFileOf(rcStep('trapezoidal', 1e-5)), parameters: { 'R.1.R': -1 } }, unchecked: true });
    const b = await jobq.request('POST', '/simulations', { model_file: 'rc-case.json', parameters: { 'R.1.R': -1 } });
    expect(a.body.details[0].field).to.equal('parameters.R.1.R');
    expect((b.body as { field: string }).field).to.equal('parameters.R.1.R');
  });
});

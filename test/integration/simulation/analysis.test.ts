// Analysis endpoints on the real server: characteristics, fourier and rms of raw samples and of a
// stored simulation signal (a 50 Hz, 10 V sine with 2 V offset recorded by a scope), and the
// 400/404/409 rows. Responses are checked against the served OpenAPI description by the harness.
import { expect } from 'chai';
import type { Netlist } from '../../../src/formats/netlist.js';
import { scope, volt } from '../../fixtures/circuits.js';
import { circuitFileOf, startHarness, type Harness } from './harness.js';

interface ErrorBody {
  error: string;
  message: string;
  details?: { field: string; message: string }[];
}

/** 2 V + 10 V sine at 50 Hz across 1 kΩ, recorded at 10 µs for 100 ms (5 periods). */
function sineCircuit(tEnd = 0.1): Netlist {
  return {
    name: 'sine',
    settings: { tEnd, dt: 1e-5, solver: 'trapezoidal' },
    elements: [
      { name: 'V.1', type: 'V', nodes: ['a', '0'], params: { waveform: 'sine', amplitude: 10, frequency: 50, offset: 2 } },
      { name: 'R.1', type: 'R', nodes: ['a', '0'], params: { R: 1000 } },
    ],
    blocks: [volt('VOLT.1', 'v', 'a'), scope('SCOPE.1', ['v'])],
  };
}

const TAU = 2 * Math.PI;

describe('simulation service: analysis', () => {
  let h: Harness;
  let sineId: string;
  before(async () => {
    h = await startHarness({ maxSteps: 1e7 });
    const r = await h.client.post<{ simulationId: string }>('/api/v1/simulations', { circuitFile: circuitFileOf(sineCircuit()) });
    expect(r.status).to.equal(202);
    sineId = r.body.simulationId;
    await h.client.waitForState(sineId, 'completed');
  });
  after(async () => h.close());

  it('characteristics of raw samples', async () => {
    const data = Array.from({ length: 400 }, (_, j) => 3 * Math.sin((TAU * j) / 40));
    const r = await h.client.post<Record<string, number>>('/api/v1/analysis/characteristics', { data, sampleRate: 4000 });
    expect(r.status).to.equal(200);
    expect(r.body.rms).to.be.closeTo(3 / Math.SQRT2, 1e-12);
    expect(r.body.peakToPeak).to.be.closeTo(6, 1e-9);
    expect(r.body.thd).to.be.closeTo(0, 1e-12);
    expect(r.body.sampleCount).to.equal(400);
    expect(Object.keys(r.body).sort()).to.deep.equal(['average', 'klirr', 'max', 'min', 'peakToPeak', 'ripple', 'rms', 'sampleCount', 'shapeFactor', 'thd']);
  });

  it('characteristics of a constant signal: no distortion (thd and klirr 0)', async () => {
    for (const value of [5, -3.3, 1e-9]) {
      const r = await h.client.post<Record<string, number>>('/api/v1/analysis/characteristics', { data: new Array(1000).fill(value), sampleRate: 1000 });
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ thd: 0, klirr: 0, peakToPeak: 0, ripple: 0 });
    }
  });

  it('characteristics of a stored simulation signal window', async () => {
    const r = await h.client.post<Record<string, number>>('/api/v1/analysis/characteristics', {
      simulationId: sineId, signalName: 'SCOPE.1.ch1', startTime: 0.02, endTime: 0.08,
    });
    expect(r.status).to.equal(200);
    expect(r.body.average).to.be.closeTo(2, 1e-3);
    expect(r.body.rms).to.be.closeTo(Math.sqrt(4 + 50), 1e-3);
    expect(r.body.max).to.be.closeTo(12, 1e-3);
    expect(r.body.ripple).to.be.closeTo(20 / 2, 1e-2);
    expect(r.body.thd).to.be.lessThan(1e-3);
  });

  it('fourier of raw samples with ?harmonics and of a stored signal', async () => {
    const data = Array.from({ length: 800 }, (_, j) => 1 + 2 * Math.cos((TAU * j) / 80 + Math.PI / 3) + 0.5 * Math.cos((3 * TAU * j) / 80));
    const r = await h.client.post<Record<string, number | number[]>>('/api/v1/analysis/fourier?harmonics=4', { data, sampleRate: 8000, baseFrequency: 100 });
    expect(r.status).to.equal(200);
    expect(r.body.harmonics).to.equal(4);
    expect(r.body.baseFrequency).to.equal(100);
    expect(r.body.dcComponent as number).to.be.closeTo(1, 1e-12);
    expect(r.body.fundamentalAmplitude as number).to.be.closeTo(2, 1e-12);
    expect(r.body.fundamentalPhaseDegrees as number).to.be.closeTo(60, 1e-9);
    expect((r.body.cnAmplitudes as number[])[2]).to.be.closeTo(0.5, 1e-12);
    expect(r.body.jnPhases as number[]).to.have.length(4);
    const d = await h.client.post<Record<string, number | number[]>>('/api/v1/analysis/fourier', { data, sampleRate: 8000 });
    expect(d.body.harmonics).to.equal(20);
    expect(d.body.baseFrequency).to.be.closeTo(100, 1e-12);
    const s = await h.client.post<Record<string, number>>('/api/v1/analysis/fourier?harmonics=3', { simulationId: sineId, signalName: 'SCOPE.1.ch1', startTime: 0.02 });
    expect(s.status).to.equal(200);
    expect(s.body.fundamentalAmplitude).to.be.closeTo(10, 1e-2);
    expect(s.body.dcComponent).to.be.closeTo(2, 1e-2);
  });

  it('rms returns a bare JSON number', async () => {
    const r = await h.client.post<number>('/api/v1/analysis/rms', { data: [3, -4, 3, -4] });
    expect(r.status).to.equal(200);
    expect(r.contentType).to.match(/application\/json/);
    expect(r.body).to.equal(Math.sqrt(12.5));
    const zero = await h.client.post<number>('/api/v1/analysis/rms', { data: [0, 0] });
    expect(zero.status).to.equal(200);
    expect(zero.body).to.equal(0);
    const stored = await h.client.post<number>('/api/v1/analysis/rms', { simulationId: sineId, signalName: 'SCOPE.1.ch1', startTime: 0.02, endTime: 0.08 });
    expect(stored.body).to.be.closeTo(Math.sqrt(54), 1e-3);
  });

  it('huge finite samples give finite measures; a measure beyond the double range is a 422', async () => {
    const r = await h.client.post<number>('/api/v1/analysis/rms', { data: [1e200, 1e200] });
    expect(r.status).to.equal(200);
    expect(r.body).to.equal(1e200);
    const c = await h.client.post<{ rms: number; shapeFactor: number }>('/api/v1/analysis/characteristics', { data: [1e300, -1e300, 1e300, -1e300], sampleRate: 4 });
    expect(c.status).to.equal(200);
    expect(c.body.rms).to.equal(1e300);
    expect(c.body.shapeFactor).to.be.closeTo(1, 1e-15);
    const beyond = await h.client.post<ErrorBody>('/api/v1/analysis/characteristics', { data: [1e308, -1e308], sampleRate: 2 });
    expect(beyond.status).to.equal(422);
    expect(beyond.body.error).to.equal('RESULT_NOT_FINITE');
    expect(beyond.body.details?.map((d) => d.field)).to.include('peakToPeak');
  });

  it('400 with the field named: bad samples, rate, harmonics, base frequency, unknown signal, mixed sources', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['/api/v1/analysis/characteristics', { data: [], sampleRate: 10 }, 'data'],
      ['/api/v1/analysis/characteristics', { data: [1, 2], sampleRate: 0 }, 'sampleRate'],
      ['/api/v1/analysis/characteristics', { data: [1, 2] }, 'sampleRate'],
      ['/api/v1/analysis/characteristics', { data: [1, 2], sampleRate: 10, simulationId: sineId }, 'data'],
      ['/api/v1/analysis/fourier?harmonics=1001', { data: [1, 2, 3, 4], sampleRate: 10 }, 'harmonics'],
      ['/api/v1/analysis/fourier', { data: [1, 2, 3, 4], sampleRate: 10, baseFrequency: 6 }, 'baseFrequency'],
      ['/api/v1/analysis/characteristics', { simulationId: sineId, signalName: 'SCOPE.9.ch1' }, 'signalName'],
      ['/api/v1/analysis/rms', { simulationId: sineId, signalName: 'SCOPE.1.ch1', startTime: 0.5 }, 'startTime'],
      ['/api/v1/analysis/rms', { data: ['x'] }, 'data'],
    ];
    for (const [path, body, field] of cases) {
      const r = await h.client.post<ErrorBody>(path, body);
      expect(r.status, `${path} ${JSON.stringify(body)}`).to.equal(400);
      expect(r.body.error).to.equal('VALIDATION_ERROR');
      expect(r.body.details?.map((d) => d.field).join(','), JSON.stringify(r.body)).to.include(field);
    }
    const unknown = await h.client.post<ErrorBody>('/api/v1/analysis/characteristics', { simulationId: sineId, signalName: 'SCOPE.9.ch1' });
    expect(unknown.body.message).to.include('SCOPE.9.ch1');
  });

  it('404 for an unknown simulation, 409 for an unfinished one', async () => {
    const missing = await h.client.post<ErrorBody>('/api/v1/analysis/characteristics', { simulationId: 'no-such-id', signalName: 'SCOPE.1.ch1' });
    expect(missing.status).to.equal(404);
    expect(missing.body.error).to.equal('SIMULATION_NOT_FOUND');
    // A long run (1e6 steps), paused so that it is certainly unfinished when analysed.
    const long = await h.client.post<{ simulationId: string }>('/api/v1/simulations', { circuitFile: circuitFileOf(sineCircuit(10)) });
    const id = long.body.simulationId;
    const r = await h.client.post<ErrorBody>('/api/v1/analysis/rms', { simulationId: id, signalName: 'SCOPE.1.ch1' });
    expect(r.status).to.equal(409);
    expect(r.body.error).to.equal('INVALID_STATE');
    await h.client.delete(`/api/v1/simulations/${id}`);
  });
});

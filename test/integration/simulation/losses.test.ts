// Loss endpoints on the real server: switching and conduction with hand-computed values and
// defaults, detailed losses from direct waveforms and from a stored buck simulation's switch
// waveforms, and the 400/404/409 rows. Responses are checked against the served OpenAPI description.
import { expect } from 'chai';
import { amp, buck, scope, volt } from '../../fixtures/circuits.js';
import type { Netlist } from '../../../src/formats/netlist.js';
import { circuitFileOf, startHarness, type Harness } from './harness.js';

interface ErrorBody {
  error: string;
  details?: { field: string; message: string }[];
}

const reference = { referenceVoltage: 400, referenceCurrent: 10, e_on_ref: 1e-4, e_off_ref: 2e-4 };

/**
 * 400 V, 40 Ω load, IGBT (vf 0, Ron 0.01 Ω, kOn 2e-4, kOff 3e-4 Ws/A at 400 V) switched at
 * 10 kHz, duty 0.5; its loss heats a junction through 0.5 K/W from 25 °C (no capacitance: the
 * junction follows the loss of each step).
 */
function thermalChopper(): Netlist {
  return {
    name: 'thermal chopper',
    settings: { tEnd: 10e-3, dt: 1e-6 },
    elements: [
      { name: 'V.1', type: 'V', nodes: ['in', '0'], params: { waveform: 'dc', value: 400 } },
      { name: 'R.1', type: 'R', nodes: ['in', 'c'], params: { R: 40 } },
      { name: 'IGBT.1', type: 'IGBT', nodes: ['c', '0'], params: { vf: 0, ron: 0.01, kOn: 2e-4, kOff: 3e-4, uSWnorm: 400 } },
    ],
    blocks: [
      { name: 'SIGNAL.1', type: 'SIGNAL', outputs: ['g'], params: { waveform: 'rectangle', amplitude: 1, frequency: 10e3, duty: 0.5 } },
      { name: 'GATE.1', type: 'GATE', inputs: ['g'], params: { target: 'IGBT.1' } },
      { name: 'TEMP.1', type: 'TEMP', outputs: ['tj'], params: { nodes: ['j', '0'] } },
      scope('SCOPE.1', ['tj']),
    ],
    thermal: [
      { name: 'Pv.1', type: 'PV', nodes: ['j', '0'], params: { device: 'IGBT.1' } },
      { name: 'Rth.1', type: 'RTH', nodes: ['j', 'amb'], params: { R: 0.5 } },
      { name: 'Tamb', type: 'TSRC', nodes: ['amb', '0'], params: { T: 25 } },
    ],
  };
}

describe('simulation service: losses', () => {
  let h: Harness;
  let buckId: string;
  before(async () => {
    h = await startHarness({ maxSteps: 1e7 });
    // Buck at 20 kHz, 2 ms; SCOPE.2 records the switch voltage (in − sw) and its current.
    const netlist = buck({ tEnd: 2e-3, dt: 1e-7 });
    netlist.blocks = [...(netlist.blocks ?? []), volt('VOLT.2', 'vs', 'in', 'sw'), amp('AMP.2', 'is', 'S.1'), scope('SCOPE.2', ['vs', 'is'])];
    const r = await h.client.post<{ simulationId: string }>('/api/v1/simulations', { circuitFile: circuitFileOf(netlist) });
    expect(r.status).to.equal(202);
    buckId = r.body.simulationId;
    await h.client.waitForState(buckId, 'completed');
  });
  after(async () => h.close());

  it('switching: hand-computed values, defaults and optional exponents', async () => {
    const r = await h.client.post<Record<string, number>>('/api/v1/loss/switching', {
      voltage: 400, current: 50, frequency: 20_000, temperature: 125, referenceVoltage: 600, referenceCurrent: 100,
      referenceFrequency: 20_000, referenceTemperature: 25, e_on_ref: 0.004, e_off_ref: 0.003,
    });
    expect(r.status).to.equal(200);
    // (400/600)·(50/100) = 1/3; tc = 0 by default.
    expect(r.body.turnOnLoss).to.be.closeTo(26.666666666666668, 1e-9);
    expect(r.body.turnOffLoss).to.be.closeTo(20, 1e-9);
    expect(r.body.switchingLoss).to.be.closeTo(46.666666666666664, 1e-9);
    expect(r.body.energyPerCycle).to.be.closeTo(0.0023333333333333335, 1e-15);
    const hot = await h.client.post<Record<string, number>>('/api/v1/loss/switching', {
      voltage: 600, current: 25, frequency: 10_000, temperature: 125, referenceVoltage: 600, referenceCurrent: 100,
      referenceTemperature: 25, e_on_ref: 0.004, e_off_ref: 0.004, currentExponent: 0.5, temperatureCoefficient: 0.003,
    });
    // 0.008 J · 10 kHz · 1 · 0.25^0.5 · 1.3 = 52 W.
    expect(hot.body.switchingLoss).to.be.closeTo(52, 1e-9);
  });

  it('conduction: D·(V0·I + Ron(T)·I²) and the on-state voltage', async () => {
    const r = await h.client.post<Record<string, number>>('/api/v1/loss/conduction', {
      voltage: 1.2, current: 30, onResistance: 0.01, dutyCycle: 0.5, temperature: 100, temperatureCoefficient: 0.004,
    });
    expect(r.status).to.equal(200);
    expect(r.body.conductionLoss).to.be.closeTo(23.85, 1e-9);
    expect(r.body.onStateVoltage).to.be.closeTo(1.59, 1e-9);
    const minimal = await h.client.post<Record<string, number>>('/api/v1/loss/conduction', { voltage: 0.7, current: 10, temperature: 25 });
    expect(minimal.body).to.deep.equal({ conductionLoss: 7, onStateVoltage: 0.7 });
  });

  it('detailed from direct waveforms', async () => {
    const time = Array.from({ length: 21 }, (_, j) => j * 1e-6);
    const on = (j: number): boolean => j % 10 < 5;
    const r = await h.client.post<Record<string, number | string>>('/api/v1/loss/detailed', {
      device: 'S.1', time, voltage: time.map((_, j) => (on(j) ? 1 : 400)), current: time.map((_, j) => (on(j) ? 10 : 0)), ...reference,
    });
    expect(r.status).to.equal(200);
    expect(r.body.device).to.equal('S.1');
    expect(r.body.switchingEvents).to.equal(4);
    expect(r.body.conductionLoss as number).to.be.closeTo(4, 1e-9);
    expect(r.body.switchingLoss as number).to.be.closeTo(30, 1e-6);
    expect(r.body.totalLoss as number).to.be.closeTo(34, 1e-6);
  });

  it('detailed from a stored simulation: the switch of a buck at 20 kHz', async () => {
    const r = await h.client.post<Record<string, number | string>>('/api/v1/loss/detailed', {
      simulationId: buckId, device: 'S.1', voltageSignal: 'SCOPE.2.ch1', currentSignal: 'SCOPE.2.ch2', startTime: 1e-3, endTime: 2e-3, ...reference,
    });
    expect(r.status).to.equal(200);
    // 20 periods in 1 ms: one turn-on and one turn-off each (± one at the window edges).
    expect(r.body.switchingEvents as number).to.be.within(39, 41);
    expect(r.body.switchingLoss as number).to.be.greaterThan(0);
    expect(r.body.conductionLoss as number).to.be.greaterThan(0);
    expect(r.body.totalLoss as number).to.be.closeTo((r.body.conductionLoss as number) + (r.body.switchingLoss as number), 1e-9);
    // Duty 0.5: the switch carries the inductor current half of the time.
    expect(r.body.averageCurrent as number).to.be.greaterThan(0);
    expect(r.body.rmsCurrent as number).to.be.greaterThan(r.body.averageCurrent as number);
  });

  it('detailed from the engine: the loss model and junction temperature the run used', async () => {
    const run = await h.client.post<{ simulationId: string }>('/api/v1/simulations', { circuitFile: circuitFileOf(thermalChopper()) });
    expect(run.status).to.equal(202);
    await h.client.waitForState(run.body.simulationId, 'completed');
    const r = await h.client.post<Record<string, number | string>>('/api/v1/loss/detailed', { simulationId: run.body.simulationId, device: 'IGBT.1' });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    expect(r.body.device).to.equal('IGBT.1');
    // Window 8–10 ms: 20 periods, E = (kOn + kOff)·i·v/uSWnorm per period, i = 400/40.01 A, v ≈ 400 V.
    const iOn = 400 / 40.01;
    const vOff = (400 * 1e7) / (1e7 + 40);
    expect(r.body.switchingEvents as number).to.be.within(39, 41);
    expect(r.body.switchingLoss as number).to.be.closeTo(10e3 * 5e-4 * iOn * (vOff / 400), 1.5);
    expect(r.body.conductionLoss as number).to.be.closeTo(0.5 * iOn * iOn * 0.01, 0.02);
    expect(r.body.averageCurrent as number).to.be.closeTo(0.5 * iOn, 0.15);
    // Tj = 25 °C + 0.5 K/W · P(t) at every step, so its mean is 25 + 0.5 · the mean loss.
    expect(r.body.junctionTemperature as number).to.be.closeTo(25 + 0.5 * (r.body.totalLoss as number), 1e-6);
    expect(r.body.maxJunctionTemperature as number).to.be.greaterThan(r.body.junctionTemperature as number);
  });

  it('400 naming the field, 404 unknown simulation, 409 unfinished simulation', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['/api/v1/loss/switching', { voltage: 1, current: 1, frequency: 1, referenceVoltage: 0, referenceCurrent: 1, e_on_ref: 1, e_off_ref: 1 }, 'referenceVoltage'],
      ['/api/v1/loss/switching', { voltage: 1, current: 1, frequency: 1, referenceCurrent: 1, e_on_ref: 1, e_off_ref: 1 }, 'referenceVoltage'],
      ['/api/v1/loss/conduction', { voltage: 1, current: 1, dutyCycle: 2 }, 'dutyCycle'],
      ['/api/v1/loss/detailed', { ...reference }, 'simulationId'],
      ['/api/v1/loss/detailed', { ...reference, time: [0, 1], voltage: [0], current: [0, 1] }, 'voltage'],
      ['/api/v1/loss/detailed', { ...reference, simulationId: buckId, currentSignal: 'SCOPE.2.ch2' }, 'voltageSignal'],
      ['/api/v1/loss/detailed', { ...reference, simulationId: buckId, voltageSignal: 'SCOPE.7.ch1', currentSignal: 'SCOPE.2.ch2' }, 'voltageSignal'],
      ['/api/v1/loss/detailed', { simulationId: buckId, device: 'S.1' }, 'device'],
      ['/api/v1/loss/detailed', { simulationId: buckId, voltageSignal: 'SCOPE.2.ch1', currentSignal: 'SCOPE.2.ch2' }, 'referenceVoltage'],
    ];
    for (const [path, body, field] of cases) {
      const r = await h.client.post<ErrorBody>(path, body);
      expect(r.status, `${path} ${JSON.stringify(body)}`).to.equal(400);
      expect(r.body.error).to.equal('VALIDATION_ERROR');
      expect(r.body.details?.map((d) => d.field).join(','), JSON.stringify(r.body)).to.include(field);
    }
    const missing = await h.client.post<ErrorBody>('/api/v1/loss/detailed', { ...reference, simulationId: 'nope', voltageSignal: 'a', currentSignal: 'b' });
    expect(missing.status).to.equal(404);
    expect(missing.body.error).to.equal('SIMULATION_NOT_FOUND');
    const long = await h.client.post<{ simulationId: string }>('/api/v1/simulations', { circuitFile: circuitFileOf(buck({ tEnd: 1, dt: 1e-7 })) });
    const busy = await h.client.post<ErrorBody>('/api/v1/loss/detailed', { ...reference, simulationId: long.body.simulationId, voltageSignal: 'a', currentSignal: 'b' });
    expect(busy.status).to.equal(409);
    expect(busy.body.error).to.equal('INVALID_STATE');
    await h.client.delete(`/api/v1/simulations/${long.body.simulationId}`);
  });
});

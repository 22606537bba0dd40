// Switched circuits with known answers: ideal converter averages, energy balance, rectifier,
// magnetic coupling, transformer ratio and a closed control loop.
import { expect } from 'chai';
import { simulateSync, type Netlist } from '../../src/index.js';
import { amp, boost, buck, dc, scope, volt } from '../fixtures/circuits.js';

const relative = (actual: number, expected: number): number => Math.abs(actual - expected) / Math.abs(expected);

describe('switched converters', () => {
  it('an ideal buck averages D·Vin within 1 %', () => {
    for (const duty of [0.25, 0.5, 0.75]) {
      const r = simulateSync(buck({ duty, ron: 1e-4, vf: 0, tEnd: 30e-3, dt: 200e-9 }));
      expect(relative(r.measurements['SCOPE.1.ch1_avg'], duty * 48), `duty ${duty}`).to.be.below(0.01);
    }
  });

  it('an ideal boost averages Vin/(1−D) within 1 %', () => {
    for (const duty of [0.3, 0.6]) {
      const r = simulateSync(boost({ duty }));
      expect(relative(r.measurements['SCOPE.1.ch1_avg'], 12 / (1 - duty)), `duty ${duty}`).to.be.below(0.01);
    }
  });

  it('balances input power against load and device losses of a lossy buck within 1 %', () => {
    const n = buck({ ron: 0.2, vf: 0.8, rL: 0.1, tEnd: 40e-3, dt: 100e-9, solver: 'trapezoidal' });
    const power = (name: string, v: string, i: string, out: string) => [
      { name: `${name}.V`, type: 'VOLT' as const, outputs: [v], params: { element: name } },
      amp(`${name}.I`, i, name),
      { name: `${name}.P`, type: 'MUL' as const, inputs: [v, i], outputs: [out] },
    ];
    n.blocks = [
      ...n.blocks!.filter((b) => b.type !== 'SCOPE'),
      ...power('V.1', 'v_src', 'i_src', 'p_src'),
      ...power('S.1', 'v_s', 'i_s', 'p_s'),
      ...power('D.1', 'v_d', 'i_d', 'p_d'),
      ...power('R.L', 'v_rl', 'i_rl', 'p_rl'),
      ...power('R.1', 'v_r', 'i_r', 'p_r'),
      scope('SCOPE.P', ['p_src', 'p_s', 'p_d', 'p_rl', 'p_r']),
    ];
    // Measure over whole switching periods in steady state: 30 ms … 40 ms = 200 periods.
    n.settings.measureFrom = 30e-3;
    const r = simulateSync(n);
    const avg = (ch: number): number => r.measurements[`SCOPE.P.ch${ch}_avg`];
    const delivered = -avg(1); // the source's current flows from + through it: negative when it delivers
    const consumed = avg(2) + avg(3) + avg(4) + avg(5);
    expect(avg(2)).to.be.above(0.1);
    expect(avg(3)).to.be.above(0.1);
    expect(relative(consumed, delivered)).to.be.below(0.01);
  });

  it('rectifies a sine with a diode (half wave) to the analytic average', () => {
    const vp = 10, vf = 0.7, ron = 0.01, rLoad = 100;
    const n: Netlist = {
      settings: { tEnd: 40e-3, dt: 1e-6, measureFrom: 20e-3, measureTo: 40e-3 },
      elements: [
        { name: 'V.1', type: 'V', nodes: ['in', '0'], params: { waveform: 'sine', amplitude: vp, frequency: 50 } },
        { name: 'D.1', type: 'D', nodes: ['in', 'out'], params: { vf, ron } },
        { name: 'R.1', type: 'R', nodes: ['out', '0'], params: { R: rLoad } },
      ],
      blocks: [volt('VOLT.1', 'vout', 'out'), scope('SCOPE.1', ['vout'])],
    };
    const r = simulateSync(n);
    // Average of max(0, vp·sin − vf)·R/(R + ron) over one period, by fine numerical integration.
    let sum = 0;
    const samples = 200000;
    for (let k = 0; k < samples; k++) sum += Math.max(0, vp * Math.sin((2 * Math.PI * k) / samples) - vf);
    const expected = (sum / samples) * (rLoad / (rLoad + ron));
    expect(relative(r.measurements['SCOPE.1.ch1_avg'], expected)).to.be.below(0.005);
    expect(r.measurements['SCOPE.1.ch1_max']).to.be.closeTo((vp - vf) * (rLoad / (rLoad + ron)), 0.01);
    expect(r.measurements['SCOPE.1.ch1_min']).to.be.closeTo(0, 1e-3);
  });

  it('couples two inductors: open-circuit secondary voltage is k·√(L2/L1) of the primary', () => {
    const k = 0.95;
    const n: Netlist = {
      settings: { tEnd: 20e-3, dt: 1e-6, solver: 'trapezoidal', measureFrom: 10e-3 },
      elements: [
        { name: 'V.1', type: 'V', nodes: ['in', '0'], params: { waveform: 'sine', amplitude: 10, frequency: 1000 } },
        { name: 'L.1', type: 'L', nodes: ['in', '0'], params: { L: 1e-3 } },
        { name: 'L.2', type: 'L', nodes: ['s', '0'], params: { L: 4e-3 } },
        { name: 'R.2', type: 'R', nodes: ['s', '0'], params: { R: 1e6 } },
        { name: 'K.1', type: 'K', nodes: [], params: { k, inductors: ['L.1', 'L.2'] } },
      ],
      blocks: [volt('VOLT.1', 'vs', 's'), scope('SCOPE.1', ['vs'])],
    };
    const r = simulateSync(n);
    expect(relative(r.measurements['SCOPE.1.ch1_max'], 10 * k * 2)).to.be.below(0.01);
  });

  it('an ideal transformer scales voltage by n2/n1 and current by n1/n2 (isolated secondary)', () => {
    const n: Netlist = {
      settings: { tEnd: 10e-3, dt: 1e-6, measureFrom: 0 },
      elements: [
        dc('V.1', 'p', '0', 10),
        { name: 'T.1', type: 'TRANS', nodes: ['p', '0', 's1', 's2'], params: { n1: 1, n2: 3 } },
        { name: 'R.2', type: 'R', nodes: ['s1', 's2'], params: { R: 9 } },
      ],
      blocks: [volt('VOLT.1', 'vs', 's1', 's2'), amp('AMP.1', 'ip', 'T.1'), amp('AMP.2', 'is', 'R.2'), scope('SCOPE.1', ['vs', 'ip', 'is'])],
    };
    const r = simulateSync(n);
    expect(r.measurements['SCOPE.1.ch1_avg']).to.be.closeTo(30, 1e-9);
    expect(r.measurements['SCOPE.1.ch3_avg']).to.be.closeTo(30 / 9, 1e-9);
    expect(r.measurements['SCOPE.1.ch2_avg']).to.be.closeTo(10, 1e-9); // primary current = 3 × secondary
    expect(r.warnings.join(' ')).to.match(/s1|s2/); // the isolated secondary was tied, and said so
  });

  it('a PI-controlled buck reaches its 12 V set-point', () => {
    const n = buck({ tEnd: 60e-3, dt: 200e-9, ron: 0.05, vf: 0.5 });
    n.blocks = [
      { name: 'REF', type: 'CONST', outputs: ['ref'], params: { value: 12 } },
      volt('VOLT.1', 'vout', 'out'),
      { name: 'ERR', type: 'SUB', inputs: ['ref', 'vout'], outputs: ['err'] },
      { name: 'PI.1', type: 'PI', inputs: ['err'], outputs: ['u'], params: { kp: 0.01, ki: 20 } },
      { name: 'LIM', type: 'LIMIT', inputs: ['u'], outputs: ['duty'], params: { min: 0, max: 0.95 } },
      { name: 'CARRIER', type: 'SIGNAL', outputs: ['saw'], params: { waveform: 'sawtooth', amplitude: 1, frequency: 20e3 } },
      { name: 'PWM', type: 'GT', inputs: ['duty', 'saw'], outputs: ['g'] },
      { name: 'GATE.1', type: 'GATE', inputs: ['g'], params: { target: 'S.1' } },
      scope('SCOPE.1', ['vout', 'duty']),
    ];
    n.settings.measureFrom = 50e-3;
    const r = simulateSync(n);
    expect(relative(r.measurements['SCOPE.1.ch1_avg'], 12)).to.be.below(0.01);
    expect(r.measurements['SCOPE.1.ch2_avg']).to.be.within(0.25, 0.35); // losses need a little more than 12/48
  });
});

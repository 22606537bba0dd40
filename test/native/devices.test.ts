// Device and block behaviour against closed forms: thyristor phase control, an IGBT inverter,
// a MOSFET with its body diode, source waveforms and dynamic control blocks.
import { expect } from 'chai';
import { simulateSync, type Netlist } from '../../src/index.js';
import type { ControlBlock } from '../../src/formats/netlist.js';
import { amp, scope, threePhaseInverter, volt } from '../fixtures/circuits.js';


describe('devices', () => {
  it('a thyristor fired at α delivers Vp/(2π)·(1 + cos α) into a resistor', () => {
    const vp = 100, f = 50, alphaDeg = 60;
    const n: Netlist = {
      settings: { tEnd: 0.1, dt: 1e-6, measureFrom: 0.02, measureTo: 0.1 },
      elements: [
        { name: 'V.1', type: 'V', nodes: ['in', '0'], params: { waveform: 'sine', amplitude: vp, frequency: f } },
        { name: 'THYR.1', type: 'THYR', nodes: ['in', 'out'], params: { vf: 0, ron: 1e-4 } },
        { name: 'R.1', type: 'R', nodes: ['out', '0'], params: { R: 10 } },
      ],
      blocks: [
        // A short gate pulse at α in every period.
        { name: 'FIRE', type: 'SIGNAL', outputs: ['g'], params: { waveform: 'rectangle', amplitude: 1, frequency: f, duty: 0.05, phase: -alphaDeg } },
        { name: 'GATE.1', type: 'GATE', inputs: ['g'], params: { target: 'THYR.1' } },
        volt('VOLT.1', 'vout', 'out'),
        scope('SCOPE.1', ['vout']),
      ],
    };
    const r = simulateSync(n);
    const expected = (vp / (2 * Math.PI)) * (1 + Math.cos((alphaDeg * Math.PI) / 180));
    expect(r.measurements['SCOPE.1.ch1_avg']).to.be.closeTo(expected, 0.01 * expected);
    expect(r.measurements['SCOPE.1.ch1_min']).to.be.closeTo(0, 0.01); // blocks the negative half wave
  });

  it('a thyristor with fireOnce stays off after its first turn-off (GeckoCIRCUITS with Roff ≠ 1e7 Ω)', () => {
    const conductingPeriods = (fireOnce: number): number => {
      const r = simulateSync({
        settings: { tEnd: 0.1, dt: 1e-5 },
        elements: [
          { name: 'V.1', type: 'V', nodes: ['in', '0'], params: { waveform: 'sine', amplitude: 100, frequency: 50 } },
          { name: 'THYR.1', type: 'THYR', nodes: ['in', 'out'], params: { vf: 0, ron: 1e-4, fireOnce } },
          { name: 'R.1', type: 'R', nodes: ['out', '0'], params: { R: 10 } },
        ],
        blocks: [
          { name: 'FIRE', type: 'SIGNAL', outputs: ['g'], params: { waveform: 'rectangle', amplitude: 1, frequency: 50, duty: 0.05, phase: -30 } },
          { name: 'GATE.1', type: 'GATE', inputs: ['g'], params: { target: 'THYR.1' } },
          volt('VOLT.1', 'vout', 'out'),
          scope('SCOPE.1', ['vout']),
        ],
      });
      const v = r.signals['SCOPE.1.ch1'];
      let periods = 0;
      for (let i = 1; i < v.length; i++) if (v[i] > 1 && v[i - 1] <= 1) periods++;
      return periods;
    };
    expect(conductingPeriods(0)).to.equal(5);
    expect(conductingPeriods(1)).to.equal(1);
  });

  it('an IGBT inverter with sine-triangle PWM drives m·Vdc/2/|Z| into an RL load', () => {
    const r = simulateSync(threePhaseInverter({ tEnd: 0.1 }));
    const z = Math.hypot(10, 2 * Math.PI * 50 * 5e-3);
    const amplitude = (0.8 * 300) / z;
    // After the transient (5 ms time constant), the RMS of each phase current is amplitude/√2.
    for (const ch of [1, 2, 3]) {
      expect(r.measurements[`SCOPE.1.ch${ch}_rms`]).to.be.closeTo(amplitude / Math.SQRT2, 0.03 * amplitude);
      expect(Math.abs(r.measurements[`SCOPE.1.ch${ch}_avg`])).to.be.below(0.05 * amplitude);
    }
  });

  it('a MOSFET conducts both ways while gated and its body diode carries reverse current when off', () => {
    const n: Netlist = {
      settings: { tEnd: 2e-3, dt: 1e-6, measureFrom: 0 },
      elements: [
        { name: 'V.1', type: 'V', nodes: ['0', 'a'], params: { waveform: 'dc', value: 5 } },
        { name: 'R.1', type: 'R', nodes: ['a', 'd'], params: { R: 10 } },
        { name: 'M.1', type: 'MOSFET', nodes: ['d', '0'], params: { ron: 0.1, antiparallel: 1, diodeVf: 0.7, diodeRon: 0.01 } },
      ],
      blocks: [
        { name: 'G', type: 'SIGNAL', outputs: ['g'], params: { waveform: 'rectangle', amplitude: 1, frequency: 1000, duty: 0.5 } },
        { name: 'GATE.1', type: 'GATE', inputs: ['g'], params: { target: 'M.1' } },
        amp('AMP.1', 'ich', 'M.1'),
        amp('AMP.2', 'idiode', 'M.1.diode'),
        scope('SCOPE.1', ['ich', 'idiode']),
      ],
    };
    const r = simulateSync(n);
    // Source drives current from ground through the switch towards a (reverse for the channel).
    expect(r.measurements['SCOPE.1.ch1_min']).to.be.closeTo(-5 / 10.1, 1e-3); // channel on: −5 V / (10 + 0.1) Ω
    expect(r.measurements['SCOPE.1.ch2_max']).to.be.closeTo((5 - 0.7) / 10.01, 2e-3); // channel off: body diode
  });
});

describe('source waveforms and control blocks', () => {
  const probe = (elements: Netlist['elements'], blocks: ControlBlock[], tEnd = 1e-3, dt = 1e-6): ReturnType<typeof simulateSync> =>
    simulateSync({ settings: { tEnd, dt, maxPoints: 1_000_000, measureFrom: 0 }, elements, blocks });
  const load = (node: string): Netlist['elements'][number] => ({ name: `R.${node}`, type: 'R', nodes: [node, '0'], params: { R: 1 } });
  const at = (r: ReturnType<typeof simulateSync>, key: string, t: number): number => r.signals[key][Math.round(t / 1e-6)];

  it('PULSE, PWM and PWL sources follow their definitions', () => {
    const r = probe(
      [
        { name: 'V.P', type: 'V', nodes: ['p', '0'], params: { waveform: 'pulse', v1: 0, v2: 2, delay: 1e-4, rise: 1e-4, fall: 1e-4, width: 2e-4, period: 5e-4 } },
        { name: 'V.W', type: 'V', nodes: ['w', '0'], params: { waveform: 'pwm', low: -1, high: 3, frequency: 2000, duty: 0.25 } },
        { name: 'V.L', type: 'V', nodes: ['l', '0'], params: { waveform: 'pwl', times: [0, 5e-4, 1e-3], values: [0, 10, 10] } },
        load('p'), load('w'), load('l'),
      ],
      [volt('VP', 'vp', 'p'), volt('VW', 'vw', 'w'), volt('VL', 'vl', 'l'), scope('S', ['vp', 'vw', 'vl'])],
    );
    expect(at(r, 'S.ch1', 1.5e-4)).to.be.closeTo(1, 1e-9); // half-way up the rise
    expect(at(r, 'S.ch1', 3e-4)).to.be.closeTo(2, 1e-9);
    expect(at(r, 'S.ch1', 4.5e-4)).to.be.closeTo(1, 1e-9); // half-way down the fall
    expect(at(r, 'S.ch1', 5.5e-4)).to.be.closeTo(0, 1e-9);
    expect(at(r, 'S.ch1', 6.5e-4)).to.be.closeTo(1, 1e-9); // next period, rising again
    expect(at(r, 'S.ch2', 1e-4)).to.equal(3);
    expect(at(r, 'S.ch2', 2e-4)).to.equal(-1);
    expect(r.measurements['S.ch2_avg']).to.be.closeTo(0, 0.02); // 0.25·3 + 0.75·(−1)
    expect(at(r, 'S.ch3', 2.5e-4)).to.be.closeTo(5, 1e-9);
  });

  it('a signal-driven source follows its control signal one step later', () => {
    const r = probe(
      [{ name: 'V.S', type: 'V', nodes: ['s', '0'], params: { waveform: 'signal', signal: 'ramp', gain: 2, offset: 1 } }, load('s')],
      [{ name: 'T', type: 'TIME', outputs: ['ramp'] }, volt('VS', 'vs', 's'), scope('S', ['vs'])],
    );
    expect(at(r, 'S.ch1', 5e-4)).to.be.closeTo(1 + 2 * (5e-4 - 1e-6), 1e-12);
  });

  it('PT1, INT, PI and DELAY blocks follow their discrete definitions', () => {
    const r = probe([{ name: 'V.0', type: 'V', nodes: ['x', '0'], params: { waveform: 'dc', value: 1 } }, load('x')], [
      { name: 'ONE', type: 'CONST', outputs: ['one'], params: { value: 1 } },
      { name: 'LAG', type: 'PT1', inputs: ['one'], outputs: ['lag'], params: { T: 2e-4, gain: 3 } },
      { name: 'INT', type: 'INT', inputs: ['one'], outputs: ['int'], params: { gain: 1000, max: 0.5 } },
      { name: 'PI', type: 'PI', inputs: ['one'], outputs: ['pi'], params: { kp: 2, ki: 100 } },
      { name: 'DLY', type: 'DELAY', inputs: ['int'], outputs: ['dly'], params: { delay: 1e-4 } },
      scope('S', ['lag', 'int', 'pi', 'dly']),
    ]);
    expect(at(r, 'S.ch1', 6e-4)).to.be.closeTo(3 * (1 - Math.exp(-3)), 1e-3); // 3 time constants
    expect(at(r, 'S.ch2', 3e-4)).to.be.closeTo(0.3, 1e-9);
    expect(at(r, 'S.ch2', 9e-4)).to.equal(0.5); // clamped at max
    expect(at(r, 'S.ch3', 5e-4)).to.be.closeTo(2 + 100 * 5e-4, 1e-9);
    expect(at(r, 'S.ch4', 4e-4)).to.be.closeTo(at(r, 'S.ch2', 3e-4), 1e-12);
  });

  it('hysteresis, comparators and logic blocks switch at their thresholds', () => {
    const r = probe([{ name: 'V.0', type: 'V', nodes: ['x', '0'], params: { waveform: 'dc', value: 1 } }, load('x')], [
      { name: 'SIN', type: 'SIGNAL', outputs: ['s'], params: { waveform: 'sine', amplitude: 1, frequency: 1000 } },
      { name: 'HYS', type: 'HYS', inputs: ['s'], outputs: ['h'], params: { h: 0.5 } },
      { name: 'HALF', type: 'CONST', outputs: ['half'], params: { value: 0.5 } },
      { name: 'GT', type: 'GT', inputs: ['s', 'half'], outputs: ['gt'] },
      { name: 'NOT', type: 'NOT', inputs: ['gt'], outputs: ['ngt'] },
      { name: 'AND', type: 'AND', inputs: ['h', 'ngt'], outputs: ['and'] },
      scope('S', ['h', 'gt', 'and']),
    ]);
    // sin crosses 0.5 at t = 1/12 ms and −0.5 at 7/12 ms.
    expect(at(r, 'S.ch1', 0.05e-3)).to.equal(0);
    expect(at(r, 'S.ch1', 0.1e-3)).to.equal(1);
    expect(at(r, 'S.ch1', 0.55e-3)).to.equal(1); // still high inside the band
    expect(at(r, 'S.ch1', 0.65e-3)).to.equal(0);
    expect(at(r, 'S.ch2', 0.3e-3)).to.equal(1);
    expect(at(r, 'S.ch3', 0.3e-3)).to.equal(0);
    expect(at(r, 'S.ch3', 0.45e-3)).to.equal(1); // h still high, s below 0.5
  });
});

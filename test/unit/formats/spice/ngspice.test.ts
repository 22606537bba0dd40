// Integration with ngspice: decks written by the SPICE writer run in `ngspice -b`, and their output
// matches closed-form answers (RC step, resistive half-wave rectifiers with the piecewise-linear
// diode and a thyristor, a gated switch charging a capacitor) and pesim's own run of a buck
// converter. Skipped only when /usr/bin/ngspice is absent (and the pesim comparison when the addon
// is not built).
import { existsSync } from 'node:fs';
import { expect } from 'chai';
import type { Netlist } from '../../../../src/formats/netlist.js';
import { NGSPICE, readSpice, runNgspice, type NgspiceResult } from '../../../../src/formats/spice/index.js';
import { loadBinding } from '../../../../src/engine/binding.js';
import { simulateSync } from '../../../../src/engine/index.js';
import { buck } from '../../../fixtures/circuits.js';

/** Largest |signal − exact(t)| over the ngspice time points where `where(t)` holds. */
function maxError(result: NgspiceResult, signal: string, exact: (t: number) => number, where: (t: number) => boolean = () => true): number {
  const values = result.signals[signal];
  expect(values, `signal ${signal}`).to.be.instanceOf(Float64Array);
  let worst = 0;
  result.time.forEach((t, i) => {
    if (where(t)) worst = Math.max(worst, Math.abs(values[i] - exact(t)));
  });
  return worst;
}

/** Linear interpolation of an ngspice signal at time t. */
function valueAt(result: NgspiceResult, signal: string, t: number): number {
  const time = result.time;
  let lo = 0;
  let hi = time.length - 1;
  expect(t, `time ${t}`).to.be.within(time[0], time[hi]);
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (time[mid] <= t) lo = mid;
    else hi = mid;
  }
  const i = hi;
  const [t0, t1] = [result.time[i - 1], result.time[i]];
  const [v0, v1] = [result.signals[signal][i - 1], result.signals[signal][i]];
  return v0 + ((v1 - v0) * (t - t0)) / (t1 - t0);
}

describe('spice writer with ngspice', function () {
  this.timeout(120_000);
  before(function () {
    if (!existsSync(NGSPICE)) {
      console.log(`      (skipped: ngspice not found at ${NGSPICE}; install it with apt-get install ngspice)`);
      this.skip();
    }
  });

  it('runs an RC step read from a deck and matches 1 − exp(−t/RC)', async () => {
    const { netlist } = readSpice('rc step\nV1 in 0 DC 1\nR1 in out 1k\nC1 out 0 1u IC=0\n.options method=trap\n.tran 10u 5m uic\n.end\n');
    const result = await runNgspice(netlist);
    const tau = 1e-3;
    expect(result.time[result.time.length - 1]).to.be.closeTo(5e-3, 1e-12);
    expect(maxError(result, 'V(out)', (t) => 1 - Math.exp(-t / tau))).to.be.below(1e-4);
    // The source delivers the current: counted from + through the source to −, it is negative.
    expect(maxError(result, 'I(V1)', (t) => -Math.exp(-t / tau) / 1000)).to.be.below(1e-7);
    expect(valueAt(result, 'V(out)', tau)).to.be.closeTo(1 - Math.exp(-1), 1e-4);
  });

  it('runs a half-wave diode rectifier and matches the piecewise-linear diode', async () => {
    const vf = 0.7;
    const ron = 0.01;
    const roff = 1e7;
    const R = 10;
    const netlist: Netlist = {
      name: 'rectifier',
      settings: { tEnd: 40e-3, dt: 10e-6, solver: 'trapezoidal' },
      elements: [
        { name: 'V1', type: 'V', nodes: ['in', '0'], params: { waveform: 'sine', amplitude: 10, frequency: 50 } },
        { name: 'D1', type: 'D', nodes: ['in', 'out'], params: { vf, ron, roff } },
        { name: 'R1', type: 'R', nodes: ['out', '0'], params: { R } },
      ],
      blocks: [
        { name: 'AMP.D', type: 'AMP', outputs: ['id'], params: { element: 'D1' } },
        { name: 'SCOPE.1', type: 'SCOPE', inputs: ['id'] },
      ],
    };
    const result = await runNgspice(netlist);
    const vin = (t: number) => 10 * Math.sin(2 * Math.PI * 50 * t);
    const vout = (t: number) => ((vin(t) - vf) * R) / (R + (vin(t) > vf ? ron : roff));
    // ngspice, like pesim, decides the diode state at its time points: the point where the input
    // crosses vf may still see the old state, so points within 50 mV of the crossing are left out.
    const clear = (t: number) => Math.abs(vin(t) - vf) > 0.05;
    expect(maxError(result, 'V(out)', vout, clear)).to.be.below(1e-4);
    expect(maxError(result, 'I(D1)', (t) => vout(t) / R, clear)).to.be.below(1e-5);
    expect(result.signalList.find((s) => s.name === 'I(D1)')!.channels).to.deep.equal(['SCOPE.1.ch1']);
    expect(Math.max(...result.signals['V(out)'])).to.be.closeTo(((10 - vf) * R) / (R + ron), 1e-3);
    // Blocking: only (v − vf)/roff flows.
    expect(valueAt(result, 'V(out)', 15e-3)).to.be.closeTo((-10.7 * R) / (R + roff), 1e-8);
  });

  it('charges a capacitor through a switch gated by a rectangle signal, on exactly its duty', async () => {
    const netlist: Netlist = {
      name: 'gated rc',
      settings: { tEnd: 3e-3, dt: 5e-6, solver: 'trapezoidal' },
      elements: [
        { name: 'V1', type: 'V', nodes: ['in', '0'], params: { waveform: 'dc', value: 10 } },
        { name: 'S1', type: 'S', nodes: ['in', 'a'], params: { ron: 0.01, roff: 1e9 } },
        { name: 'R1', type: 'R', nodes: ['a', 'out'], params: { R: 1000 } },
        { name: 'C1', type: 'C', nodes: ['out', '0'], params: { C: 1e-6 } },
      ],
      blocks: [
        { name: 'SIG', type: 'SIGNAL', outputs: ['g'], params: { waveform: 'rectangle', amplitude: 1, frequency: 1000, duty: 0.3 } },
        { name: 'GATE', type: 'GATE', inputs: ['g'], params: { target: 'S1' } },
      ],
    };
    const result = await runNgspice(netlist);
    const tau = 1000.01e-6;
    // Charged only while on: after k whole on-phases of 0.3 ms, v = 10·(1 − e^(−k·0.3 ms/τ)).
    const charged = (onTime: number) => 10 * (1 - Math.exp(-onTime / tau));
    expect(valueAt(result, 'V(out)', 0.3e-3)).to.be.closeTo(charged(0.3e-3), 2e-3);
    expect(valueAt(result, 'V(out)', 0.9e-3)).to.be.closeTo(charged(0.3e-3), 2e-3);
    expect(valueAt(result, 'V(out)', 1.15e-3)).to.be.closeTo(charged(0.45e-3), 2e-3);
    expect(valueAt(result, 'V(out)', 2.9e-3)).to.be.closeTo(charged(0.9e-3), 2e-3);
  });

  it('fires a thyristor at its gate pulse and holds it until the current reverses', async () => {
    const netlist: Netlist = {
      name: 'thyristor',
      settings: { tEnd: 40e-3, dt: 10e-6, solver: 'trapezoidal' },
      elements: [
        { name: 'V1', type: 'V', nodes: ['in', '0'], params: { waveform: 'sine', amplitude: 100, frequency: 50 } },
        { name: 'T1', type: 'THYR', nodes: ['in', 'out'], params: { vf: 1, ron: 0.01 } },
        { name: 'R1', type: 'R', nodes: ['out', '0'], params: { R: 10 } },
      ],
      blocks: [
        // 1 ms gate pulses starting 4 ms into each period (firing angle 72°).
        { name: 'SIG', type: 'SIGNAL', outputs: ['g'], params: { waveform: 'rectangle', amplitude: 1, frequency: 50, duty: 0.05, phase: -72 } },
        { name: 'GATE', type: 'GATE', inputs: ['g'], params: { target: 'T1' } },
      ],
    };
    const result = await runNgspice(netlist);
    const vin = (t: number) => 100 * Math.sin(2 * Math.PI * 50 * t);
    const conducting = (t: number) => {
      const phase = (t % 20e-3) / 20e-3;
      return phase >= 0.2 && vin(t) > 1;
    };
    const vout = (t: number) => (conducting(t) ? ((vin(t) - 1) * 10) / 10.01 : 0);
    // Away from the firing and extinction instants (where one time point may straddle the edge).
    const sample = [2e-3, 3.9e-3, 4.5e-3, 6e-3, 9e-3, 9.8e-3, 11e-3, 15e-3, 23e-3, 25e-3, 29e-3, 35e-3];
    for (const t of sample) expect(valueAt(result, 'V(out)', t), `t = ${t}`).to.be.closeTo(vout(t), 0.05);
  });

  describe('compared with pesim', () => {
    before(function () {
      try {
        loadBinding();
      } catch (error) {
        console.log(`      (skipped: the pesim addon does not load: ${(error as Error).message.split('\n')[0]})`);
        this.skip();
      }
    });

    it('simulates a read deck like ngspice runs it (RLC switched by a voltage-controlled switch)', async () => {
      const { netlist } = readSpice([
        'switched rlc', 'V1 in 0 DC 10', 'Vc ctl 0 PULSE(0 1 1m 1u 1u 2m 4m)', 'S1 in a ctl 0 sw', 'R1 a b 2', 'L1 b out 1mH',
        'C1 out 0 10u', 'R2 out 0 100', '.model sw SW(VT=0.5 RON=0.01 ROFF=1e7)', '.options method=trap', '.tran 1u 6m uic', '.end',
      ].join('\n'));
      netlist.settings.maxPoints = 1_000_000;
      const ours = simulateSync(netlist);
      const theirs = await runNgspice(netlist);
      const labels = ours.channels.map((c) => c.label);
      expect(labels).to.deep.equal(['V(in)', 'V(ctl)', 'V(a)', 'V(b)', 'V(out)', 'I(V1)', 'I(Vc)', 'I(L1)']);
      for (const [label, scale] of [['V(out)', 15], ['I(L1)', 2]] as const) {
        const values = ours.signals[ours.channels[labels.indexOf(label)].key];
        let worst = 0;
        ours.time.forEach((t, i) => {
          worst = Math.max(worst, Math.abs(values[i] - valueAt(theirs, label, Math.max(t, theirs.time[0]))));
        });
        expect(worst, label).to.be.below(0.01 * scale);
      }
    });

    it('gives the same buck converter waveforms', async () => {
      const netlist = buck({ tEnd: 4e-3, dt: 1e-7, solver: 'trapezoidal' });
      netlist.settings.maxPoints = 1_000_000;
      const ours = simulateSync(netlist);
      const theirs = await runNgspice(netlist);
      for (const [channel, signal, scale] of [['SCOPE.1.ch1', 'V(out)', 40], ['SCOPE.1.ch2', 'I(L.1)', 27]] as const) {
        const values = ours.signals[channel];
        let sumSquares = 0;
        ours.time.forEach((t, i) => {
          const d = values[i] - valueAt(theirs, signal, Math.max(t, theirs.time[0]));
          sumSquares += d * d;
        });
        // Switching instants fall on pesim's step grid but not on ngspice's: 0.5 % rms of full scale.
        expect(Math.sqrt(sumSquares / values.length), channel).to.be.below(0.005 * scale);
      }
    });
  });
});

// Corpus files that simulate thanks to the INT reset input and the triangle of any duty, checked
// against what their circuits must do. The thyristor examples fire from an integrator that ramps
// at gain·1 from the sync voltage's rising zero crossing (reset while the sync voltage is
// negative) and a comparator that fires when the ramp exceeds m + h: the firing delay is
// (m + h)/gain after the zero crossing.
import { expect } from 'chai';
import { simulateSync, type SimulationResult } from '../../../../src/engine/index.js';
import type { Netlist } from '../../../../src/formats/netlist.js';
import { readIpes } from '../../../../src/formats/ipes/index.js';
import { corpusFixture } from './helpers.js';

interface Run {
  netlist: Netlist;
  result: SimulationResult;
  values(label: string): Float64Array;
}

function simulateCorpus(name: string, edit?: (n: Netlist) => void): Run {
  const { netlist } = readIpes(corpusFixture(name), name);
  edit?.(netlist);
  const result = simulateSync(netlist);
  return {
    netlist,
    result,
    values: (label) => {
      const channel = result.channels.find((c) => c.label === label);
      expect(channel, `${name}: scope channel ${label}`).to.not.equal(undefined);
      return result.signals[channel!.key];
    },
  };
}

/** Mean of a channel over [from, to). */
function mean(run: Run, label: string, from: number, to: number): number {
  const v = run.values(label);
  let sum = 0;
  let n = 0;
  run.result.time.forEach((t, i) => {
    if (t >= from && t < to) {
      sum += v[i];
      n++;
    }
  });
  return sum / n;
}

/** Delay from the first rising zero crossing of `sync` after `from` to the next rise of `gate` above 0.5. */
function firingDelay(run: Run, sync: string, gate: string, from: number): number {
  const t = run.result.time;
  const u = run.values(sync);
  const g = run.values(gate);
  let i = t.findIndex((x, k) => x > from && k > 0 && u[k - 1] <= 0 && u[k] > 0);
  const zero = t[i];
  while (i < t.length && !(g[i] > 0.5 && g[i - 1] <= 0.5)) i++;
  return t[i] - zero;
}

const ALPHA_DELAY = (0.15 + 0.001 + 0.001) / 100; // (d + dx + h)/gain = 1.52 ms: α = 27.36° at 50 Hz

describe('GeckoCIRCUITS corpus: thyristor firing and PWM carriers', function () {
  this.timeout(120_000);

  it('089 two-pulse bridge: fires 1.52 ms after the zero crossing; Vavg = (2·Vm/π)·cos α − 2·(vf + ron·I)', () => {
    const run = simulateCorpus('089_thyristor_RL_2phBridge.ipes');
    // The integrator resets while u1 < 0 and ramps at 100/s after the zero crossing at 40 ms.
    const sg = run.values('sg');
    const index = (x: number): number => run.result.time.findIndex((t) => t >= x);
    expect(sg[index(0.045)]).to.be.closeTo(0.5, 1e-3);
    expect(sg[index(0.055)]).to.equal(0);
    expect(firingDelay(run, 'u1', 'gt1', 0.035)).to.be.closeTo(ALPHA_DELAY, 5e-6);
    // Continuous load current (ωL/R = 3.1): over the last full period (40–60 ms),
    // Vavg = (2·327/π)·cos(27.36°) − 2·(0.6 + 0.01·I), with I = Vavg/R (R = 2 Ω). Tolerance 1 %.
    const alpha = 2 * Math.PI * 50 * ALPHA_DELAY;
    const ideal = ((2 * 327) / Math.PI) * Math.cos(alpha) - 2 * 0.6;
    const expected = ideal / (1 + (2 * 0.01) / 2);
    expect(mean(run, 'u2', 0.04, 0.06)).to.be.closeTo(expected, 0.01 * expected);
  });

  it('093 single-phase midpoint with transformer: fires (m + h)/gain after the sync voltage\'s zero crossing', () => {
    const run = simulateCorpus('093_thyristor_RL_singlePh_trafo.ipes');
    expect(firingDelay(run, 'u1p', 'gt1', 0.035)).to.be.closeTo(ALPHA_DELAY, 5e-6);
    // The second thyristor fires half a period later (DELAY 10 ms).
    expect(firingDelay(run, 'u1p', 'gt2', 0.035) - 0.01).to.be.closeTo(ALPHA_DELAY, 5e-6);
  });

  it('095 thyristor with freewheeling diode: fires (0.2 + 0.001 + h)/100 = 2.02 ms after the zero crossing; the diode clamps the load voltage', () => {
    const run = simulateCorpus('095_thyristor_freeWheelingDiode.ipes');
    expect(firingDelay(run, 'u1', 'gt', 0.015)).to.be.closeTo((0.2 + 0.001 + 0.001) / 100, 5e-6);
    // Without the diode the inductive load would keep the thyristor on into the negative half wave
    // (down to −327 V); with it the load voltage stays above minus the diode's drop (vf + ron·i, < 5 V).
    const load = run.values('uLOAD');
    const lowest = load.reduce((a, b) => Math.min(a, b), Infinity);
    expect(lowest).to.be.within(-5, 0);
  });

  it('013 PWM: the carrier is GeckoCIRCUITS\' triangle of duty 1 (a sawtooth), so the gate duty equals the modulator output', () => {
    // The carrier: 0.5 + 0.5·tri(frac(45 kHz·t)), tri rising from 0 at t = 0 to 1 at T/2, jumping
    // to −1 and rising back to 0 at T: 0.75 at T/4, 0.25 at 3T/4 (its definition: exact timing).
    const T = 1 / 45000;
    const short = simulateCorpus('013_ex_3_pwm.ipes', (n) => {
      n.settings.tEnd = 4 * T;
      n.settings.dt = T / 200;
      n.settings.timing = 'exact';
      const scope = n.blocks!.find((b) => b.name === 'SCOPE.1')!;
      scope.inputs = [...scope.inputs!, 'tri'];
      scope.params = { channelNames: [...(scope.params!.channelNames as string[]), 'carrier'] };
    });
    const carrier = short.values('carrier');
    const at = (x: number): number => carrier[short.result.time.findIndex((t) => t >= x - 1e-12)];
    expect(at(T / 4)).to.be.closeTo(0.75, 1e-9);
    expect(at(T + (3 * T) / 4)).to.be.closeTo(0.25, 1e-9);
    // The whole run: the gate is high while dreg > carrier, so its mean over the last 40 ms is the
    // mean of dreg (carrier uniform in [0, 1)), within 1 % (exact timing: GeckoCIRCUITS' stepped
    // carrier of 49 steps per 22.2 µs period shifts the mean by about 1 %).
    const run = simulateCorpus('013_ex_3_pwm.ipes', (n) => { n.settings.timing = 'exact'; });
    expect(mean(run, 'gs', 0.16, 0.2)).to.be.closeTo(mean(run, 'dreg', 0.16, 0.2), 0.01);
  });
});

// GeckoSCRIPT's steady-state criteria (steady-criteria.ts) on synthetic waveforms: where the
// state-vector criterion checks and what it returns, the reference renewal, the cross-correlation
// of two periods and the criterion built on it.
import { expect } from 'chai';
import { comparePeriods, periodsAgree, relativeDifferences, toSteadyState, untilSteadyState } from '../../../src/script/steady-criteria.js';

const dt = 1e-6;

describe('script: GeckoSCRIPT steady-state criteria', () => {
  it('state vector: a constant state is steady at the first check, within 2.1·dt of the period', () => {
    // 100 settling steps, then the first step whose distance from the reference is within 2.1·dt
    // of the 5 µs period: 3 steps later (|3 − 5|·dt ≤ 2.1·dt).
    const outcome = untilSteadyState(() => [2, -3, 5], dt, 1e-3, [5e-6]);
    expect(outcome.reached).to.equal(true);
    expect(outcome.time).to.be.closeTo(103e-6, 1e-12);
    expect(outcome.period).to.be.closeTo(3e-6, 1e-12);
  });

  it('state vector: a periodic state after a decaying transient is steady near a multiple of its period', () => {
    const period = 20e-6;
    const state = (t: number) => [1.5 + Math.sin((2 * Math.PI * t) / period) * 0.5 + Math.exp(-t / 50e-6), 3];
    const outcome = untilSteadyState(state, dt, 2e-3, [20e-6]);
    expect(outcome.reached).to.equal(true);
    expect(outcome.time).to.be.greaterThan(300e-6);
    expect(outcome.period).to.be.closeTo(period, 2.1 * dt);
    // Just before, the transient was still above 0.1 %.
    const before = untilSteadyState(state, dt, outcome.time - 5 * period, [20e-6]);
    expect(before.reached).to.equal(false);
  });

  it('state vector: a growing state is never steady; the run ends at the simulation time with period 0', () => {
    const outcome = untilSteadyState((t) => [1 + t * 1e3], dt, 500e-6, [20e-6]);
    expect(outcome).to.deep.include({ reached: false, period: 0 });
    expect(outcome.time).to.be.closeTo(500e-6, 1e-9);
  });

  it('state vector: a wrong candidate period still finds the state once the reference moves (after 5 checks)', () => {
    // A ramp until 400 µs, then constant: the first reference lies on the ramp and is never met
    // again, but references move every 5 checks, and one taken on the constant tail is met.
    const state = (t: number) => [t < 400e-6 ? 1 + t * 1e4 : 6];
    const outcome = untilSteadyState(state, dt, 2e-3, [7e-6]);
    expect(outcome.reached).to.equal(true);
    expect(outcome.time).to.be.greaterThan(400e-6);
  });

  it('relative differences divide by each value, signed, as GeckoCIRCUITS does', () => {
    const [d1, d2] = relativeDifferences([2, -2], [2.002, -2.2]);
    expect(d1).to.be.closeTo(0.001, 1e-9);
    expect(d2).to.be.lessThan(0); // a negative state never fails the 0.1 % test
  });

  it('cross-correlation: two equal periods agree; a changed amplitude or mean does not', () => {
    const n = 200;
    const wave = (amplitude: number, mean: number) => Array.from({ length: n }, (_, i) => mean + amplitude * Math.sin((2 * Math.PI * i) / (n / 2)));
    const same = comparePeriods([wave(1, 3)]);
    expect(same.correlations[0]).to.be.closeTo(1, 1e-9);
    expect(same.meanDifferences[0]).to.be.lessThan(0.005);
    expect(periodsAgree(same, 0.998, 0.005)).to.equal(true);
    const grown = wave(1, 3).map((v, i) => (i >= n / 2 ? v * 1.05 : v));
    expect(periodsAgree(comparePeriods([grown]), 0.998, 0.005)).to.equal(false);
    const drifting = wave(1, 3).map((v, i) => v + i * 0.01);
    expect(periodsAgree(comparePeriods([drifting]), 0.998, 0.005)).to.equal(false);
  });

  it('cross-correlation: steady once two consecutive periods agree; time counts whole periods', () => {
    const period = 1e-3;
    const signal = (t: number) => 1 + Math.exp(-t / 2e-3) + 0.5 * Math.sin((2 * Math.PI * t) / period);
    const window = (start: number, end: number) => {
      const out: number[] = [];
      for (let t = start; t <= end + 1e-12; t += 1e-5) out.push(signal(t));
      return [out];
    };
    const outcome = toSteadyState(window, period, 0.1, 0.998, 0.005);
    expect(outcome.reached).to.equal(true);
    expect(outcome.period).to.equal(period);
    expect(Math.round(outcome.time / period)).to.be.closeTo(outcome.time / period, 1e-9);
    expect(outcome.time).to.be.greaterThan(5e-3);
    const short = toSteadyState(window, period, outcome.time - period, 0.998, 0.005);
    expect(short.reached).to.equal(false);
  });
});

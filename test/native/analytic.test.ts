// Integration methods against closed forms: RC step, series RLC ringing, observed order.
import { expect } from 'chai';
import { simulateSync } from '../../src/index.js';
import type { SolverMethod } from '../../src/formats/netlist.js';
import { rcStep, seriesRlc } from '../fixtures/circuits.js';

const METHODS: SolverMethod[] = ['backward-euler', 'trapezoidal', 'gear-shichman'];

/**
 * Largest deviation from the closed form. A missing, empty or short channel, or one out of step with
 * the time axis, throws: an error of 0 over no samples would pass every bound.
 */
function maxError(time: Float64Array, values: Float64Array | undefined, exact: (t: number) => number): number {
  if (!values || values.length < 2 || values.length !== time.length) {
    throw new Error(`the channel has ${values?.length ?? 'no'} samples for ${time.length} time points`);
  }
  let worst = 0;
  for (let i = 0; i < time.length; i++) worst = Math.max(worst, Math.abs(values[i] - exact(time[i])));
  return worst;
}

const rcExact = (t: number): number => 1 - Math.exp(-t / 1e-3);
const ALPHA = 500;
const W0 = 1e4;
const WD = Math.sqrt(W0 * W0 - ALPHA * ALPHA);
const rlcExact = (t: number): number => 1 - Math.exp(-ALPHA * t) * (Math.cos(WD * t) + (ALPHA / WD) * Math.sin(WD * t));

function rcError(solver: SolverMethod, dt: number): number {
  const r = simulateSync(rcStep(solver, dt));
  expect(r.time.at(-1)).to.be.closeTo(5e-3, 1e-12);
  return maxError(r.time, r.signals['SCOPE.1.ch1'], rcExact);
}

function rlcError(solver: SolverMethod, dt: number): number {
  const r = simulateSync(seriesRlc(solver, dt));
  expect(r.time.at(-1)).to.be.closeTo(2e-3, 1e-12);
  return maxError(r.time, r.signals['SCOPE.1.ch1'], rlcExact);
}

describe('integration methods (closed forms)', () => {
  // Named tolerances: first-order BE error ≈ (dt/2τ)·e⁻¹; second order far smaller.
  const RC_TOLERANCE: Record<SolverMethod, number> = { 'backward-euler': 2e-3, trapezoidal: 1e-4, 'gear-shichman': 2e-4 };
  const RLC_TOLERANCE: Record<SolverMethod, number> = { 'backward-euler': 2e-2, trapezoidal: 2e-4, 'gear-shichman': 5e-4 };

  it('an empty or short channel is an error, not a deviation of 0', () => {
    expect(() => maxError(new Float64Array([0, 1]), new Float64Array(0), rcExact)).to.throw(/0 samples/);
    expect(() => maxError(new Float64Array([0, 1]), undefined, rcExact)).to.throw(/no samples/);
  });

  for (const solver of METHODS) {
    it(`RC step with ${solver} stays within ${RC_TOLERANCE[solver]} V of 1 − e^(−t/τ)`, () => {
      expect(rcError(solver, 5e-6)).to.be.below(RC_TOLERANCE[solver]);
    });

    it(`series RLC ringing with ${solver} follows the underdamped solution`, () => {
      expect(rlcError(solver, 2e-7)).to.be.below(RLC_TOLERANCE[solver]);
    });
  }

  it('shows order 1 for backward Euler and 2 for trapezoidal and Gear when dt is halved', () => {
    const order = (solver: SolverMethod): number => Math.log2(rlcError(solver, 4e-7) / rlcError(solver, 2e-7));
    expect(order('backward-euler')).to.be.closeTo(1, 0.15);
    expect(order('trapezoidal')).to.be.closeTo(2, 0.2);
    expect(order('gear-shichman')).to.be.closeTo(2, 0.25);
  });

  it('reports the inductor current of the RLC circuit consistent with C·dv/dt', () => {
    const r = simulateSync(seriesRlc('trapezoidal', 1e-7));
    const i = r.signals['SCOPE.1.ch2'];
    // i(t) = C·dvC/dt = C·e^(−αt)·(w0²/wd)·sin(wd·t)
    const exact = (t: number): number => 1e-5 * Math.exp(-ALPHA * t) * ((W0 * W0) / WD) * Math.sin(WD * t);
    expect(maxError(r.time, i, exact)).to.be.below(1e-4);
  });
});

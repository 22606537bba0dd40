// A nonlinear inductor L(|i|) (GeckoCIRCUITS' isNonlinear, L interpolated linearly between the
// table points) driven by a constant voltage: ψ(i(t)) = V·t with ψ(i) = ∫0^i L(x) dx, quadratic
// where L falls linearly. The engine's piecewise-linear ψ must follow that curve between the table
// points (docs/netlist.md), not only at them.
import { expect } from 'chai';
import { simulateSync, type Netlist } from '../../src/index.js';
import { amp, dc, scope } from '../fixtures/circuits.js';

const table = { nonlinI: [0, 7, 10, 30], nonlinL: [0.5e-3, 0.5e-3, 0.15e-3, 0.1e-3] };

/** ψ(i) of the table, exact: L interpolated linearly, its end value beyond the table. */
function flux(i: number): number {
  const { nonlinI: x, nonlinL: y } = table;
  let psi = 0;
  for (let k = 1; k < x.length && i > x[k - 1]; k++) {
    const end = Math.min(i, x[k]);
    const slope = (y[k] - y[k - 1]) / (x[k] - x[k - 1]);
    psi += y[k - 1] * (end - x[k - 1]) + 0.5 * slope * (end - x[k - 1]) ** 2;
  }
  return i > x[x.length - 1] ? psi + y[y.length - 1] * (i - x[x.length - 1]) : psi;
}

/** The current whose flux is ψ (bisection on the increasing flux()). */
function currentOf(psi: number): number {
  let lo = 0, hi = 100;
  for (let n = 0; n < 200; n++) {
    const mid = 0.5 * (lo + hi);
    if (flux(mid) < psi) lo = mid; else hi = mid;
  }
  return 0.5 * (lo + hi);
}

describe('nonlinear inductor', () => {
  it('follows the curved flux of a linearly interpolated L(i) inside a table interval', () => {
    const volts = 10;
    const netlist: Netlist = {
      settings: { tEnd: 5e-4, dt: 1e-7, solver: 'backward-euler' },
      elements: [dc('V.1', 'a', '0', volts), { name: 'L.1', type: 'L', nodes: ['a', '0'], params: { L: 0.5e-3, ...table } }],
      blocks: [amp('AMP.1', 'i', 'L.1'), scope('SCOPE.1', ['i'])],
    };
    const result = simulateSync(netlist);
    const current = result.signals['SCOPE.1.ch1'];
    let worst = 0;
    let inside = 0;
    result.time.forEach((t, n) => {
      const expected = currentOf(volts * t);
      if (expected > 7 && expected < 10) inside++;
      worst = Math.max(worst, Math.abs(current[n] - expected));
    });
    expect(inside).to.be.greaterThan(100);  // the run crosses the curved interval
    // One segment per interval (L = 0.325 mH throughout 7–10 A) would be about 0.4 A off inside it.
    expect(worst).to.be.lessThan(0.01);
  });
});

// The compact form of a check thread's message (src/jobs/check-payload.ts): a sweep's checks cross
// as their keys once and their values in one Float64Array, and come back as the same checks, in
// order, with the same netlist objects and override keys.
import { expect } from 'chai';
import { decodeChecks, encodeChecks } from '../../../src/jobs/check-payload.js';
import type { CircuitCheck } from '../../../src/jobs/check-worker.js';
import { rcStep } from '../../fixtures/circuits.js';

describe('jobs: check thread message', () => {
  const rc = rcStep('backward-euler', 1e-5, 1e-4);
  const other = rcStep('trapezoidal', 1e-5, 1e-4);

  it('sends a sweep as one run of values and gives back every check in order', () => {
    const checks: CircuitCheck[] = Array.from({ length: 1000 }, (_, i) => ({ netlist: rc, parameters: { 'R.1.R': 100 + i, 'C.1.C': 1e-6 * (1 + i) } }));
    const sent = encodeChecks(checks);
    expect(sent).to.have.length(1);
    expect(sent[0]).to.have.property('values').that.is.instanceOf(Float64Array);
    const back = decodeChecks(structuredClone(sent));
    expect(back.map((c) => c.parameters)).to.deep.equal(checks.map((c) => c.parameters));
    expect(back.every((c) => c.netlist === back[0].netlist)).to.equal(true);
  });

  it('starts a new run at another netlist, other keys or another key order, and keeps the values exact', () => {
    const checks: CircuitCheck[] = [
      { netlist: rc, parameters: { 'R.1.R': -0, 'C.1.C': Number.NaN } },
      { netlist: rc, parameters: { 'R.1.R': Number.MIN_VALUE, 'C.1.C': Infinity } },
      { netlist: rc, parameters: { 'C.1.C': 2, 'R.1.R': 1 } },
      { netlist: other, parameters: { 'C.1.C': 3, 'R.1.R': 4 } },
      { netlist: other, parameters: { 'R.1.R': 5 } },
      { netlist: other, parameters: {} },
      { netlist: other, parameters: { ['__proto__']: 7 } as Record<string, number> },
      { netlist: other, parameters: { 'R.1.R': '8' as unknown as number } },
    ];
    const sent = encodeChecks(checks);
    expect(sent).to.have.length(7); // the first two share a run
    const back = decodeChecks(structuredClone(sent));
    expect(back).to.have.length(checks.length);
    for (const [i, check] of checks.entries()) {
      expect(Object.keys(back[i].parameters), `check ${i}`).to.deep.equal(Object.keys(check.parameters));
      for (const key of Object.keys(check.parameters)) expect(Object.is(back[i].parameters[key], check.parameters[key]), `check ${i} ${key}`).to.equal(true);
      expect(back[i].netlist).to.deep.equal(check.netlist);
    }
    expect(Object.getPrototypeOf(back[6].parameters)).to.equal(Object.prototype); // an own key, not the prototype
    expect(back[7].parameters['R.1.R']).to.equal('8'); // not a number: sent as it is, for the engine's check to refuse
  });
});

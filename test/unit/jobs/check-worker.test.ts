// The check thread's task (src/jobs/check-worker.ts) on what check-thread.ts sends: runs of a
// sweep's values and checks in object form, mixed; the position counts every check before it.
import { expect } from 'chai';
import firstFailing from '../../../src/jobs/check-worker.js';
import { encodeChecks } from '../../../src/jobs/check-payload.js';
import { rcStep, rcWithGlobals } from '../../fixtures/circuits.js';

describe('jobs: circuit-check thread task', () => {
  const rc = rcStep('backward-euler', 1e-5, 1e-4);
  const globals = rcWithGlobals();
  const checks = (bad: number[]): Parameters<typeof encodeChecks>[0] => [
    ...[10, 20, 30].map((r) => ({ netlist: rc, parameters: { 'R.1.R': r } })),
    { netlist: rc, parameters: {} }, // object form (no overrides)
    ...[40, 50].map((r) => ({ netlist: globals, parameters: { $Rv: r } })),
    { netlist: rc, parameters: { 'C.1.C': 1e-6, 'R.1.R': 60 } }, // other keys: a run of its own
  ].map((check, i) => (bad.includes(i) ? { ...check, parameters: { ...check.parameters, [check.netlist === globals ? '$Rv' : 'R.1.R']: -1 } } : check));

  it('finds the first failing check across runs and object forms', () => {
    const sent = encodeChecks(checks([]));
    expect(sent.map((item) => ('values' in item ? 'run' : 'object'))).to.deep.equal(['run', 'object', 'run', 'run']);
    expect(firstFailing(sent)).to.equal(-1);
    for (const bad of [0, 2, 3, 5, 6]) expect(firstFailing(encodeChecks(checks([bad, 6]))), `bad ${bad}`).to.equal(bad);
  });
});

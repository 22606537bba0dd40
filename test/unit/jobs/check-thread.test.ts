// The circuit-check thread (src/jobs/check-thread.ts): until it has loaded the engine it leaves the
// checks to the caller; then it finds the first circuit that fails with its overrides, as
// checkSubmittedCircuit would, and -1 when none does.
import { expect } from 'chai';
import { CircuitCheckThread } from '../../../src/jobs/check-thread.js';
import { checkSubmittedCircuit } from '../../../src/jobs/circuit-check.js';
import { rcStep } from '../../fixtures/circuits.js';

describe('jobs: circuit-check thread', function () {
  this.timeout(60_000);
  const thread = new CircuitCheckThread();
  after(() => thread.close());

  it('leaves the checks to the caller until ready, then finds the first failing one', async () => {
    const netlist = rcStep('backward-euler', 1e-5, 1e-4);
    const checks = [100, 200, -1, 300, -2].map((r) => ({ netlist, parameters: { 'R.1.R': r } }));
    expect(await thread.firstFailing(checks)).to.equal(undefined); // not started: the caller checks
    let found: number | undefined;
    for (let i = 0; i < 600 && found === undefined; i++) {
      found = await thread.firstFailing(checks);
      if (found === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(found).to.equal(2);
    expect(() => checkSubmittedCircuit(netlist, checks[2].parameters)).to.throw();
    expect(await thread.firstFailing(checks.slice(0, 2))).to.equal(-1);
    expect(await thread.firstFailing([])).to.equal(-1);
  });

  it('leaves the checks to the caller once closed', async () => {
    await thread.close();
    expect(await thread.firstFailing([{ netlist: rcStep('backward-euler', 1e-5, 1e-4), parameters: {} }])).to.equal(undefined);
  });
});

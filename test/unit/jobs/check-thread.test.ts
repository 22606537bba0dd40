// The circuit-check thread (src/jobs/check-thread.ts): until it has loaded the engine it leaves the
// checks to the caller; then it finds the first circuit that fails with its overrides, as
// checkSubmittedCircuit would, and -1 when none does.
import { expect } from 'chai';
import { CHECK_SPLIT_MIN, CircuitCheckThread, checkThreadCount } from '../../../src/jobs/check-thread.js';
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

  it('splits a large set over its threads and still finds the first failing check', async () => {
    const pair = new CircuitCheckThread(2);
    try {
      const netlist = rcStep('backward-euler', 1e-5, 1e-4);
      const n = CHECK_SPLIT_MIN + 1;
      const set = (bad: number[]): { netlist: typeof netlist; parameters: Record<string, number> }[] =>
        Array.from({ length: n }, (_, i) => ({ netlist, parameters: { 'R.1.R': bad.includes(i) ? -1 : 100 + i } }));
      pair.start();
      let found: number | undefined;
      for (let i = 0; i < 600 && found === undefined; i++) {
        found = await pair.firstFailing(set([]));
        if (found === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(found).to.equal(-1);
      // Failures in both halves: the first; in the second half only; at the very end.
      expect(await pair.firstFailing(set([n - 5, 7]))).to.equal(7);
      expect(await pair.firstFailing(set([n - 5, n - 2]))).to.equal(n - 5);
      expect(await pair.firstFailing(set([n - 1]))).to.equal(n - 1);
    } finally {
      await pair.close();
    }
  });

  it('uses one thread per core, from one to four', () => {
    expect([1, 2, 3, 4, 16].map((cores) => checkThreadCount(cores))).to.deep.equal([1, 2, 3, 4, 4]);
  });

  it('leaves the checks to the caller once closed', async () => {
    await thread.close();
    expect(await thread.firstFailing([{ netlist: rcStep('backward-euler', 1e-5, 1e-4), parameters: {} }])).to.equal(undefined);
  });
});

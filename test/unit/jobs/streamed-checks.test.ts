// Checks sent to the check threads in parts (src/jobs/streamed-checks.ts): a part goes once
// CHECK_PART_ITEMS checks wait, the rest with the answer, and the first failing check of the whole
// submission is found whichever parts fail; a part the threads cannot take leaves all to the caller.
import { expect } from 'chai';
import { CircuitCheckThread } from '../../../src/jobs/check-thread.js';
import { CHECK_PART_ITEMS, StreamedChecks } from '../../../src/jobs/streamed-checks.js';
import { rcStep } from '../../fixtures/circuits.js';

describe('jobs: checks streamed to the check threads in parts', function () {
  this.timeout(120_000);
  const threads = new CircuitCheckThread(2);
  const netlist = rcStep('backward-euler', 1e-5, 1e-4);
  before(async () => {
    threads.start();
    for (let i = 0; i < 600 && (await threads.firstFailing([{ netlist, parameters: {} }])) === undefined; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  });
  after(() => threads.close());

  /** `count` checks, failing at `bad`, added and sent as prepareItems does. */
  function streamed(count: number, bad: number[], to = threads): StreamedChecks {
    const checks = new StreamedChecks(to);
    for (let i = 0; i < count; i++) {
      checks.add({ netlist, parameters: { 'R.1.R': bad.includes(i) ? -1 : 100 + (i % 1000) } });
      if (checks.partReady) checks.send();
    }
    return checks;
  }

  it('finds the first failing check across parts, or none', async () => {
    const count = 2 * CHECK_PART_ITEMS + 123;
    expect(await streamed(count, []).firstFailing()).to.equal(-1);
    expect(await streamed(count, [count - 1, CHECK_PART_ITEMS + 5]).firstFailing()).to.equal(CHECK_PART_ITEMS + 5);
    expect(await streamed(count, [2 * CHECK_PART_ITEMS + 100, 3]).firstFailing()).to.equal(3);
    expect(await streamed(count, [count - 1]).firstFailing()).to.equal(count - 1);
    expect(await streamed(10, [9]).firstFailing()).to.equal(9); // one part, sent with the answer
  });

  it('leaves every check to the caller when the threads cannot take a part', async () => {
    const closed = new CircuitCheckThread(1);
    await closed.close();
    expect(await streamed(CHECK_PART_ITEMS + 1, [0], closed).firstFailing()).to.equal(undefined);
  });
});

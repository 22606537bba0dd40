// Batch counts per state, kept by the store (schema 4 triggers): equal to a count over the batch's
// rows at every quiet point of a batch that runs, is partly cancelled and ends.
import { expect } from 'chai';
import type { StateCounts } from '../../../src/jobs/scheduler.js';
import { buck } from '../../fixtures/circuits.js';
import { task, testRuntime, waitForState, type TestRuntime } from './harness.js';

describe('batch counts', function () {
  this.timeout(120_000);
  let runtime: TestRuntime | undefined;
  afterEach(async () => {
    await runtime?.dispose();
    runtime = undefined;
  });

  it('follow the committed changes of a batch that runs, is partly cancelled and ends', async () => {
    runtime = testRuntime((s) => (s.cache.enabled = false));
    // A count over the rows, as the store answered before it kept counts.
    const stored = (): StateCounts => {
      const counts: StateCounts = {};
      for (const { state } of runtime!.store.tasks.list({ batchId: 'b' }).tasks) counts[state] = (counts[state] ?? 0) + 1;
      return counts;
    };
    const items = Array.from({ length: 30 }, (_, i) => ({ ...task(buck({ tEnd: 1e-3 }), 'NORMAL', { 'R.1.R': 2 + i * 1e-3 }), batchId: 'b' }));
    const tasks = await runtime.scheduler.submitMany(items);
    expect(runtime.scheduler.batchStateCounts('b')).to.deep.equal(stored());
    const cancelled = runtime.scheduler.cancelMany(tasks.slice(20).map((t) => t.id));
    expect(cancelled).to.be.greaterThan(0);
    expect(runtime.scheduler.batchStateCounts('b')).to.deep.equal(stored());
    await Promise.all(tasks.slice(0, 20).map((t) => waitForState(runtime!, t.id, ['completed', 'cancelled'])));
    const end = runtime.scheduler.batchStateCounts('b');
    expect(end).to.deep.equal(stored());
    expect((end.completed ?? 0) + (end.cancelled ?? 0)).to.equal(30);
    expect(runtime.scheduler.batchStateCounts('nope')).to.deep.equal({});
  });
});

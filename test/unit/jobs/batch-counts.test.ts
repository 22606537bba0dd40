// Batch counts per state kept in memory: equal to the store's count at every quiet point of a batch
// that runs, is partly cancelled and ends; read again from the store when a change is not known or
// the batch was let go.
import { expect } from 'chai';
import { BatchCounts, type StateCounts } from '../../../src/jobs/batch-counts.js';
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
    const stored = (): StateCounts => runtime!.store.batchResults.countByState('b');
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

  it('read the store again for a change they cannot place, and keep the batches asked for last', () => {
    const reads: string[] = [];
    const counts = new BatchCounts((id) => {
      reads.push(id);
      return { queued: 2 };
    }, 2);
    expect(counts.of('a')).to.deep.equal({ queued: 2 });
    counts.changed('a', 'queued', 'running');
    counts.changed('a', null, 'queued');
    counts.changed('other', 'queued', 'running'); // not kept: ignored
    expect(counts.of('a')).to.deep.equal({ queued: 2, running: 1 });
    counts.changed('a', undefined, 'completed'); // from an unknown state: read again
    expect(counts.of('a')).to.deep.equal({ queued: 2 });
    counts.of('b');
    counts.of('c'); // 'a' is let go
    counts.of('a');
    expect(reads).to.deep.equal(['a', 'a', 'b', 'c', 'a']);
  });
  it('keep a new batch from its submission on, so that its first status read counts no rows', async () => {
    const reads: string[] = [];
    const counts = new BatchCounts((id) => {
      reads.push(id);
      return {};
    });
    counts.started('new', {});
    counts.changed('new', null, 'queued');
    counts.changed('new', null, 'queued');
    counts.changed('new', 'queued', 'running');
    expect(counts.of('new')).to.deep.equal({ queued: 1, running: 1 });
    expect(reads).to.deep.equal([]);
    // Through the scheduler: a submission that makes a whole batch.
    runtime = testRuntime((s) => (s.cache.enabled = false));
    const tasks = await runtime.scheduler.submitMany(Array.from({ length: 5 }, (_, i) => ({ ...task(buck({ tEnd: 1e-3 }), 'NORMAL', { 'R.1.R': 2 + i * 1e-3 }), batchId: 'fresh' })));
    const stored = runtime.store.batchResults.countByState('fresh');
    expect(Object.values(runtime.scheduler.batchStateCounts('fresh')).reduce((a, b) => a + b, 0)).to.equal(5);
    expect(runtime.scheduler.batchStateCounts('fresh')).to.deep.equal(stored);
    await Promise.all(tasks.map((t) => waitForState(runtime!, t.id, ['completed'])));
    expect(runtime.scheduler.batchStateCounts('fresh')).to.deep.equal({ completed: 5 });
  });
});

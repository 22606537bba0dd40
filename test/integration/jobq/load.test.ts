// Bounded load on the job-queue service (the load of bench/jobq.ts): 2 000 submissions on loopback
// within at most 60 s; no task is lost and every task reaches a final state. Prints tasks/s and the
// p99 submit latency (figures only; speed is not asserted).
import { expect } from 'chai';
import { runLoad, STANDARD_LOAD } from '../../../bench/jobq.js';

describe('job-queue service: bounded load', function () {
  this.timeout(120_000);

  it('accepts 2 000 submissions and carries every task to a final state', async () => {
    const r = await runLoad(STANDARD_LOAD);
    console.log(`      ${r.accepted} tasks in ${r.totalSeconds.toFixed(1)} s: ${r.tasksPerSecond.toFixed(0)} tasks/s, ${r.submitsPerSecond.toFixed(0)} submits/s, submit latency p50 ${r.p50Ms.toFixed(1)} ms, p99 ${r.p99Ms.toFixed(1)} ms, ${r.cacheHits} cache hits`);
    expect(r.rejected).to.equal(0);
    expect(r.accepted).to.equal(2000);
    expect(r.lost).to.equal(0);
    expect(r.finished).to.equal(2000);
    expect(r.completed).to.equal(2000);
    // Identical requests submitted before the first of them finishes run again; later ones hit the cache.
    expect(r.cacheHits).to.be.greaterThan(0).and.at.most(2000 - 50);
    expect(r.speedupFactor).to.be.greaterThan(0);
  });
});

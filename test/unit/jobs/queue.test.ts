// The ready queue: priority order, FIFO within a priority, retries waiting for their time in
// submission order, and removal, at the size of a 100 000-run batch (its speed is measured by the
// benchmark's big batch, not here).
import { expect } from 'chai';
import { PriorityQueue } from '../../../src/jobs/queue.js';

describe('jobs: the ready queue', () => {
  it('takes the highest priority first, first in first out within one, and skips removed entries', () => {
    const q = new PriorityQueue();
    q.push('n1', 'NORMAL');
    q.push('l1', 'LOW');
    q.push('n2', 'NORMAL');
    q.push('c1', 'CRITICAL');
    q.push('n3', 'NORMAL');
    expect(q.remove('n2')).to.equal(true);
    expect(q.remove('n2')).to.equal(false);
    expect(q.size).to.equal(4);
    expect([q.popReady(0), q.popReady(0), q.popReady(0), q.popReady(0), q.popReady(0)]).to.deep.equal(['c1', 'n1', 'n3', 'l1', undefined]);
    expect(q.size).to.equal(0);
  });

  it('holds a retry until its time, puts it back in submission order and names the next wake-up', () => {
    const q = new PriorityQueue();
    const order = new Map([['a', 0], ['b', 1], ['c', 2]]);
    q.push('a', 'NORMAL');
    q.push('c', 'NORMAL');
    q.insertOrdered('b', 'NORMAL', 1000, (id) => order.get(id)!);
    expect(q.nextWakeUp(0)).to.equal(1000);
    expect(q.popReady(0)).to.equal('a');
    expect(q.popReady(0)).to.equal('c'); // b waits for its time
    expect(q.popReady(999)).to.equal(undefined);
    expect(q.popReady(1000)).to.equal('b');
    expect(q.nextWakeUp(0)).to.equal(undefined);
  });

  it('queues, takes and removes the entries of a 100 000-run batch in order', () => {
    const q = new PriorityQueue();
    const n = 100_000;
    for (let i = 0; i < n; i++) q.push(`t${i}`, 'NORMAL');
    for (let i = 1; i < n; i += 2) q.remove(`t${i}`);
    const taken: string[] = [];
    for (let id = q.popReady(0); id !== undefined; id = q.popReady(0)) taken.push(id);
    expect(taken).to.have.length(n / 2);
    expect(taken[0]).to.equal('t0');
    expect(taken.at(-1)).to.equal(`t${n - 2}`);
  });
});

// The ready queue: priority order, FIFO (sequence order) within a priority, retries waiting for
// their time at their place, removal at the size of a 100 000-run batch (its speed is measured by
// the benchmark's big batch, not here), and the window of a queue that pages its tasks in from a
// store instead of holding them all.
import { expect } from 'chai';
import { PriorityQueue, type QueuedTask } from '../../../src/jobs/queue.js';
import type { Priority } from '../../../src/jobs/types.js';

describe('jobs: the ready queue', () => {
  it('takes the highest priority first, first in first out within one, and skips removed entries', () => {
    const q = new PriorityQueue();
    q.push('n1', 'NORMAL', 1);
    q.push('l1', 'LOW', 2);
    q.push('n2', 'NORMAL', 3);
    q.push('c1', 'CRITICAL', 4);
    q.push('n3', 'NORMAL', 5);
    expect(q.remove('n2')).to.equal(true);
    expect(q.remove('n2')).to.equal(false);
    expect(q.size).to.equal(4);
    expect([q.popReady(0), q.popReady(0), q.popReady(0), q.popReady(0), q.popReady(0)]).to.deep.equal(['c1', 'n1', 'n3', 'l1', undefined]);
    expect(q.size).to.equal(0);
  });

  it('holds a retry until its time, puts it back in sequence order and names the next wake-up', () => {
    const q = new PriorityQueue();
    q.push('a', 'NORMAL', 1);
    q.push('c', 'NORMAL', 3);
    expect(q.insertOrdered('b', 'NORMAL', 2, 1000)).to.equal(true);
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
    for (let i = 0; i < n; i++) q.push(`t${i}`, 'NORMAL', i + 1);
    for (let i = 1; i < n; i += 2) q.remove(`t${i}`);
    const taken: string[] = [];
    for (let id = q.popReady(0); id !== undefined; id = q.popReady(0)) taken.push(id);
    expect(taken).to.have.length(n / 2);
    expect(taken[0]).to.equal('t0');
    expect(taken.at(-1)).to.equal(`t${n - 2}`);
  });

  describe('paged from a store', () => {
    /** A store's queued tasks: what pageIn reads, in sequence order per priority. */
    let stored: (QueuedTask & { priority: Priority })[];
    let pages: number;
    const pageIn = (priority: Priority, afterSeq: number, limit: number): QueuedTask[] => {
      pages++;
      return stored.filter((t) => t.priority === priority && t.seq > afterSeq).slice(0, limit).map(({ id, seq, readyAt }) => ({ id, seq, readyAt }));
    };
    /** Takes what is ready, as a scheduler does: a started task leaves the store's queued set. */
    const take = (q: PriorityQueue, now = 0): string | undefined => {
      const id = q.popReady(now);
      stored = stored.filter((t) => t.id !== id);
      return id;
    };
    beforeEach(() => {
      stored = [];
      pages = 0;
    });

    it('holds at most a page of a large batch and takes all of it in order', () => {
      stored = Array.from({ length: 10 }, (_, i) => ({ id: `t${i}`, seq: i + 1, readyAt: 0, priority: 'NORMAL' as Priority }));
      const q = new PriorityQueue(pageIn, 4);
      expect(q.size).to.equal(0);
      expect(take(q)).to.equal('t0');
      expect(q.size).to.equal(3);
      const rest: string[] = [];
      for (let id = take(q); id !== undefined; id = take(q)) rest.push(id);
      expect(rest).to.deep.equal(['t1', 't2', 't3', 't4', 't5', 't6', 't7', 't8', 't9']);
      expect(q.size).to.equal(0);
    });

    it('leaves a new task to the store while its priority has more there, and holds it once the lane is whole', () => {
      stored = Array.from({ length: 6 }, (_, i) => ({ id: `t${i}`, seq: i + 1, readyAt: 0, priority: 'NORMAL' as Priority }));
      const q = new PriorityQueue(pageIn, 4);
      expect(take(q)).to.equal('t0'); // holds t1…t3; t4, t5 stay in the store
      stored.push({ id: 'new', seq: 7, readyAt: 0, priority: 'NORMAL' });
      expect(q.push('new', 'NORMAL', 7)).to.equal(false);
      // A CRITICAL task goes first however much NORMAL work waits; its lane is whole, so it is held.
      stored.push({ id: 'urgent', seq: 8, readyAt: 0, priority: 'CRITICAL' });
      expect(take(q)).to.equal('t1'); // pages the CRITICAL lane in (empty then): complete
      expect(q.push('urgent', 'CRITICAL', 8)).to.equal(true);
      const order: string[] = [];
      for (let id = take(q); id !== undefined; id = take(q)) order.push(id);
      expect(order).to.deep.equal(['urgent', 't2', 't3', 't4', 't5', 'new']);
      const before = pages;
      expect(take(q)).to.equal(undefined);
      expect(pages).to.equal(before); // whole lanes are not asked again
      expect(q.push('later', 'NORMAL', 9)).to.equal(true);
    });

    it('after a rewind looks in the store again from the last task it holds, passing over started ones', () => {
      stored = Array.from({ length: 3 }, (_, i) => ({ id: `t${i}`, seq: i + 1, readyAt: 0, priority: 'NORMAL' as Priority }));
      const running = new Set<string>();
      const q = new PriorityQueue((priority, afterSeq, limit) => pageIn(priority, afterSeq, limit).map((t) => ({ ...t, started: running.has(t.id) })), 2);
      expect(q.popReady(0)).to.equal('t0'); // started; its start is written: it leaves the store's queued set
      stored = stored.filter((t) => t.id !== 't0');
      expect(q.popReady(0)).to.equal('t1'); // started; its start not yet written: the store still shows it queued
      running.add('t1');
      // A submission rolled back; the store gives its sequence number to the next task.
      stored.push({ id: 'next', seq: 4, readyAt: 0, priority: 'NORMAL' });
      q.rewind();
      const order: string[] = [];
      for (let id = take(q); id !== undefined; id = take(q)) order.push(id);
      expect(order).to.deep.equal(['t2', 'next']);
    });

    it('pages past tasks waiting for a retry to the ready ones behind them', () => {
      stored = [
        ...Array.from({ length: 3 }, (_, i) => ({ id: `wait${i}`, seq: i + 1, readyAt: 5000, priority: 'HIGH' as Priority })),
        { id: 'ready', seq: 4, readyAt: 0, priority: 'HIGH' },
      ];
      const q = new PriorityQueue(pageIn, 2);
      expect(take(q, 0)).to.equal('ready');
      expect(q.nextWakeUp(0)).to.equal(5000);
      expect(take(q, 5000)).to.equal('wait0');
      // A retry put back with a sequence number the lane has not reached is left to the store.
      const q2 = new PriorityQueue(pageIn, 2);
      expect(q2.insertOrdered('x', 'LOW', 50, 0)).to.equal(false);
    });
  });
});

// The scheduler's writes waiting for their commit (src/jobs/pending-writes.ts): a write after a
// quiet spell is committed once its turn of the event loop is over, the writes that follow a
// commit wait until it is intervalMs old, and all the writes of a turn go in one commit.
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { PendingWrites, type PendingWrite } from '../../../src/jobs/pending-writes.js';
import { taskRecord } from '../store/helpers.js';

describe('jobs: pending writes', () => {
  const write = (id: string): PendingWrite => ({ task: taskRecord(id), kind: 'end', write: () => undefined });

  it('commits a write after a quiet spell at once, batches the writes that follow a commit', async () => {
    const interval = 60;
    const commits: { at: number; ids: string[] }[] = [];
    const start = performance.now();
    const pending: PendingWrites = new PendingWrites(interval, () => commits.push({ at: performance.now() - start, ids: pending.take().map((w) => w.task.id) }));
    pending.add(write('a'));
    pending.add(write('b')); // the same turn: the same commit
    expect(commits).to.have.length(0); // not inside the turn that wrote
    await sleep(5);
    expect(commits).to.have.length(1);
    expect(commits[0].ids).to.deep.equal(['a', 'b']);
    expect(commits[0].at).to.be.below(interval / 2);
    pending.add(write('c')); // right after a commit: waits for the interval
    await sleep(5);
    pending.add(write('d'));
    expect(commits).to.have.length(1);
    await sleep(interval + 20);
    expect(commits).to.have.length(2);
    expect(commits[1].ids).to.deep.equal(['c', 'd']);
    expect(commits[1].at - commits[0].at).to.be.at.least(interval - 2);
    // A take() by someone else (a commit of the scheduler's own) cancels the one that was due.
    await sleep(interval + 5);
    pending.add(write('e'));
    expect(pending.take().map((w) => w.task.id)).to.deep.equal(['e']);
    await sleep(interval + 20);
    expect(commits).to.have.length(2);
  });
});

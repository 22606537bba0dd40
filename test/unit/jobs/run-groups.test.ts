// Group sizes of the embedded executor (src/jobs/executors/run-groups.ts): one run per message
// until the runs are known to be short, groups that last about GROUP_WINDOW_MS after, and splits
// that leave no thread without work when there are few runs.
import { expect } from 'chai';
import { GROUP_WINDOW_MS, MAX_GROUP, RunGroups } from '../../../src/jobs/executors/run-groups.js';

describe('jobs: run groups of the embedded executor', () => {
  it('sends runs alone, one per thread, until their time is known', () => {
    const groups = new RunGroups(2);
    expect(groups.size).to.equal(1);
    expect(groups.capacity).to.equal(2);
    expect(groups.split(['a', 'b', 'c'], 0)).to.deep.equal([['a'], ['b'], ['c']]);
  });

  it('groups short runs to about the window, at most MAX_GROUP, and says when the capacity grew', () => {
    const groups = new RunGroups(2);
    expect(groups.observe([GROUP_WINDOW_MS / 4])).to.equal(true);
    expect(groups.size).to.equal(4);
    expect(groups.capacity).to.equal(2 * 2 * 4);
    expect(groups.observe([1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4])).to.equal(true);
    expect(groups.size).to.equal(MAX_GROUP);
    expect(groups.observe([1e-4])).to.equal(false);
  });

  it('goes back to one run per message when runs take longer than the window', () => {
    const groups = new RunGroups(3);
    groups.observe([1]);
    expect(groups.size).to.be.greaterThan(1);
    expect(groups.observe([10 * GROUP_WINDOW_MS])).to.equal(false);
    expect(groups.observe([10 * GROUP_WINDOW_MS, 10 * GROUP_WINDOW_MS, 10 * GROUP_WINDOW_MS, 10 * GROUP_WINDOW_MS, 10 * GROUP_WINDOW_MS, 10 * GROUP_WINDOW_MS])).to.equal(false);
    expect(groups.size).to.equal(1);
    expect(groups.capacity).to.equal(3);
  });

  it('splits runs into groups of its size, smaller when threads would otherwise have none', () => {
    const groups = new RunGroups(2);
    groups.observe([GROUP_WINDOW_MS / 4]); // size 4
    const items = Array.from({ length: 10 }, (_, i) => i);
    expect(groups.split(items, 0)).to.deep.equal([[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]);
    // Three runs and two idle threads: both get some.
    expect(groups.split([0, 1, 2], 0)).to.deep.equal([[0, 1], [2]]);
    // One thread busy: the runs make one group.
    expect(groups.split([0, 1, 2], 1)).to.deep.equal([[0, 1, 2]]);
  });
});

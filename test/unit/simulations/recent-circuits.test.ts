// The cache of recent inline circuits: hits by content, least recently used entries evicted
// first, bounded in entries and in key characters, over-long keys never kept.
import { expect } from 'chai';
import { RecentCircuits } from '../../../src/simulations/recent-circuits.js';

describe('RecentCircuits', () => {
  it('returns what was kept for the same content and nothing for other content', () => {
    const recent = new RecentCircuits<number>();
    recent.set('abc', 1);
    expect(recent.get('abc')).to.equal(1);
    expect(recent.get('abd')).to.equal(undefined);
  });

  it('evicts the least recently used entry beyond the entry bound', () => {
    const recent = new RecentCircuits<number>(2);
    recent.set('a', 1);
    recent.set('b', 2);
    expect(recent.get('a')).to.equal(1); // 'b' is now the least recently used
    recent.set('c', 3);
    expect(recent.size).to.equal(2);
    expect(recent.get('b')).to.equal(undefined);
    expect(recent.get('a')).to.equal(1);
    expect(recent.get('c')).to.equal(3);
  });

  it('keeps the characters of its keys within the bound and never keeps an over-long key', () => {
    const recent = new RecentCircuits<number>(100, 40);
    recent.set('x'.repeat(11), 0); // over a quarter of 40 characters
    expect(recent.size).to.equal(0);
    for (let i = 0; i < 5; i++) recent.set(String(i).repeat(10), i);
    expect(recent.size).to.equal(4); // 5 × 10 characters > 40: the oldest went
    expect(recent.get('0'.repeat(10))).to.equal(undefined);
    expect(recent.get('4'.repeat(10))).to.equal(4);
  });

  it('does not replace an entry it holds', () => {
    const recent = new RecentCircuits<number>();
    recent.set('k', 1);
    recent.set('k', 2);
    expect(recent.get('k')).to.equal(1);
    expect(recent.size).to.equal(1);
  });
});

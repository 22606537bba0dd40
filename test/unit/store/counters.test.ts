// Persistent counters: start at 0, add positive and negative deltas, refuse non-finite ones,
// and keep their values across a restart.
import { expect } from 'chai';
import { tempStore, thrown, type TempStore } from './helpers.js';

describe('store: counters', () => {
  let t: TempStore;
  beforeEach(() => {
    t = tempStore();
  });
  afterEach(() => t.dispose());

  it('reads 0 for an unknown counter and sums the deltas added', () => {
    expect(t.store.counters.get('cache.hits')).to.equal(0);
    t.store.counters.add('cache.hits', 1);
    t.store.counters.add('cache.hits', 1);
    t.store.counters.add('cache.misses', 3);
    t.store.counters.add('cache.hits', 5);
    t.store.counters.add('cache.misses', -1);
    expect(t.store.counters.get('cache.hits')).to.equal(7);
    expect(t.store.counters.get('cache.misses')).to.equal(2);
    expect(t.store.counters.get('other')).to.equal(0);
  });

  it('refuses a non-finite delta and leaves the value as it was', () => {
    t.store.counters.add('n', 2);
    expect(thrown(() => t.store.counters.add('n', Number.NaN)).code).to.equal('INVALID_RECORD');
    expect(thrown(() => t.store.counters.add('n', Number.POSITIVE_INFINITY)).code).to.equal('INVALID_RECORD');
    expect(t.store.counters.get('n')).to.equal(2);
  });

  it('keeps its values across a restart', () => {
    for (let i = 0; i < 10; i++) t.store.counters.add('runs', 1);
    expect(t.reopen().counters.get('runs')).to.equal(10);
  });
});

// The cache index: upsert and get, access recording, expiry, clearing and the statistics summary.
import { expect } from 'chai';
import { at, cacheEntry, tempStore, thrown, type TempStore } from './helpers.js';

describe('store: cache index', () => {
  let t: TempStore;
  beforeEach(() => {
    t = tempStore();
  });
  afterEach(() => t.dispose());

  it('returns an upserted entry as given and replaces it on a second upsert', () => {
    const entry = cacheEntry('k1', { expiresAt: at(60), format: 'hdf5', compression: 'gzip' });
    t.store.cacheIndex.upsert(entry);
    expect(t.store.cacheIndex.get('k1')).to.deep.equal(entry);
    const replaced = cacheEntry('k1', { file: 'k1.csv', format: 'csv', compression: 'none', sizeBytes: 5, runMs: 1, expiresAt: null });
    t.store.cacheIndex.upsert(replaced);
    expect(t.store.cacheIndex.get('k1')).to.deep.equal(replaced);
    expect(t.store.cacheIndex.all()).to.have.length(1);
    expect(t.store.cacheIndex.get('k2')).to.equal(undefined);
  });

  it('records accesses with touch', () => {
    t.store.cacheIndex.upsert(cacheEntry('k1'));
    t.store.cacheIndex.touch('k1', at(10));
    t.store.cacheIndex.touch('k1', at(20));
    const entry = t.store.cacheIndex.get('k1')!;
    expect(entry.accessedAt).to.equal(at(20));
    expect(entry.accessCount).to.equal(2);
    expect(entry.createdAt).to.equal(at(0));
    t.store.cacheIndex.touch('missing', at(30)); // no entry: nothing happens
    expect(t.store.cacheIndex.all()).to.have.length(1);
    expect(thrown(() => t.store.cacheIndex.touch('k1', 'soon')).code).to.equal('INVALID_RECORD');
    expect(t.store.cacheIndex.get('k1')!.accessCount).to.equal(2);
  });

  it('lists the entries expired before a time, never those without expiry', () => {
    t.store.cacheIndex.upsert(cacheEntry('late', { expiresAt: at(300) }));
    t.store.cacheIndex.upsert(cacheEntry('never', { expiresAt: null }));
    t.store.cacheIndex.upsert(cacheEntry('early', { expiresAt: at(100) }));
    t.store.cacheIndex.upsert(cacheEntry('edge', { expiresAt: at(200) }));
    expect(t.store.cacheIndex.expired(at(50))).to.deep.equal([]);
    expect(t.store.cacheIndex.expired(at(200)).map((e) => e.key)).to.deep.equal(['early']);
    expect(t.store.cacheIndex.expired(at(201)).map((e) => e.key)).to.deep.equal(['early', 'edge']);
    expect(t.store.cacheIndex.expired(at(1e6)).map((e) => e.key)).to.deep.equal(['early', 'edge', 'late']);
  });

  it('deletes one entry, and clears all returning them', () => {
    for (let i = 0; i < 4; i++) t.store.cacheIndex.upsert(cacheEntry(`k${i}`, { createdAt: at(i), accessedAt: at(i) }));
    t.store.cacheIndex.delete('k1');
    t.store.cacheIndex.delete('missing');
    expect(t.store.cacheIndex.all().map((e) => e.key)).to.deep.equal(['k0', 'k2', 'k3']);
    const cleared = t.store.cacheIndex.clear();
    expect(cleared).to.deep.equal([0, 2, 3].map((i) => cacheEntry(`k${i}`, { createdAt: at(i), accessedAt: at(i) })));
    expect(t.store.cacheIndex.all()).to.deep.equal([]);
    expect(t.store.cacheIndex.clear()).to.deep.equal([]);
  });

  it('summarises count, bytes and the creation times of the oldest and newest entries', () => {
    expect(t.store.cacheIndex.summary()).to.deep.equal({ entries: 0, bytes: 0, oldest: null, newest: null });
    t.store.cacheIndex.upsert(cacheEntry('b', { createdAt: at(50), sizeBytes: 2048 }));
    t.store.cacheIndex.upsert(cacheEntry('a', { createdAt: at(10), sizeBytes: 100 }));
    t.store.cacheIndex.upsert(cacheEntry('c', { createdAt: at(30), sizeBytes: 0 }));
    expect(t.store.cacheIndex.summary()).to.deep.equal({ entries: 3, bytes: 2148, oldest: at(10), newest: at(50) });
  });

  it('refuses invalid entries', () => {
    const bad = [
      cacheEntry('x', { format: 'xlsx' as 'csv' }),
      cacheEntry('x', { sizeBytes: -1 }),
      cacheEntry('x', { parameters: { a: Number.POSITIVE_INFINITY } }),
      cacheEntry('x', { expiresAt: 'tomorrow' }),
      cacheEntry('x', { runMs: undefined as unknown as number }),
    ];
    for (const entry of bad) expect(thrown(() => t.store.cacheIndex.upsert(entry)).code).to.equal('INVALID_RECORD');
    expect(t.store.cacheIndex.all()).to.deep.equal([]);
  });
});

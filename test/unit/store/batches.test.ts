// The batch repository: task ids come back in the order given; a refused batch writes nothing.
import { expect } from 'chai';
import { at, tempStore, thrown, type TempStore } from './helpers.js';

describe('store: batches', () => {
  let t: TempStore;
  beforeEach(() => {
    t = tempStore();
  });
  afterEach(() => t.dispose());

  it('keeps the task ids in the order given', () => {
    // An order that is neither sorted nor reverse-sorted.
    const taskIds = Array.from({ length: 50 }, (_, i) => `task-${(i * 17) % 50}`);
    t.store.batches.insert({ id: 'b1', owner: 'jobq', taskIds, createdAt: at(3) });
    t.store.batches.insert({ id: 'b2', owner: 'simulation', taskIds: ['z', 'a'], createdAt: at(4) });
    expect(t.store.batches.get('b1')).to.deep.equal({ id: 'b1', owner: 'jobq', taskIds, createdAt: at(3) });
    expect(t.store.batches.get('b2')!.taskIds).to.deep.equal(['z', 'a']);
    expect(t.store.batches.get('b3')).to.equal(undefined);
  });

  it('stores an empty batch', () => {
    t.store.batches.insert({ id: 'empty', owner: 'jobq', taskIds: [], createdAt: at(0) });
    expect(t.store.batches.get('empty')).to.deep.equal({ id: 'empty', owner: 'jobq', taskIds: [], createdAt: at(0) });
  });

  it('refuses a taken id, a repeated task and a bad task id, writing nothing', () => {
    t.store.batches.insert({ id: 'b1', owner: 'jobq', taskIds: ['a', 'b'], createdAt: at(0) });
    expect(thrown(() => t.store.batches.insert({ id: 'b1', owner: 'x', taskIds: ['c'], createdAt: at(1) })).code).to.equal('ALREADY_EXISTS');
    expect(thrown(() => t.store.batches.insert({ id: 'b2', owner: 'x', taskIds: ['c', 'd', 'c'], createdAt: at(1) })).code).to.equal('INVALID_RECORD');
    // The batch row is written before the failing third task id: it must be rolled back too.
    expect(thrown(() => t.store.batches.insert({ id: 'b3', owner: 'x', taskIds: ['c', 'd', 7 as unknown as string], createdAt: at(1) })).code).to.equal(
      'INVALID_RECORD',
    );
    expect(t.store.batches.get('b1')).to.deep.equal({ id: 'b1', owner: 'jobq', taskIds: ['a', 'b'], createdAt: at(0) });
    expect(t.store.batches.get('b2')).to.equal(undefined);
    expect(t.store.batches.get('b3')).to.equal(undefined);
  });
});

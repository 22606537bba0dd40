// Restart survival: everything written through one store is read back unchanged by a new store
// opened on the same data directory, and writing continues where it stopped.
import { expect } from 'chai';
import type { LogRecord } from '../../../src/jobs/types.js';
import { at, cacheEntry, circuitRecord, taskRecord, tempStore, type TempStore } from './helpers.js';

describe('store: restart survival', () => {
  let t: TempStore;
  beforeEach(() => {
    t = tempStore();
  });
  afterEach(() => t.dispose());

  it('reads back every kind of record after closing and reopening the directory', () => {
    const tasks = [
      taskRecord('t1', { priority: 'LOW' }),
      taskRecord('t2', { priority: 'CRITICAL', state: 'running', startedAt: at(2), attempts: 1, batchId: 'b1' }),
      taskRecord('t3', { state: 'completed', completedAt: at(9), cacheHit: true, runMs: 3.5, cacheKey: 'k1' }),
    ];
    const circuit = circuitRecord('c1', { source: Uint8Array.from([0, 1, 254, 255]) });
    const batch = { id: 'b1', owner: 'jobq', taskIds: ['t2', 't1'], createdAt: at(1) };
    const entry = cacheEntry('k1', { accessCount: 3, expiresAt: at(3600) });
    const log: LogRecord = { timestamp: at(5), level: 'ERROR', message: 'failed', taskId: 't2', duration: 4 };

    t.store.tasks.insertMany(tasks);
    t.store.tasks.update('t1', { retryAt: at(30), errorCode: 'TIMEOUT', errorMessage: 'took too long' });
    t.store.circuits.insert(circuit);
    t.store.batches.insert(batch);
    t.store.cacheIndex.upsert(entry);
    t.store.logs.append(log);
    t.store.counters.add('hits', 4);

    const store = t.reopen();
    expect(store.tasks.get('t1')).to.deep.equal({ ...tasks[0], retryAt: at(30), errorCode: 'TIMEOUT', errorMessage: 'took too long' });
    expect(store.tasks.get('t2')).to.deep.equal(tasks[1]);
    expect(store.tasks.get('t3')).to.deep.equal(tasks[2]);
    expect(store.tasks.inStates(['queued', 'running']).map((x) => x.id)).to.deep.equal(['t2', 't1']);
    expect(store.circuits.get('c1')).to.deep.equal(circuit);
    expect(store.batches.get('b1')).to.deep.equal(batch);
    expect(store.cacheIndex.get('k1')).to.deep.equal(entry);
    expect(store.logs.recent(10)).to.deep.equal([log]);
    expect(store.counters.get('hits')).to.equal(4);
  });

  it('continues the insertion order after a restart (FIFO across restarts)', () => {
    t.store.tasks.insert(taskRecord('before-1'));
    t.store.tasks.insert(taskRecord('before-2'));
    const store = t.reopen();
    store.tasks.insert(taskRecord('after-1'));
    expect(store.tasks.inStates(['queued']).map((x) => x.id)).to.deep.equal(['before-1', 'before-2', 'after-1']);
    expect(store.tasks.list({}).tasks.map((x) => x.id)).to.deep.equal(['after-1', 'before-2', 'before-1']);
  });

  it('keeps committed data when a later transaction fails before the restart', () => {
    t.store.tasks.insert(taskRecord('committed'));
    expect(() => t.store.tasks.insertMany([taskRecord('n1'), taskRecord('committed')])).to.throw();
    const store = t.reopen();
    expect(store.tasks.list({}).tasks.map((x) => x.id)).to.deep.equal(['committed']);
    expect(store.tasks.get('n1')).to.equal(undefined);
  });
});

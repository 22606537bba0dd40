// A batch made of the tasks stored with its id (BatchRepository.insertOfTasks): their ids in
// submission order, whatever the ids, only that batch's tasks, a taken id refused with nothing
// written; and the queued tasks of a batch cancelled with one statement (TaskRepository.cancelQueuedOfBatch).
import { expect } from 'chai';
import { at, taskRecord, tempStore, thrown, type TempStore } from './helpers.js';

describe('store: a batch of its stored tasks', () => {
  let t: TempStore;
  beforeEach(() => {
    t = tempStore();
  });
  afterEach(() => t.dispose());

  it('holds the tasks of its id in submission order, and only those', () => {
    // Ids in neither sorted nor reverse-sorted order, and another batch's tasks in between.
    const ids = Array.from({ length: 40 }, (_, i) => `task-${(i * 17) % 40}`);
    t.store.tasks.insertMany(ids.slice(0, 20).map((id) => taskRecord(id, { batchId: 'b1' })));
    t.store.tasks.insertMany([taskRecord('other-1', { batchId: 'b2' }), taskRecord('loose')]);
    t.store.tasks.insertMany(ids.slice(20).map((id) => taskRecord(id, { batchId: 'b1' })));
    expect(t.store.batches.insertOfTasks({ id: 'b1', owner: 'simulation', createdAt: at(1) })).to.equal(40);
    expect(t.store.batches.get('b1')).to.deep.equal({ id: 'b1', owner: 'simulation', taskIds: ids, createdAt: at(1) });
    expect(t.store.batchResults.header('b1')).to.deep.include({ size: 40 });
    expect(t.store.batches.insertOfTasks({ id: 'empty', owner: 'jobq', createdAt: at(2) })).to.equal(0);
    expect(t.store.batches.get('empty')!.taskIds).to.deep.equal([]);
  });

  it('reads the results and entries of a batch of its stored tasks in order, page after page', () => {
    const ids = Array.from({ length: 10 }, (_, i) => `r-${(i * 7) % 10}`);
    for (const [i, id] of ids.entries()) {
      // Another batch's task between each of this one's.
      t.store.tasks.insertMany([taskRecord(id, { batchId: 'b', spec: { netlist: { elements: [] } as never, parameters: { x: i } }, request: { parameters: { x: i } } }), taskRecord(`other-${i}`, { batchId: 'o' })]);
    }
    t.store.batches.insertOfTasks({ id: 'b', owner: 'simulation', createdAt: at(1) });
    const rows = [...t.store.batchResults.rows('b', 3)];
    expect(rows.map((r) => [r.position, r.taskId, r.parameters.x])).to.deep.equal(ids.map((id, i) => [i, id, i]));
    expect(t.store.batchResults.page('b', 4, 2).map((r) => [r.position, r.taskId])).to.deep.equal([[4, ids[4]], [5, ids[5]]]);
    expect(t.store.batchResults.entries('b', 3, 8).map((e) => e.taskId)).to.deep.equal(ids.slice(8));
    expect(t.store.batchResults.columns('b')).to.deep.equal({ parameters: ['x'], measurements: [] });
  });

  it('refuses a taken id and writes nothing', () => {
    t.store.tasks.insertMany([taskRecord('a', { batchId: 'b1' })]);
    t.store.batches.insertOfTasks({ id: 'b1', owner: 'jobq', createdAt: at(0) });
    expect(thrown(() => t.store.batches.insertOfTasks({ id: 'b1', owner: 'jobq', createdAt: at(1) })).code).to.equal('ALREADY_EXISTS');
    expect(thrown(() => t.store.batches.insertOfTasks({ id: 'b3', owner: 'jobq', createdAt: 'yesterday' })).code).to.equal('INVALID_RECORD');
    expect(t.store.batches.get('b3')).to.equal(undefined);
    expect(t.store.batches.get('b1')!.taskIds).to.deep.equal(['a']);
  });

  it('cancels the queued tasks of a batch in one statement and leaves the others', () => {
    t.store.tasks.insertMany([
      taskRecord('q1', { batchId: 'b', state: 'queued', retryAt: at(9) }),
      taskRecord('q2', { batchId: 'b', state: 'queued' }),
      taskRecord('r', { batchId: 'b', state: 'running', startedAt: at(1), attempts: 1 }),
      taskRecord('other', { batchId: 'c', state: 'queued' }),
    ]);
    expect(t.store.tasks.cancelQueuedOfBatch('b', at(5))).to.equal(2);
    for (const id of ['q1', 'q2']) expect(t.store.tasks.get(id)).to.include({ state: 'cancelled', completedAt: at(5), retryAt: null });
    expect(t.store.tasks.get('r')!.state).to.equal('running');
    expect(t.store.tasks.get('other')!.state).to.equal('queued');
    expect(t.store.tasks.cancelQueuedOfBatch('b', at(6))).to.equal(0);
    expect(thrown(() => t.store.tasks.cancelQueuedOfBatch('b', 'now')).code).to.equal('INVALID_RECORD');
  });
});

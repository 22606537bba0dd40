// The task repository on a real SQLite file: round trip of every field, updates, listings with
// filters and paging, scheduling order, counts, and atomicity of insertMany and of failed writes.
import { expect } from 'chai';
import { PRIORITIES, type Priority, type TaskRecord } from '../../../src/jobs/types.js';
import { at, taskRecord, tempStore, thrown, type TempStore } from './helpers.js';

describe('store: tasks', () => {
  let t: TempStore;
  beforeEach(() => {
    t = tempStore();
  });
  afterEach(() => t.dispose());

  it('returns an inserted task with every field as given', () => {
    const task = taskRecord('t1', {
      priority: 'HIGH',
      state: 'running',
      batchId: 'b1',
      startedAt: at(1),
      attempts: 2,
      cacheKey: 'abc',
      runMs: 12.25,
      retryAt: at(30),
      progress: { phase: 'main', step: 10, totalSteps: 100, time: 1e-4, percent: 10, estimatedRemainingMs: null },
      summary: { measurements: { 'SCOPE.1.ch1.avg': 23.6, 'SCOPE.1.ch1.min': -Infinity, 'SCOPE.1.ch1.max': NaN, 'SCOPE.1.ch2.avg': -0 }, signals: ['SCOPE.1.ch1', 'SCOPE.1.ch2'] },
    });
    t.store.tasks.insert(task);
    expect(t.store.tasks.get('t1')).to.deep.equal(task);
    expect(t.store.tasks.get('nope')).to.equal(undefined);
  });

  it('keeps null and undefined requests apart', () => {
    t.store.tasks.insert(taskRecord('a', { request: null }));
    t.store.tasks.insert(taskRecord('b', { request: undefined }));
    t.store.tasks.insert(taskRecord('c', { request: 'text' }));
    expect(t.store.tasks.get('a')!.request).to.equal(null);
    expect(t.store.tasks.get('b')!.request).to.equal(undefined);
    expect(t.store.tasks.get('c')!.request).to.equal('text');
  });

  it('updates the given fields, returns the stored record and ignores undefined ones', () => {
    t.store.tasks.insert(taskRecord('t1'));
    const updated = t.store.tasks.update('t1', { state: 'completed', completedAt: at(5), cacheHit: true, runMs: 7, startedAt: undefined });
    expect(updated).to.deep.equal(taskRecord('t1', { state: 'completed', completedAt: at(5), cacheHit: true, runMs: 7 }));
    expect(t.store.tasks.get('t1')).to.deep.equal(updated);
    const cleared = t.store.tasks.update('t1', { runMs: null });
    expect(cleared.runMs).to.equal(null);
    expect(t.store.tasks.update('t1', {})).to.deep.equal(cleared);
  });

  it('throws NOT_FOUND when updating an unknown task', () => {
    const error = thrown(() => t.store.tasks.update('ghost', { state: 'failed' }));
    expect(error.code).to.equal('NOT_FOUND');
    expect(error.message).to.contain('ghost');
  });

  it('updateFrom applies a patch to the given current record and stores exactly that', () => {
    const task = taskRecord('t1');
    t.store.tasks.insert(task);
    const running = t.store.tasks.updateFrom(task, { state: 'running', startedAt: at(2), attempts: 1, retryAt: undefined });
    expect(running).to.deep.equal(taskRecord('t1', { state: 'running', startedAt: at(2), attempts: 1 }));
    expect(t.store.tasks.get('t1')).to.deep.equal(running);
    // Inside a transaction (no savepoint) and together with update(): one commit, both kept.
    const done = t.store.transaction(() => t.store.tasks.updateFrom(running, { state: 'completed', completedAt: at(3), runMs: 4.5 }));
    expect(t.store.tasks.get('t1')).to.deep.equal(done);
    expect(done.state).to.equal('completed');
    expect(t.store.tasks.updateFrom(done, {})).to.deep.equal(done);
    expect(thrown(() => t.store.tasks.updateFrom(taskRecord('ghost'), { state: 'failed' })).code).to.equal('NOT_FOUND');
    expect(thrown(() => t.store.tasks.updateFrom(taskRecord('ghost'), {})).code).to.equal('NOT_FOUND');
    expect(thrown(() => t.store.tasks.updateFrom(done, { attempts: -1 })).code).to.equal('INVALID_RECORD');
    expect(t.store.tasks.get('t1')).to.deep.equal(done);
  });

  it('refuses an invalid update and leaves the stored task unchanged', () => {
    const task = taskRecord('t1');
    t.store.tasks.insert(task);
    const bad: Partial<TaskRecord>[] = [
      { state: 'exploded' as TaskRecord['state'] },
      { attempts: -1 },
      { attempts: 1.5 },
      { runMs: Number.NaN },
      { submittedAt: 'yesterday' },
      { spec: null as unknown as TaskRecord['spec'] },
      { owner: 42 as unknown as string },
      { cacheHit: 1 as unknown as boolean },
      { state: 'running', progress: { phase: 'main', step: 1, totalSteps: 2, time: Infinity, percent: 50, estimatedRemainingMs: null } },
    ];
    for (const patch of bad) {
      expect(thrown(() => t.store.tasks.update('t1', patch)).code, JSON.stringify(patch)).to.equal('INVALID_RECORD');
    }
    expect(t.store.tasks.get('t1')).to.deep.equal(task);
  });

  it('refuses a second task with the same id with ALREADY_EXISTS', () => {
    t.store.tasks.insert(taskRecord('t1', { owner: 'first' }));
    expect(thrown(() => t.store.tasks.insert(taskRecord('t1', { owner: 'second' }))).code).to.equal('ALREADY_EXISTS');
    expect(t.store.tasks.get('t1')!.owner).to.equal('first');
  });

  it('inserts all tasks of insertMany or none', () => {
    t.store.tasks.insert(taskRecord('existing'));
    const error = thrown(() => t.store.tasks.insertMany([taskRecord('n1'), taskRecord('existing'), taskRecord('n3')]));
    expect(error.code).to.equal('ALREADY_EXISTS');
    expect(t.store.tasks.get('n1')).to.equal(undefined);
    expect(t.store.tasks.get('n3')).to.equal(undefined);
    expect(t.store.tasks.list({}).total).to.equal(1);

    expect(() => t.store.tasks.insertMany([taskRecord('d'), taskRecord('d')])).to.throw();
    expect(() => t.store.tasks.insertMany([taskRecord('v1'), taskRecord('v2', { priority: 'URGENT' as Priority })])).to.throw(/priority/);
    expect(t.store.tasks.list({}).tasks.map((x) => x.id)).to.deep.equal(['existing']);

    t.store.tasks.insertMany([taskRecord('m1'), taskRecord('m2')]);
    expect(t.store.tasks.list({}).tasks.map((x) => x.id)).to.deep.equal(['m2', 'm1', 'existing']);
  });

  it('stores the tasks of insertMany that share one netlist object each with its own spec, and refuses a bad one', () => {
    const shared = taskRecord('s0').spec.netlist;
    const tasks = [1, 2, 3].map((i) => taskRecord(`s${i}`, { spec: { netlist: shared, parameters: { 'R.1.R': 1000 * i }, ...(i === 2 ? { signals: ['SCOPE.1.ch1'] } : {}) } }));
    t.store.tasks.insertMany(tasks);
    for (const task of tasks) expect(t.store.tasks.get(task.id)).to.deep.equal(task);
    // The netlist's text is not kept past the call: a netlist changed in place is stored as it is now.
    shared.settings.tEnd = 2e-3;
    t.store.tasks.insertMany([taskRecord('s4', { spec: { netlist: shared, parameters: {} } })]);
    expect(t.store.tasks.get('s4')!.spec.netlist.settings.tEnd).to.equal(2e-3);
    const bad = taskRecord('s5', { spec: { netlist: { ...shared, settings: { ...shared.settings, dt: Number.NaN } }, parameters: {} } });
    expect(thrown(() => t.store.tasks.insertMany([bad])).code).to.equal('INVALID_RECORD');
    expect(t.store.tasks.get('s5')).to.equal(undefined);
  });

  it('lists newest first with filters, paging and the total before paging', () => {
    const owners = ['simulation', 'jobq'];
    for (let i = 0; i < 30; i++) {
      t.store.tasks.insert(
        taskRecord(`t${i}`, {
          owner: owners[i % 2],
          state: i % 3 === 0 ? 'completed' : 'queued',
          batchId: i < 10 ? 'b1' : null,
          submittedAt: at(0), // equal timestamps: the insertion order decides
        }),
      );
    }
    const all = t.store.tasks.list({});
    expect(all.total).to.equal(30);
    expect(all.tasks.map((x) => x.id)).to.deep.equal(Array.from({ length: 30 }, (_, i) => `t${29 - i}`));

    const page = t.store.tasks.list({ limit: 5, offset: 10 });
    expect(page.total).to.equal(30);
    expect(page.tasks.map((x) => x.id)).to.deep.equal(['t19', 't18', 't17', 't16', 't15']);

    const jobq = t.store.tasks.list({ owner: 'jobq', states: ['completed'] });
    expect(jobq.tasks.map((x) => x.id)).to.deep.equal(['t27', 't21', 't15', 't9', 't3']);
    expect(jobq.total).to.equal(5);

    const batch = t.store.tasks.list({ batchId: 'b1', states: ['queued'], limit: 3 });
    expect(batch.total).to.equal(6);
    expect(batch.tasks.map((x) => x.id)).to.deep.equal(['t8', 't7', 't5']);

    expect(t.store.tasks.list({ states: [] })).to.deep.equal({ tasks: [], total: 0 });
    expect(t.store.tasks.list({ owner: 'nobody' })).to.deep.equal({ tasks: [], total: 0 });
    expect(t.store.tasks.list({ limit: 0 }).tasks).to.have.length(0);
    expect(t.store.tasks.list({ offset: 100 })).to.deep.equal({ tasks: [], total: 30 });
  });

  it('returns tasks in scheduling order: priority first, then FIFO, across 100 tasks', () => {
    // Priorities cycle in an order unrelated to rank; all have the same submission time.
    const cycle: Priority[] = ['LOW', 'CRITICAL', 'NORMAL', 'HIGH', 'NORMAL', 'LOW', 'HIGH'];
    const records = Array.from({ length: 100 }, (_, i) => taskRecord(`task-${String(99 - i).padStart(3, '0')}`, { priority: cycle[i % cycle.length] }));
    t.store.tasks.insertMany(records.slice(0, 50));
    for (const r of records.slice(50)) t.store.tasks.insert(r);
    t.store.tasks.update(records[3].id, { state: 'completed' });
    t.store.tasks.update(records[4].id, { state: 'paused' });

    const expected = PRIORITIES.flatMap((p) => records.filter((r, i) => r.priority === p && i !== 3 && i !== 4).map((r) => r.id));
    expect(t.store.tasks.inStates(['queued']).map((x) => x.id)).to.deep.equal(expected);

    const withPaused = t.store.tasks.inStates(['paused', 'queued']).map((x) => x.id);
    const expectedWithPaused = PRIORITIES.flatMap((p) => records.filter((r, i) => r.priority === p && i !== 3).map((r) => r.id));
    expect(withPaused).to.deep.equal(expectedWithPaused);
    expect(t.store.tasks.inStates(['completed']).map((x) => x.id)).to.deep.equal([records[3].id]);
    expect(t.store.tasks.inStates([])).to.deep.equal([]);
  });

  it('keeps the scheduling order after a restart', () => {
    const priorities: Priority[] = ['LOW', 'HIGH', 'LOW', 'CRITICAL', 'HIGH'];
    priorities.forEach((priority, i) => t.store.tasks.insert(taskRecord(`r${i}`, { priority })));
    const store = t.reopen();
    expect(store.tasks.inStates(['queued']).map((x) => x.id)).to.deep.equal(['r3', 'r1', 'r4', 'r0', 'r2']);
  });

  it('counts by state with every state present, optionally for one owner', () => {
    expect(t.store.tasks.countByState()).to.deep.equal({ queued: 0, running: 0, paused: 0, completed: 0, failed: 0, cancelled: 0 });
    t.store.tasks.insertMany([
      taskRecord('a', { state: 'queued' }),
      taskRecord('b', { state: 'queued', owner: 'jobq' }),
      taskRecord('c', { state: 'running' }),
      taskRecord('d', { state: 'failed', owner: 'jobq' }),
      taskRecord('e', { state: 'failed', owner: 'jobq' }),
    ]);
    expect(t.store.tasks.countByState()).to.deep.equal({ queued: 2, running: 1, paused: 0, completed: 0, failed: 2, cancelled: 0 });
    expect(t.store.tasks.countByState('jobq')).to.deep.equal({ queued: 1, running: 0, paused: 0, completed: 0, failed: 2, cancelled: 0 });
    expect(t.store.tasks.countByState('nobody')).to.deep.equal({ queued: 0, running: 0, paused: 0, completed: 0, failed: 0, cancelled: 0 });
  });

  it('counts the tasks of one state by priority', () => {
    t.store.tasks.insertMany([
      taskRecord('a', { priority: 'LOW' }),
      taskRecord('b', { priority: 'LOW' }),
      taskRecord('c', { priority: 'CRITICAL' }),
      taskRecord('d', { priority: 'HIGH', state: 'running' }),
    ]);
    expect(t.store.tasks.countByPriority('queued')).to.deep.equal({ CRITICAL: 1, HIGH: 0, NORMAL: 0, LOW: 2 });
    expect(t.store.tasks.countByPriority('running')).to.deep.equal({ CRITICAL: 0, HIGH: 1, NORMAL: 0, LOW: 0 });
  });

  it('rolls back every write of a failed Store.transaction', () => {
    t.store.tasks.insert(taskRecord('kept'));
    expect(() =>
      t.store.transaction(() => {
        t.store.tasks.insert(taskRecord('gone'));
        t.store.tasks.update('kept', { state: 'running', attempts: 1 });
        t.store.counters.add('hits', 5);
        throw new Error('abort');
      }),
    ).to.throw('abort');
    expect(t.store.tasks.get('gone')).to.equal(undefined);
    expect(t.store.tasks.get('kept')).to.deep.equal(taskRecord('kept'));
    expect(t.store.counters.get('hits')).to.equal(0);
    expect(t.store.transaction(() => 42)).to.equal(42);
  });
});

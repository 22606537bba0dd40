// Schema version 4: the shared parts of a submission's tasks stored once (task templates), counts
// per state kept by triggers, and the upgrade of a version-3 database that keeps every task, its
// sequence and its batch.
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { migrate, MIGRATIONS } from '../../../src/store/migrations.js';
import { DATABASE_FILE } from '../../../src/store/open.js';
import type { TaskRecord } from '../../../src/jobs/types.js';
import { rcStep } from '../../fixtures/circuits.js';
import { at, taskRecord, tempStore, thrown, type TempStore } from './helpers.js';

describe('store: task templates and kept counts (schema 4)', () => {
  let t: TempStore;
  beforeEach(() => {
    t = tempStore();
  });
  afterEach(() => t.dispose());

  const count = (sql: string): unknown => {
    const db = new Database(join(t.dir, DATABASE_FILE), { readonly: true });
    try {
      return db.prepare(sql).pluck().get();
    } finally {
      db.close();
    }
  };

  /** A sweep's tasks as the services build them: one netlist object, each its own parameters. */
  function sweep(n: number, batchId: string | null = 'b1'): TaskRecord[] {
    const netlist = rcStep('trapezoidal', 1e-6);
    const request = { circuitName: 'rc', parameters: {}, nested: { list: [1, 2] } };
    return Array.from({ length: n }, (_, i) => taskRecord(`s${i}`, {
      batchId,
      spec: { netlist, parameters: { 'R.1.R': 1000 + i }, signals: ['SCOPE.1.ch1'] },
      request: { ...request, parameters: { 'R.1.R': 1000 + i } },
    }));
  }

  it('stores the netlist of a sweep once and reads every task back as given, key order included', () => {
    const tasks = sweep(50);
    const seqs = t.store.tasks.insertMany(tasks);
    expect(seqs).to.have.length(50);
    expect(seqs.every((seq, i) => i === 0 || seq === seqs[i - 1] + 1)).to.equal(true);
    expect(count('SELECT count(*) FROM task_templates')).to.equal(1);
    expect(count("SELECT count(*) FROM tasks WHERE template_id IS NOT NULL AND spec NOT LIKE '%netlist%'")).to.equal(50);
    for (const task of tasks) {
      const stored = t.store.tasks.get(task.id)!;
      expect(stored).to.deep.equal(task);
      expect(Object.keys(stored.spec)).to.deep.equal(Object.keys(task.spec));
      expect(Object.keys(stored.request as object)).to.deep.equal(Object.keys(task.request as object));
    }
    // A listing decodes the template once for its page; the records still are their own objects.
    const listed = t.store.tasks.list({ batchId: 'b1', limit: 10 }).tasks;
    expect(listed.map((x) => x.id)).to.deep.equal(tasks.slice(40).reverse().map((x) => x.id));
    listed[0].spec.parameters['R.1.R'] = -1;
    expect(listed[1].spec.parameters['R.1.R']).to.equal(1048);
  });

  it('keeps tasks whole that share nothing, and requests that are not objects', () => {
    const netlist = rcStep('trapezoidal', 1e-6);
    const tasks = [
      taskRecord('a', { spec: { netlist, parameters: {} }, request: 'text' }),
      taskRecord('b', { spec: { netlist, parameters: {} }, request: 'text' }),
      taskRecord('c', { spec: { netlist, parameters: {} }, request: undefined }),
      taskRecord('d', { spec: { netlist: rcStep('backward-euler', 1e-6), parameters: {} }, request: null }),
    ];
    t.store.tasks.insertMany(tasks);
    // a, b and c share the netlist (their requests, not objects, stay whole in their rows); d is alone.
    expect(count('SELECT count(*) FROM task_templates')).to.equal(1);
    expect(count('SELECT id FROM tasks WHERE template_id IS NULL')).to.equal('d');
    for (const task of tasks) expect(t.store.tasks.get(task.id)).to.deep.equal(task);
    expect(t.store.tasks.get('c')!.request).to.equal(undefined);
    expect(t.store.tasks.get('d')!.request).to.equal(null);
  });

  it('shares a template between requests equal but not the same objects, never between different ones', () => {
    const netlist = rcStep('trapezoidal', 1e-6);
    const item = (id: string, request: unknown): TaskRecord => taskRecord(id, { spec: { netlist, parameters: { x: 1 } }, request });
    const tasks = [
      item('j0', { model_file: 'a.json', parameters: { x: 1 }, metadata: {} }),
      item('j1', { model_file: 'a.json', parameters: { x: 2 }, metadata: {} }),
      item('j2', { model_file: 'a.json', metadata: {} }), // no parameters: not the template of j0, j1
      item('j3', { model_file: 'a.json', metadata: {} }),
      item('j4', { model_file: 'b.json', parameters: { x: 1 }, metadata: { tag: 1 } }),
      item('j5', { model_file: 'b.json', parameters: { x: 1 }, metadata: { tag: 2 } }),
    ];
    t.store.tasks.insertMany(tasks);
    expect(count('SELECT count(*) FROM task_templates')).to.equal(2);
    expect(count("SELECT group_concat(id) FROM tasks WHERE template_id IS NULL")).to.equal('j4,j5');
    for (const task of tasks) expect(t.store.tasks.get(task.id)).to.deep.equal(task);
    expect(t.store.tasks.get('j2')!.request).to.not.have.property('parameters');
  });

  it('shares a template between tasks whose small parts are equal but their own objects, never between different ones', () => {
    const netlist = rcStep('trapezoidal', 1e-6);
    const item = (id: string, value: number, extra: Record<string, unknown> = {}): TaskRecord => taskRecord(id, {
      spec: { netlist, parameters: { 'R.1.R': value }, signals: ['SCOPE.1.ch1'] },
      request: { model_file: 'rc.json', parameters: { 'R.1.R': value }, metadata: {}, outputs: [['a', 1]], ...extra },
    });
    const tasks = [
      item('m0', 1), item('m1', 2), item('m2', 3),
      item('m3', 4, { when: new Date(0) }), item('m4', 5, { when: new Date(1) }), // encode differently
      item('m5', 6, { metadata: { tag: 'x' } }), item('m6', 7, { metadata: { tag: 'y' } }),
    ];
    t.store.tasks.insertMany(tasks);
    expect(count('SELECT count(*) FROM task_templates')).to.equal(1);
    expect(count('SELECT group_concat(id) FROM tasks WHERE template_id IS NULL')).to.equal('m3,m4,m5,m6');
    for (const task of tasks.slice(0, 3)) expect(t.store.tasks.get(task.id)).to.deep.equal(task);
    expect((t.store.tasks.get('m4')!.request as { when: string }).when).to.equal(new Date(1).toISOString());
  });

  it('tells the next task of a sweep by the identity of its parts, key order and a changed part included', () => {
    const netlist = rcStep('trapezoidal', 1e-6);
    const signals = ['SCOPE.1.ch1'];
    const request = { circuitName: 'rc', metadata: {} };
    // Spec and request of one task may hold one parameters object (a serve sweep does).
    const shared = (id: string, value: number): TaskRecord => {
      const parameters = { 'R.1.R': value };
      return taskRecord(id, { spec: { netlist, parameters, signals }, request: { ...request, parameters } });
    };
    const tasks = [
      shared('k0', 1),
      shared('k1', 2),
      // The same parts in another key order: a template of its own, read back in its order.
      taskRecord('k2', { spec: { parameters: { 'R.1.R': 3 }, netlist, signals }, request: { ...request, parameters: { 'R.1.R': 3 } } }),
      taskRecord('k3', { spec: { parameters: { 'R.1.R': 4 }, netlist, signals }, request: { ...request, parameters: { 'R.1.R': 4 } } }),
      // Another signals list (equal text, another object), then another netlist object.
      taskRecord('k4', { spec: { netlist, parameters: { 'R.1.R': 5 }, signals: ['SCOPE.1.ch1'] }, request: { ...request, parameters: { 'R.1.R': 5 } } }),
      taskRecord('k5', { spec: { netlist: rcStep('backward-euler', 1e-6), parameters: { 'R.1.R': 6 }, signals }, request: { ...request, parameters: { 'R.1.R': 6 } } }),
      shared('k6', 7),
    ];
    t.store.tasks.insertMany(tasks);
    // k0, k1, k4 and k6 share one template (equal texts), k2 and k3 another; k5 is alone.
    expect(count('SELECT count(*) FROM task_templates')).to.equal(2);
    expect(count('SELECT group_concat(id) FROM tasks WHERE template_id IS NULL')).to.equal('k5');
    for (const task of tasks) {
      const stored = t.store.tasks.get(task.id)!;
      expect(stored).to.deep.equal(task);
      expect(Object.keys(stored.spec)).to.deep.equal(Object.keys(task.spec));
    }
    // Read back, spec and request hold parameters objects of their own.
    const k0 = t.store.tasks.get('k0')!;
    expect(k0.spec.parameters).to.not.equal((k0.request as { parameters: object }).parameters);
  });

  it('writes a changed spec or request whole, leaving the other tasks of the template as they were', () => {
    const tasks = sweep(3);
    t.store.tasks.insertMany(tasks);
    const spec = { netlist: rcStep('backward-euler', 1e-6), parameters: { 'R.1.R': 5 } };
    expect(t.store.tasks.update('s1', { spec }).spec).to.deep.equal(spec);
    expect(t.store.tasks.get('s1')).to.deep.equal({ ...tasks[1], spec });
    expect(t.store.tasks.updateFrom(tasks[2], { request: { other: true } }).request).to.deep.equal({ other: true });
    expect(t.store.tasks.get('s2')).to.deep.equal({ ...tasks[2], request: { other: true } });
    expect(t.store.tasks.get('s0')).to.deep.equal(tasks[0]);
  });

  it('refuses a task of a sweep with a non-finite parameter and stores none of the sweep', () => {
    const tasks = sweep(4);
    tasks[2].spec.parameters['R.1.R'] = Number.NaN;
    expect(thrown(() => t.store.tasks.insertMany(tasks)).code).to.equal('INVALID_RECORD');
    expect(count('SELECT count(*) FROM tasks')).to.equal(0);
    expect(count('SELECT count(*) FROM task_templates')).to.equal(0);
  });

  it('pages the queued tasks of one priority in order after a sequence number', () => {
    const tasks = sweep(10);
    tasks[3].priority = 'HIGH';
    tasks[5].state = 'completed';
    const seqs = t.store.tasks.insertMany(tasks);
    const first = t.store.tasks.queuedPage('NORMAL', 0, 4);
    expect(first.map((x) => x.task.id)).to.deep.equal(['s0', 's1', 's2', 's4']);
    expect(first.map((x) => x.seq)).to.deep.equal([seqs[0], seqs[1], seqs[2], seqs[4]]);
    expect(first[3].task).to.deep.equal(tasks[4]);
    expect(t.store.tasks.queuedPage('NORMAL', first[3].seq, 10).map((x) => x.task.id)).to.deep.equal(['s6', 's7', 's8', 's9']);
    expect(t.store.tasks.queuedPage('HIGH', 0, 10).map((x) => x.task.id)).to.deep.equal(['s3']);
    expect(t.store.tasks.queuedPage('LOW', 0, 10)).to.deep.equal([]);
  });

  it('keeps the counts per owner, per batch and state through inserts, updates and the batch cancel', () => {
    t.store.tasks.insertMany([...sweep(6), taskRecord('other', { owner: 'jobq' })]);
    t.store.tasks.update('s0', { state: 'running' });
    t.store.tasks.update('s0', { state: 'completed', completedAt: at(1) });
    t.store.tasks.update('s1', { state: 'failed', completedAt: at(1) });
    t.store.tasks.update('s1', { errorMessage: 'no state change' });
    expect(t.store.tasks.cancelQueuedOfBatch('b1', at(2))).to.equal(4);
    expect(t.store.tasks.countByState('simulation')).to.deep.equal({ queued: 0, running: 0, paused: 0, completed: 1, failed: 1, cancelled: 4 });
    expect(t.store.tasks.countByState()).to.deep.equal({ queued: 1, running: 0, paused: 0, completed: 1, failed: 1, cancelled: 4 });
    expect(t.store.batchResults.countByState('b1')).to.deep.equal({ completed: 1, failed: 1, cancelled: 4 });
    expect(t.store.batchResults.countByState('none')).to.deep.equal({});
    // The kept counts are the rows' counts.
    expect(count("SELECT count(*) FROM tasks WHERE state = 'cancelled'")).to.equal(4);
  });

  it('upgrades a version-3 database: every task, its batch, its sequence and the counts', () => {
    t.store.close();
    const file = join(t.dir, DATABASE_FILE);
    rmDatabase(file);
    const db = new Database(file);
    const v3 = MIGRATIONS.filter((m) => m.version <= 3);
    migrate(db, 'v3', v3);
    const insert = db.prepare(`INSERT INTO tasks (id, owner, priority, state, spec, request, batch_id, submitted_at, started_at, completed_at, attempts,
      error_code, error_message, cache_hit, cache_key, run_ms, retry_at, progress, summary) VALUES
      (@id, @owner, @priority, @state, @spec, @request, @batch, @submitted, @started, @completed, @attempts, @code, @message, @hit, @key, @runMs, @retry, @progress, @summary)`);
    const rows = [
      { id: 'old-1', owner: 'simulation', priority: 'HIGH', state: 'completed', batch: 'ob', started: at(1), completed: at(2), attempts: 1, runMs: 1.5, summary: '{"measurements":{"x":1},"signals":["x"]}', progress: '{"phase":"done","step":1,"totalSteps":1,"time":0,"percent":100,"estimatedRemainingMs":0}' },
      { id: 'old-2', owner: 'simulation', priority: 'NORMAL', state: 'queued', batch: 'ob', retry: at(9) },
      { id: 'old-3', owner: 'jobq', priority: 'LOW', state: 'failed', code: 'E', message: 'bad', completed: at(3), attempts: 4 },
    ];
    const defaults = { spec: '{"netlist":{"elements":[]},"parameters":{"R.1.R":2}}', request: '{"parameters":{"R.1.R":2},"circuitName":"old"}', batch: null, submitted: at(0), started: null, completed: null, attempts: 0, code: null, message: null, hit: 0, key: null, runMs: null, retry: null, progress: null, summary: null };
    for (const row of rows) insert.run({ ...defaults, ...row });
    db.prepare("INSERT INTO batches (id, owner, created_at) VALUES ('ob', 'simulation', ?)").run(at(0));
    db.prepare("INSERT INTO batch_tasks (batch_id, position, task_id) SELECT 'ob', seq - 1, id FROM tasks WHERE batch_id = 'ob'").run();
    const before = db.prepare('SELECT * FROM tasks ORDER BY seq').all() as Record<string, unknown>[];
    // A task inserted and gone in v3 would have left the sequence above max(seq): keep it so.
    db.prepare("UPDATE sqlite_sequence SET seq = 10 WHERE name = 'tasks'").run();
    db.close();

    const store = t.reopen();
    const after = new Database(file, { readonly: true });
    try {
      const copied = after.prepare('SELECT * FROM tasks ORDER BY seq').all() as Record<string, unknown>[];
      expect(copied.map(({ template_id, ...rest }) => (expect(template_id).to.equal(null), rest))).to.deep.equal(before);
      expect(after.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'tasks'").pluck().get()).to.equal(10);
      expect(after.prepare("SELECT count(*) FROM sqlite_sequence WHERE name = 'tasks_v4'").pluck().get()).to.equal(0);
    } finally {
      after.close();
    }
    expect(store.tasks.get('old-2')).to.include({ state: 'queued', retryAt: at(9), batchId: 'ob' });
    expect(store.tasks.get('old-1')!.spec).to.deep.equal({ netlist: { elements: [] }, parameters: { 'R.1.R': 2 } });
    expect(store.tasks.countByState('simulation')).to.include({ completed: 1, queued: 1 });
    expect(store.tasks.countByState('jobq')).to.include({ failed: 1 });
    expect(store.batchResults.countByState('ob')).to.deep.equal({ completed: 1, queued: 1 });
    expect(store.batchResults.header('ob')).to.include({ size: 2, owner: 'simulation' });
    expect([...store.batchResults.rows('ob')].map((r) => [r.position, r.taskId, r.parameters])).to.deep.equal([[0, 'old-1', { 'R.1.R': 2 }], [1, 'old-2', { 'R.1.R': 2 }]]);
    // New tasks go on after the kept sequence, with templates.
    const seqs = store.tasks.insertMany(sweep(2, 'nb'));
    expect(seqs).to.deep.equal([11, 12]);
    expect(store.tasks.inStates(['queued']).map((x) => x.id)).to.deep.equal(['old-2', 's0', 's1']);
  });
});

function rmDatabase(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
}

// Runs sent to the embedded executor's threads in groups (src/jobs/executors/embedded.ts): each
// still gets its own record, result file and state events; a run cancelled while it waits in its
// group does not start; a group that outlasts its window leaves the rest to be sent again. And the
// queued tasks of a batch cancelled with one statement, each with its state event. The netlist the
// runs of a group share is checked once.
import { expect } from 'chai';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunController } from '../../../src/engine/index.js';
import type { Netlist } from '../../../src/formats/netlist.js';
import { readResult } from '../../../src/jobs/cache/formats/index.js';
import runTasks, { type GroupAnswer } from '../../../src/jobs/executors/embedded-worker.js';
import type { ExecutionRequest } from '../../../src/jobs/executors/types.js';
import type { TaskRecord, TaskState } from '../../../src/jobs/types.js';
import { buck, rcStep } from '../../fixtures/circuits.js';
import { task, testRuntime, waitForState, type TestRuntime } from './harness.js';

describe('jobs: runs sent in groups', function () {
  this.timeout(120_000);
  let runtime: TestRuntime | undefined;
  afterEach(async () => {
    await runtime?.dispose();
    runtime = undefined;
  });

  it('give each run of a sweep of short runs its own record, result file and state events', async () => {
    runtime = testRuntime((s) => {
      s.cache.enabled = false;
      s.scheduler.queueSize = 1000;
    });
    const netlist = rcStep('backward-euler', 1e-5, 1e-4);
    const items = Array.from({ length: 300 }, (_, i) => ({ ...task(netlist, 'NORMAL', { 'R.1.R': 100 + i }), batchId: 'sweep' }));
    const seen = new Map<string, TaskState[]>();
    let capacity = 0;
    runtime.events.on('state', (t: TaskRecord) => {
      seen.set(t.id, [...(seen.get(t.id) ?? []), t.state]);
      capacity = Math.max(capacity, runtime!.executor.capacity);
    });
    const tasks = await runtime.scheduler.submitMany(items);
    const done = await Promise.all(tasks.map((t) => waitForState(runtime!, t.id, ['completed', 'failed'])));
    // Short runs were sent several per message: the executor took more runs than it has threads.
    expect(capacity).to.be.greaterThan(2);
    for (const record of done) {
      expect(record.state, record.errorMessage ?? '').to.equal('completed');
      expect(seen.get(record.id)).to.deep.equal(['queued', 'running', 'completed']);
      expect(record.summary?.signals.length).to.be.greaterThan(0);
      expect(existsSync(runtime.scheduler.resultPath(record.id))).to.equal(true);
    }
    // Each run ran its own parameters: the stored results differ from one resistance to the next.
    const [first, last] = await Promise.all([runtime.scheduler.result(tasks[0].id), runtime.scheduler.result(tasks[299].id)]);
    const end = (r: typeof first): number[] => Object.values(r.signals).map((s) => s[s.length - 1]);
    expect(end(first)).to.not.deep.equal(end(last));
    expect(runtime.scheduler.batchStateCounts('sweep')).to.deep.equal({ completed: 300 });
  });

  it('does not start a run cancelled while it waits in its group, and leaves the runs past the window', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pesim-group-'));
    const request = (i: number, cancelled = false): ExecutionRequest => {
      const controller = new RunController();
      if (cancelled) controller.cancel();
      return { taskId: `t${i}`, spec: { netlist: rcStep('backward-euler', 1e-5, 1e-4), parameters: { 'R.1.R': 100 + i } }, buffers: controller.buffers, output: { path: join(dir, `t${i}.parquet`), format: 'parquet', compression: 'snappy', sync: false } };
    };
    const answer = (await runTasks({ group: [request(0), request(1, true), request(2)], windowMs: 60_000 })) as GroupAnswer;
    expect(answer.outcomes.map((o) => o.ok)).to.deep.equal([true, false, true]);
    expect(answer.outcomes[1]).to.deep.include({ ok: false });
    expect((answer.outcomes[1] as { error: { code: string } }).error.code).to.equal('CANCELLED');
    expect(existsSync(join(dir, 't1.parquet'))).to.equal(false);
    expect(existsSync(join(dir, 't2.parquet'))).to.equal(true);
    expect(answer.runMs).to.have.length(3);
    // A window of 0: the first run is made, the others are left to the executor.
    const cut = (await runTasks({ group: [request(3), request(4), request(5)], windowMs: 0 })) as GroupAnswer;
    expect(cut.outcomes).to.have.length(1);
    expect(cut.outcomes[0].ok).to.equal(true);
    expect(existsSync(join(dir, 't4.parquet'))).to.equal(false);
  });

  it('runs the netlist that the runs of a group share with the parameters of each, and fails every run of a netlist of the wrong shape', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pesim-group-'));
    const request = (netlist: unknown, i: number): ExecutionRequest => ({
      taskId: `s${i}`, spec: { netlist: netlist as Netlist, parameters: { 'R.1.R': 100 + i } }, buffers: new RunController().buffers,
      output: { path: join(dir, `s${i}.parquet`), format: 'parquet', compression: 'snappy', sync: false },
    });
    // One netlist object for the runs of a sweep, as a message to the thread carries it.
    const shared = rcStep('backward-euler', 1e-5, 1e-4);
    const answer = (await runTasks({ group: [0, 1, 2].map((i) => request(shared, i)), windowMs: 60_000 })) as GroupAnswer;
    expect(answer.outcomes.map((o) => o.ok)).to.deep.equal([true, true, true]);
    const ends = await Promise.all([0, 2].map(async (i) => Object.values((await readResult(join(dir, `s${i}.parquet`), 'parquet')).signals).map((v) => v[v.length - 1])));
    expect(ends[0]).to.not.deep.equal(ends[1]);
    // A netlist of the wrong shape fails each run that shares it with the schema's message.
    const broken = { ...rcStep('backward-euler', 1e-5, 1e-4), elements: 'none' };
    const refused = (await runTasks({ group: [3, 4].map((i) => request(broken, i)), windowMs: 60_000 })) as GroupAnswer;
    for (const outcome of refused.outcomes) {
      expect(outcome.ok).to.equal(false);
      const { error } = outcome as { error: { code: string; message: string; deterministic: boolean } };
      expect(error).to.deep.include({ code: 'NETLIST_INVALID', deterministic: true });
      expect(error.message).to.match(/elements/);
    }
  });

  it('cancels the queued tasks of a batch in one statement, each with its state event, and leaves its running ones', async () => {
    runtime = testRuntime((s) => {
      s.cache.enabled = false;
      s.maxConcurrentSimulations = 1;
      s.scheduler.queueSize = 1000;
    });
    const items = Array.from({ length: 200 }, (_, i) => ({ ...task(buck({ tEnd: 2e-3 }), 'NORMAL', { 'R.1.R': 2 + i * 1e-3 }), batchId: 'c' }));
    const other = await runtime.scheduler.submit(task(buck({ tEnd: 2e-3 })));
    const tasks = await runtime.scheduler.submitMany(items);
    const cancelledEvents = new Set<string>();
    runtime.events.on('state', (t: TaskRecord) => {
      if (t.state === 'cancelled') cancelledEvents.add(t.id);
    });
    const queuedBefore = runtime.store.batchResults.countByState('c').queued ?? 0;
    const cancelled = runtime.scheduler.cancelQueuedOfBatch('c');
    expect(cancelled).to.equal(queuedBefore);
    expect(cancelled).to.be.greaterThan(150);
    expect(cancelledEvents.size).to.equal(cancelled);
    const stored = runtime.store.batchResults.countByState('c');
    expect(stored.queued ?? 0).to.equal(0);
    expect(stored.cancelled).to.equal(cancelled);
    expect(runtime.scheduler.batchStateCounts('c')).to.deep.equal(stored);
    for (const id of cancelledEvents) {
      const record = runtime.store.tasks.get(id)!;
      expect(record).to.include({ state: 'cancelled', retryAt: null });
      expect(record.completedAt).to.be.a('string');
    }
    expect(runtime.store.logs.recent(20).map((l) => l.message)).to.include(`cancelled ${cancelled} queued tasks of batch c`);
    expect(runtime.scheduler.cancelQueuedOfBatch('c')).to.equal(0);
    // The runs in progress and the task outside the batch end as they would have.
    const ends = await Promise.all([other, ...tasks].map((t) => waitForState(runtime!, t.id, ['completed', 'cancelled', 'failed'])));
    expect(ends[0].state).to.equal('completed');
    expect(ends.slice(1).filter((t) => t.state === 'completed').length).to.equal(200 - cancelled);
  });
});

// The scheduler holds a window of the queued tasks, not all of them: a batch larger than the window
// waits in the store and is paged in. Its runs still start in priority and submission order, a
// higher priority submitted later still goes first, cancels reach tasks held or not, and a restart
// takes up the queued tasks from the store.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TaskRecord } from '../../../src/jobs/types.js';
import { rcStep } from '../../fixtures/circuits.js';
import { task, testRuntime, waitForState, type TestRuntime } from './harness.js';

const WINDOW = 4;

describe('jobs: the queue window', function () {
  this.timeout(120_000);
  let runtime: TestRuntime | undefined;
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pesim-window-'));
  });
  afterEach(async () => {
    await runtime?.dispose();
    runtime = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  const open = (threads = 1): TestRuntime =>
    testRuntime((s) => {
      s.cache.enabled = false;
      s.maxConcurrentSimulations = threads;
      s.scheduler.queueWindow = WINDOW;
    }, {}, dir);
  const sweep = (n: number, priority: 'NORMAL' | 'CRITICAL' = 'NORMAL', batchId = 'b') =>
    Array.from({ length: n }, (_, i) => ({ ...task(rcStep('backward-euler', 1e-5, 1e-4), priority, { 'R.1.R': 100 + i }), batchId }));

  it('runs a batch larger than the window in submission order, a later CRITICAL task first', async () => {
    runtime = open();
    const started: string[] = [];
    runtime.events.on('state', (t: TaskRecord) => {
      if (t.state === 'running') started.push(t.id);
    });
    const normal = await runtime.scheduler.submitMany(sweep(25));
    const [critical] = await runtime.scheduler.submitMany(sweep(1, 'CRITICAL', 'c'));
    await Promise.all([...normal, critical].map((t) => waitForState(runtime!, t.id, ['completed'])));
    // The CRITICAL task starts as soon as a thread is free: after at most the runs started before it came.
    const criticalAt = started.indexOf(critical.id);
    expect(criticalAt).to.be.within(0, WINDOW);
    expect(started.filter((id) => id !== critical.id)).to.deep.equal(normal.map((t) => t.id));
    expect(runtime.store.batchResults.countByState('b')).to.deep.equal({ completed: 25 });
  });

  it('cancels the queued tasks of a batch, held or still in the store, each with its event', async () => {
    runtime = open();
    const cancelled = new Set<string>();
    runtime.events.on('state', (t: TaskRecord) => {
      if (t.state === 'cancelled') cancelled.add(t.id);
    });
    const tasks = await runtime.scheduler.submitMany(sweep(40));
    const queued = runtime.scheduler.cancelQueuedOfBatch('b');
    expect(queued).to.be.greaterThan(40 - WINDOW - 2);
    const rest = runtime.scheduler.cancelMany(runtime.store.batchResults.idsInStates('b', ['queued', 'running', 'paused'], 100));
    await Promise.all(tasks.map((t) => waitForState(runtime!, t.id, ['completed', 'cancelled'])));
    const counts = runtime.store.batchResults.countByState('b');
    expect((counts.completed ?? 0) + (counts.cancelled ?? 0)).to.equal(40);
    expect(counts.cancelled).to.equal(queued + rest);
    expect(cancelled.size).to.equal(queued + rest);
    // Nothing of the batch is left to start.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(runtime.store.batchResults.countByState('b')).to.deep.equal(counts);
  });

  it('takes up after a restart the queued tasks it never held', async () => {
    runtime = open();
    const tasks = await runtime.scheduler.submitMany(sweep(30));
    await runtime.close(); // stops at once: most tasks are still queued in the store
    runtime = open(2);
    await Promise.all(tasks.map((t) => waitForState(runtime!, t.id, ['completed'])));
    expect(runtime.store.batchResults.countByState('b')).to.deep.equal({ completed: 30 });
  });
});

// The scheduler on the real store, cache and embedded executor: priority order under load,
// retries with back-off (manual clock), time-outs, cancel/pause/resume reaching the engine, worker
// crashes, queue limits and progress events.
import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ManualClock } from '../../../src/jobs/clock.js';
import { QueueFullError, InvalidStateError } from '../../../src/jobs/errors.js';
import { EmbeddedExecutor } from '../../../src/jobs/executors/embedded.js';
import type { ExecutionOutcome, ExecutionRequest, Executor } from '../../../src/jobs/executors/types.js';
import type { Priority, TaskProgress, TaskRecord } from '../../../src/jobs/types.js';
import { PRIORITIES } from '../../../src/jobs/types.js';
import { buck, dc } from '../../fixtures/circuits.js';
import { sleep, task, testRuntime, waitForState, type TestRuntime } from './harness.js';

// Fails transiently a given number of times, then runs the task on a real embedded pool.
class FlakyExecutor implements Executor {
  readonly name = 'flaky';
  readonly capacity = 1;
  attempts = 0;
  constructor(private failures: number, private readonly inner: Executor) {}
  async run(request: ExecutionRequest): Promise<ExecutionOutcome> {
    this.attempts++;
    if (this.failures-- > 0) return { ok: false, error: { code: 'SIMULATOR_CONNECTION_ERROR', message: 'connection refused', deterministic: false } };
    return this.inner.run(request);
  }
  connected(): boolean {
    return true;
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

// Runs tasks on a real embedded pool; between the end of a run and the scheduler seeing it, moves
// the manual clock past the task time-out (the time-out firing while the result is encoded).
class LateTimeoutExecutor implements Executor {
  readonly name = 'late-timeout';
  readonly capacity = 1;
  constructor(private readonly inner: Executor, private readonly clock: ManualClock, private readonly timeoutMs: number) {}
  async run(request: ExecutionRequest): Promise<ExecutionOutcome> {
    const outcome = await this.inner.run(request);
    this.clock.advance(this.timeoutMs + 1);
    return outcome;
  }
  connected(): boolean {
    return true;
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

describe('scheduler', function () {
  this.timeout(60_000);
  let runtime: TestRuntime | undefined;
  afterEach(async () => {
    await runtime?.dispose();
    runtime = undefined;
  });

  it('starts 100 queued tasks strictly by priority, FIFO within a priority, on 2 workers', async () => {
    runtime = testRuntime((s) => (s.cache.enabled = false));
    const starts: string[] = [];
    runtime.events.on('state', (t) => {
      if (t.state === 'running' && t.attempts === 1) starts.push(t.id);
    });
    // Two long runs occupy both workers while the 100 tasks are queued.
    const blockers = await runtime.scheduler.submitMany([task(buck({ tEnd: 0.15 })), task(buck({ tEnd: 0.15 }))]);
    const priorities: Priority[] = Array.from({ length: 100 }, (_, i) => PRIORITIES[(i * 7 + 3) % 4]);
    const submitted = await runtime.scheduler.submitMany(priorities.map((p) => task(buck({ tEnd: 1e-3 }), p)));
    await Promise.all(submitted.map((t) => waitForState(runtime!, t.id, ['completed'])));
    const expected = submitted
      .map((t, index) => ({ id: t.id, rank: PRIORITIES.indexOf(t.priority), index }))
      .sort((a, b) => a.rank - b.rank || a.index - b.index)
      .map((t) => t.id);
    expect(starts.slice(0, 2)).to.have.members(blockers.map((b) => b.id));
    expect(starts.slice(2)).to.deep.equal(expected);
  });

  it('retries transient failures after 5, 10 and 20 s (retry_delay · 2^(n−1)) and then succeeds', async () => {
    const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
    const flaky = new FlakyExecutor(3, new EmbeddedExecutor({ threads: 1 }));
    runtime = testRuntime((s) => (s.cache.enabled = false), { executor: flaky, clock });
    const [t] = await runtime.scheduler.submitMany([task()]);
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const queued = await waitForState(runtime, t.id, ['queued']);
      while (runtime.store.tasks.get(t.id)!.retryAt === null || flaky.attempts < attempt) await sleep(1);
      const record = runtime.store.tasks.get(t.id)!;
      const wait = Date.parse(record.retryAt!) - clock.now();
      waits.push(wait);
      expect(queued.state).to.equal('queued');
      clock.advance(wait - 1);
      await sleep(5);
      expect(flaky.attempts, 'not started before its back-off').to.equal(attempt);
      clock.advance(1);
    }
    const done = await waitForState(runtime, t.id, ['completed', 'failed']);
    expect(waits).to.deep.equal([5000, 10000, 20000]);
    expect(done.state).to.equal('completed');
    expect(done.attempts).to.equal(4);
  });

  it('does not retry a deterministic failure (invalid circuit)', async () => {
    runtime = testRuntime();
    const bad = buck({ tEnd: 1e-3 });
    bad.elements.push(dc('V.2', 'in', '0', 5));
    const [t] = await runtime.scheduler.submitMany([task(bad)]);
    const done = await waitForState(runtime, t.id, ['failed']);
    expect(done.attempts).to.equal(1);
    expect(done.errorCode).to.equal('VOLTAGE_SOURCE_LOOP');
    expect(done.errorMessage).to.contain('V.2');
  });

  it('stops a run that exceeds the time-out, retries it, and fails it with TIMEOUT', async () => {
    runtime = testRuntime((s) => {
      s.scheduler.taskTimeoutMs = 100;
      s.scheduler.retryAttempts = 1;
      s.scheduler.retryDelayMs = 10;
    });
    const [t] = await runtime.scheduler.submitMany([task(buck({ tEnd: 2 }))]);
    const done = await waitForState(runtime, t.id, ['failed']);
    expect(done.errorCode).to.equal('TIMEOUT');
    expect(done.attempts).to.equal(2);
    // Stopped mid-run, not run to its end: the failed task keeps the progress the engine reached.
    expect(done.progress?.percent).to.be.below(100);
  });

  it('holds a time-out that fires after the engine finished stepping (no completed result, TIMEOUT)', async () => {
    const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
    const executor = new LateTimeoutExecutor(new EmbeddedExecutor({ threads: 1 }), clock, 0.2);
    runtime = testRuntime((s) => {
      s.cache.enabled = false;
      s.scheduler.taskTimeoutMs = 0.2;
      s.scheduler.retryAttempts = 0;
    }, { executor, clock });
    const [t] = await runtime.scheduler.submitMany([task()]);
    const done = await waitForState(runtime, t.id, ['failed', 'completed']);
    expect(done.state).to.equal('failed');
    expect(done.errorCode).to.equal('TIMEOUT');
    expect(done.errorMessage).to.contain('0.2 ms');
  });

  it('keeps the progress a cancelled run reached (not the last stored poll)', async () => {
    runtime = testRuntime((s) => {
      s.cache.enabled = false;
      s.scheduler.progressIntervalMs = 60_000; // no poll stores progress during the run
    });
    const [t] = await runtime.scheduler.submitMany([task(buck({ tEnd: 5 }))]);
    await waitForState(runtime, t.id, ['running']);
    while ((runtime.scheduler.progress(t.id)?.step ?? 0) < 10_000) await sleep(2);
    const before = runtime.scheduler.progress(t.id)!.step;
    const cancelled = runtime.scheduler.cancel(t.id);
    expect(cancelled.progress?.step).to.be.at.least(before);
    await sleep(50);
    const stored = runtime.store.tasks.get(t.id)!;
    expect(stored.state).to.equal('cancelled');
    expect(stored.progress?.step).to.equal(cancelled.progress?.step);
    expect(stored.progress?.percent).to.be.above(0).and.below(100);
  });

  it('cancels queued, running and paused tasks, and refuses to cancel finished ones', async () => {
    runtime = testRuntime((s) => {
      s.maxConcurrentSimulations = 1;
      s.cache.enabled = false;
    });
    const [running, queued] = await runtime.scheduler.submitMany([task(buck({ tEnd: 5 })), task()]);
    await waitForState(runtime, running.id, ['running']);
    expect(runtime.scheduler.cancel(queued.id).state).to.equal('cancelled');
    expect(runtime.scheduler.cancel(running.id).state).to.equal('cancelled');
    // The worker is free again at once: the engine run stopped.
    const [next] = await runtime.scheduler.submitMany([task(buck({ tEnd: 5 }))]);
    await waitForState(runtime, next.id, ['running'], 5000);
    while ((runtime.scheduler.progress(next.id)?.step ?? 0) === 0) await sleep(2);
    runtime.scheduler.pause(next.id);
    expect(runtime.scheduler.cancel(next.id).state).to.equal('cancelled');
    const [last] = await runtime.scheduler.submitMany([task()]);
    const done = await waitForState(runtime, last.id, ['completed']);
    expect(() => runtime!.scheduler.cancel(done.id)).to.throw(InvalidStateError, /completed/);
    expect(runtime.store.tasks.get(running.id)!.state).to.equal('cancelled');
  });

  it('pauses a running task in place and resumes it to the same result as an uninterrupted run', async () => {
    runtime = testRuntime((s) => (s.cache.enabled = false));
    const circuit = buck({ tEnd: 0.3 });
    const [reference] = await runtime.scheduler.submitMany([task(circuit)]);
    await waitForState(runtime, reference.id, ['completed']);
    const [t] = await runtime.scheduler.submitMany([task(circuit)]);
    await waitForState(runtime, t.id, ['running']);
    while ((runtime.scheduler.progress(t.id)?.step ?? 0) < 20_000) await sleep(1);
    expect(runtime.scheduler.pause(t.id).state).to.equal('paused');
    await sleep(30);
    const held = runtime.scheduler.progress(t.id)!.step;
    await sleep(60);
    expect(runtime.scheduler.progress(t.id)!.step, 'no steps while paused').to.equal(held);
    expect(held).to.be.below(3_000_000);
    expect(() => runtime!.scheduler.pause(t.id)).to.throw(InvalidStateError, /paused/);
    expect(runtime.scheduler.resume(t.id).state).to.equal('running');
    await waitForState(runtime, t.id, ['completed']);
    const [a, b] = await Promise.all([runtime.scheduler.result(reference.id), runtime.scheduler.result(t.id)]);
    expect(b.measurements).to.deep.equal(a.measurements);
    expect(Array.from(b.signals['SCOPE.1.ch1'])).to.deep.equal(Array.from(a.signals['SCOPE.1.ch1']));
  });

  it('fails only the task whose worker crashed, retries it on a fresh worker', async () => {
    const workerFile = fileURLToPath(new URL('./workers/crash-once-worker.ts', import.meta.url));
    const marker = join(mkdtempSync(join(tmpdir(), 'pesim-crash-')), 'crashed');
    runtime = testRuntime((s) => {
      s.cache.enabled = false;
      s.scheduler.retryDelayMs = 10;
    }, { executor: new EmbeddedExecutor({ threads: 2, workerFile }) });
    const crashing = { ...buck({ tEnd: 1e-3 }), name: `crash-once:${marker}` };
    const [victim, bystander] = await runtime.scheduler.submitMany([task(crashing), task(buck({ tEnd: 5e-3 }))]);
    const [v, b] = await Promise.all([waitForState(runtime, victim.id, ['completed', 'failed']), waitForState(runtime, bystander.id, ['completed', 'failed'])]);
    expect(v.state).to.equal('completed');
    expect(v.attempts).to.equal(2);
    expect(b.state).to.equal('completed');
    expect(b.attempts).to.equal(1);
    const warnings = runtime.store.logs.recent(50, 'WARNING').map((l) => l.message).join('\n');
    expect(warnings).to.contain('WORKER_CRASHED');
  });

  it('refuses submissions beyond the queue size, atomically', async () => {
    runtime = testRuntime((s) => {
      s.maxConcurrentSimulations = 1;
      s.scheduler.queueSize = 3;
      s.cache.enabled = false;
    });
    await runtime.scheduler.submitMany([task(buck({ tEnd: 2 })), task()]);
    try {
      await runtime.scheduler.submitMany([task(), task()]);
      expect.fail('expected QueueFullError');
    } catch (error) {
      expect(error).to.be.instanceOf(QueueFullError);
      expect((error as QueueFullError).code).to.equal('QUEUE_FULL');
    }
    expect(runtime.store.tasks.list({}).total).to.equal(2);
    await runtime.scheduler.submit(task());
    expect(runtime.store.tasks.list({}).total).to.equal(3);
  });

  it('stores a submission whose checks still run only once they pass, with the room left then', async () => {
    runtime = testRuntime((s) => {
      s.maxConcurrentSimulations = 1;
      s.scheduler.queueSize = 4;
      s.cache.enabled = false;
    });
    const r = runtime;
    // Failing checks: nothing stored, their error is the submission's.
    const refused = r.scheduler.submitMany([task(), task()], Promise.reject(new Error('item 1 is invalid')));
    try {
      await refused;
      expect.fail('expected the checks\' error');
    } catch (error) {
      expect((error as Error).message).to.equal('item 1 is invalid');
    }
    expect(r.store.tasks.list({}).total).to.equal(0);
    // Checks that pass after another submission took the room: QUEUE_FULL, nothing of it stored.
    let pass!: () => void;
    const waiting = r.scheduler.submitMany([task(), task()], new Promise<void>((resolve) => (pass = resolve)));
    await r.scheduler.submitMany([task(buck({ tEnd: 2 })), task(), task()]);
    pass();
    try {
      await waiting;
      expect.fail('expected QueueFullError');
    } catch (error) {
      expect(error).to.be.instanceOf(QueueFullError);
    }
    expect(r.store.tasks.list({}).total).to.equal(3);
    // Passing checks with room: stored in order.
    const [a] = await r.scheduler.submitMany([task()], Promise.resolve());
    expect(r.store.tasks.get(a.id)?.state).to.be.oneOf(['queued', 'running']);
    expect(r.store.tasks.list({}).total).to.equal(4);
  });

  it('leaves no unhandled rejection when it fails before the checks end', async () => {
    runtime = testRuntime((s) => (s.cache.enabled = false));
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      let fail!: (error: Error) => void;
      const checks = new Promise<void>((_, reject) => (fail = reject));
      // An input the store refuses (a non-finite parameter) fails while the records are made.
      const submission = runtime.scheduler.submitMany([task(), task(undefined, 'NORMAL', { 'R.1.R': Number.NaN })], checks);
      await submission.then(() => expect.fail('expected a refusal'), (error: unknown) => expect(error).to.be.instanceOf(Error));
      fail(new Error('late check failure'));
      await sleep(20);
      expect(unhandled).to.deep.equal([]);
      expect(runtime.store.tasks.list({}).total).to.equal(0);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('emits progress once per poll interval of its clock, only when the run moved, and a state event on every change', async () => {
    const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
    runtime = testRuntime((s) => (s.cache.enabled = false), { clock });
    const events: { id: string; state: string }[] = [];
    runtime.events.on('state', (r) => events.push({ id: r.id, state: r.state }));
    const progress: TaskProgress[] = [];
    runtime.events.on('progress', (_t: TaskRecord, p) => progress.push(p));
    const [t] = await runtime.scheduler.submitMany([task(buck({ tEnd: 5 }))]);
    await waitForState(runtime, t.id, ['running']);
    const moved = async (): Promise<void> => {
      const from = runtime!.scheduler.progress(t.id)?.step ?? 0;
      while ((runtime!.scheduler.progress(t.id)?.step ?? 0) === from) await sleep(1);
    };
    for (let poll = 1; poll <= 5; poll++) {
      await moved();
      clock.advance(99); // before the interval (100 ms): nothing
      expect(progress.length).to.equal(poll - 1);
      clock.advance(1);
      expect(progress.length).to.equal(poll);
    }
    const steps = progress.map((p) => p.step);
    expect(steps).to.deep.equal([...steps].sort((a, b) => a - b));
    expect(new Set(steps).size).to.equal(steps.length);
    expect(progress.at(-1)!.totalSteps).to.equal(50_000_000);
    runtime.scheduler.cancel(t.id);
    const states = events.filter((e) => e.id === t.id).map((e) => e.state);
    expect(states).to.deep.equal(['queued', 'running', 'cancelled']);
  });

  it("keeps a running task's progress in its record only from a second into the run on", async () => {
    const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
    runtime = testRuntime((s) => (s.cache.enabled = false), { clock });
    const [t] = await runtime.scheduler.submitMany([task(buck({ tEnd: 5 }))]);
    await waitForState(runtime, t.id, ['running']);
    const poll = async (): Promise<void> => {
      const from = runtime!.scheduler.progress(t.id)?.step ?? 0;
      while ((runtime!.scheduler.progress(t.id)?.step ?? 0) === from) await sleep(1);
      clock.advance(100); // one poll interval
    };
    for (let i = 1; i <= 9; i++) await poll();
    // 900 ms into the run: the polls went to the bus only; the progress is read live meanwhile.
    expect(runtime.store.tasks.get(t.id)!.progress).to.equal(null);
    expect(runtime.scheduler.progress(t.id)!.step).to.be.above(0);
    await poll(); // a second into the run
    expect(runtime.store.tasks.get(t.id)!.progress?.step).to.be.above(0);
    runtime.scheduler.cancel(t.id);
  });
});

// Runs several to a BullMQ job (bridge.ts jobSizes): a sweep handed over at once goes to one worker
// as jobs of several runs, each run with the engine's numbers here and its own outcome; a cancel of
// runs that wait in a job with others ends those runs only, cancelled, while the job's other runs
// complete. A lone run goes alone.
import { expect } from 'chai';
import { QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { simulateSync } from '../../../src/engine/index.js';
import { closeConnection, redisConnection } from '../../../src/jobs/executors/bullmq/connection.js';
import { KEY_PREFIX, MAX_RUNS_PER_JOB, QUEUE_NAME, type RunJobResults } from '../../../src/jobs/executors/bullmq/protocol.js';
import type { SubmitInput } from '../../../src/jobs/scheduler.js';
import { buck } from '../../fixtures/circuits.js';
import { startHarness, type Harness } from '../simulation/harness.js';
import { killAllWorkers, startWorker, TestRedis, waitForWorkers } from './cluster.js';

async function until(what: string, probe: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('scale-out: several runs to a BullMQ job', function () {
  this.timeout(180_000);
  let redis: TestRedis;
  let h: Harness;
  let connection: Redis;
  let events: QueueEvents;
  /** The number of runs of each completed job. */
  const jobRuns: number[] = [];

  before(async () => {
    redis = await TestRedis.start();
    await startWorker(redis.url);
    await waitForWorkers(redis.url, 1);
    connection = redisConnection(redis.url, 'pesim:test');
    events = new QueueEvents(QUEUE_NAME, { connection, prefix: KEY_PREFIX });
    events.on('completed', ({ returnvalue }) => void jobRuns.push((returnvalue as unknown as RunJobResults).length));
    await events.waitUntilReady();
    h = await startHarness({ queue: 'bullmq', redisUrl: redis.url, maxSteps: 5e7 });
    await until('the service to see the worker', () => h.handle.runtime.executor.capacity >= 1);
  });
  after(async () => {
    await h?.close();
    await events?.close();
    if (connection) await closeConnection(connection, 1000);
    await killAllWorkers();
    await redis?.stop();
  });

  const input = (tEnd: number, R: number): SubmitInput => ({ owner: 'simulation', priority: 'NORMAL', spec: { netlist: buck({ tEnd, R }), parameters: {} }, request: {}, modelName: 'buck' });

  it('hands a sweep over in jobs of several runs, each run with its own outcome and the engine\'s numbers', async () => {
    jobRuns.length = 0;
    const inputs = Array.from({ length: 24 }, (_, i) => input(2e-3, 2 + 0.25 * i));
    const tasks = await h.handle.runtime.scheduler.submitMany(inputs);
    const scheduler = h.handle.runtime.scheduler;
    await until('every run to end', () => tasks.every((t) => ['completed', 'failed'].includes(scheduler.get(t.id).state)));
    for (const [i, task] of tasks.entries()) {
      expect(scheduler.get(task.id).state).to.equal('completed');
      const measured = (await scheduler.result(task.id)).measurements;
      const local = simulateSync(inputs[i].spec.netlist, {}).measurements;
      for (const [key, value] of Object.entries(local)) expect(measured[key], `${i} ${key}`).to.equal(value);
    }
    await until('the jobs\' completions', () => jobRuns.reduce((a, b) => a + b, 0) === 24);
    expect(Math.max(...jobRuns)).to.be.greaterThan(1).and.at.most(MAX_RUNS_PER_JOB);
    expect(jobRuns.length).to.be.lessThan(24);
  });

  it('cancels runs waiting in a job with others: they end cancelled, the job\'s other runs complete', async () => {
    const scheduler = h.handle.runtime.scheduler;
    // A long run keeps the worker's one thread busy while the next ones wait in their jobs. Its
    // job counts too: the count starts before it is submitted (a run that ends before its first
    // progress report is seen would otherwise have its job counted or not by timing).
    jobRuns.length = 0;
    const [long] = await scheduler.submitMany([input(2, 10)]);
    await until('the long run to progress on the worker', () => (scheduler.progress(long.id)?.step ?? 0) > 0);
    const tasks = await scheduler.submitMany(Array.from({ length: 8 }, (_, i) => input(2e-3, 11 + i))); // values not run before: no result from the cache
    const cancelled = [tasks[1].id, tasks[6].id];
    for (const id of cancelled) scheduler.cancel(id);
    const all = [long, ...tasks];
    await until('every run to end', () => all.every((t) => ['completed', 'failed', 'cancelled'].includes(scheduler.get(t.id).state)));
    for (const task of all) expect(scheduler.get(task.id).state, task.id).to.equal(cancelled.includes(task.id) ? 'cancelled' : 'completed');
    // A run cancelled before the executor took it never reaches a job (which runs were taken by
    // then depends on timing): the jobs hold exactly the runs that started.
    const handedOver = all.filter((t) => scheduler.get(t.id).startedAt !== null).length;
    expect(handedOver).to.be.at.least(all.length - cancelled.length);
    await until('the jobs\' completions', () => jobRuns.reduce((a, b) => a + b, 0) === handedOver);
    expect(Math.max(...jobRuns)).to.be.greaterThan(1);
  });

  it('hands a lone run over alone', async () => {
    jobRuns.length = 0;
    const [task] = await h.handle.runtime.scheduler.submitMany([input(2e-3, 20)]);
    await until('the run to end', () => h.handle.runtime.scheduler.get(task.id).state === 'completed');
    await until('its job\'s completion', () => jobRuns.length === 1);
    expect(jobRuns).to.deep.equal([1]);
  });
});

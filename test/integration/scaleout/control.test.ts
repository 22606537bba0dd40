// Scale-out, steering runs on worker processes: priority order across two workers, pause and
// resume of a run on a worker (same result as an uninterrupted run), cancel reaching the engine on
// the worker, and a worker killed with SIGKILL mid-run whose task another worker finishes, once.
import { expect } from 'chai';
import { Queue, QueueEvents } from 'bullmq';
import { simulateSync } from '../../../src/engine/index.js';
import type { Redis } from 'ioredis';
import { closeConnection, redisConnection } from '../../../src/jobs/executors/bullmq/connection.js';
import { KEY_PREFIX, QUEUE_NAME, type RunJobData, type RunJobProgress, type RunJobResult, type RunJobResults } from '../../../src/jobs/executors/bullmq/protocol.js';
import type { Priority } from '../../../src/jobs/types.js';
import { buck } from '../../fixtures/circuits.js';
import { circuitFileOf, startHarness, type Harness } from '../simulation/harness.js';
import { killAllWorkers, startWorker, TestRedis, waitForWorkers, type WorkerProcess } from './cluster.js';

interface Submission {
  simulationId: string;
}

/** Task id of a run id, or of a job's id (its first run's: `<service>.<task>.<nonce>`). */
const taskOf = (jobId: string): string => jobId.split('.')[1];

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('scale-out: priorities, pause, resume, cancel and a killed worker', function () {
  this.timeout(180_000);
  let redis: TestRedis;
  let workers: WorkerProcess[];
  let h: Harness;
  let events: QueueEvents;
  let connection: Redis;
  /** The tasks whose runs workers started, in order (activeRead: the last job's runs read). */
  const active: string[] = [];
  let activeRead = Promise.resolve();
  let reading: Queue<RunJobData>;
  const progress = new Map<string, RunJobProgress>();
  const results = new Map<string, RunJobResult[]>();

  before(async () => {
    redis = await TestRedis.start();
    workers = await Promise.all([startWorker(redis.url), startWorker(redis.url)]);
    await waitForWorkers(redis.url, 2);
    connection = redisConnection(redis.url, 'pesim:test');
    events = new QueueEvents(QUEUE_NAME, { connection, prefix: KEY_PREFIX });
    // A job carries one run or several (its id is its first run's): its runs' tasks, from its data
    // while it is active, in the order the worker makes them.
    const tasksOf = new Map<string, Promise<string[]>>();
    const jobTasks = (jobId: string): Promise<string[]> => tasksOf.get(jobId) ?? Promise.resolve([taskOf(jobId)]);
    reading = new Queue<RunJobData>(QUEUE_NAME, { connection, prefix: KEY_PREFIX });
    events.on('active', ({ jobId }) => {
      const tasks = reading.getJob(jobId).then((job) => job?.data.runs.map((run) => run.taskId) ?? [taskOf(jobId)], () => [taskOf(jobId)]);
      tasksOf.set(jobId, tasks);
      activeRead = activeRead.then(async () => void active.push(...(await tasks)));
    });
    events.on('progress', ({ jobId, data }) => {
      const p = data as unknown as RunJobProgress;
      void jobTasks(jobId).then((tasks) => progress.set(tasks[p.run] ?? taskOf(jobId), p));
    });
    events.on('completed', ({ jobId, returnvalue }) => {
      void jobTasks(jobId).then((tasks) => (returnvalue as unknown as RunJobResults).forEach((result, i) => {
        const task = tasks[i] ?? taskOf(jobId);
        results.set(task, [...(results.get(task) ?? []), result]);
      }));
    });
    await events.waitUntilReady();
    h = await startHarness({ queue: 'bullmq', redisUrl: redis.url, maxSteps: 5e7 });
    await until('the service to see both workers', () => (h.handle.runtime.executor.capacity >= 2 ? true : undefined));
  });
  after(async () => {
    await h?.close();
    await events?.close();
    await reading?.close();
    if (connection) await closeConnection(connection, 1000);
    await killAllWorkers();
    await redis?.stop();
  });

  it('starts runs by priority across both workers (FIFO within a priority)', async () => {
    const order: Priority[] = ['LOW', 'NORMAL', 'LOW', 'CRITICAL', 'HIGH', 'LOW', 'NORMAL', 'CRITICAL'];
    const tasks = await h.handle.runtime.scheduler.submitMany(
      order.map((priority, i) => ({ owner: 'simulation', priority, spec: { netlist: buck({ tEnd: 0.1, R: 5 + i }), parameters: {} }, request: {}, modelName: 'buck' })),
    );
    const ids = tasks.map((t) => t.id);
    await until('all runs to complete', () => (ids.every((id) => h.handle.runtime.scheduler.get(id).state === 'completed') ? true : undefined), 60_000);
    await activeRead;
    const started = active.filter((id) => ids.includes(id));
    const rank = (id: string): number => ['CRITICAL', 'HIGH', 'NORMAL', 'LOW'].indexOf(order[ids.indexOf(id)]) * 100 + ids.indexOf(id);
    expect(started).to.deep.equal([...ids].sort((a, b) => rank(a) - rank(b)));
  });

  it('pauses a run on a worker, holds its step, resumes it to the result of an uninterrupted run', async () => {
    const netlist = buck({ tEnd: 1.5 });
    const r = await h.client.post<Submission>('/api/v1/simulations', { circuitFile: circuitFileOf(netlist) });
    const id = r.body.simulationId;
    await until('progress from the worker', () => ((progress.get(id)?.step ?? 0) > 0 ? true : undefined));
    expect((await h.client.post(`/api/v1/simulations/${id}/pause`)).status).to.equal(200);
    const held = await until('the engine to report paused', () => (progress.get(id)?.paused ? progress.get(id)!.step : undefined));
    await new Promise((r) => setTimeout(r, 700));
    expect(progress.get(id)!.step).to.equal(held);
    expect((await h.client.get<{ status: string }>(`/api/v1/simulations/${id}`)).body.status).to.equal('paused');
    expect((await h.client.post(`/api/v1/simulations/${id}/resume`)).status).to.equal(200);
    const done = await h.client.waitForState(id, ['completed', 'failed']);
    expect(done.status).to.equal('completed');
    const local = simulateSync(netlist, {});
    expect(done.results!.measurements['SCOPE.1.ch1_avg']).to.equal(local.measurements['SCOPE.1.ch1_avg']);
    expect(done.results!.measurements['SCOPE.1.ch2_rms']).to.equal(local.measurements['SCOPE.1.ch2_rms']);
  });

  it('cancels a run on a worker: the engine there stops with CANCELLED and the task stays cancelled', async () => {
    const r = await h.client.post<Submission>('/api/v1/simulations', { circuitFile: circuitFileOf(buck({ tEnd: 4 })) });
    const id = r.body.simulationId;
    await until('progress from the worker', () => ((progress.get(id)?.step ?? 0) > 0 ? true : undefined));
    expect((await h.client.delete(`/api/v1/simulations/${id}`)).status).to.be.oneOf([200, 204]);
    const returned = await until('the worker to end the job', () => results.get(id)?.[0]);
    expect(returned.ok).to.equal(false);
    expect(returned.ok === false && returned.error.code).to.equal('CANCELLED');
    expect((await h.client.get<{ status: string }>(`/api/v1/simulations/${id}`)).body.status).to.equal('cancelled');
  });

  it('finishes the task of a worker killed mid-run on the other worker, completing it once', async () => {
    const netlist = buck({ tEnd: 2 });
    const r = await h.client.post<Submission>('/api/v1/simulations', { circuitFile: circuitFileOf(netlist) });
    const id = r.body.simulationId;
    await until('progress from the worker', () => ((progress.get(id)?.step ?? 0) > 0 ? true : undefined));
    const queue = (await import('bullmq')).Queue;
    const q = new queue(QUEUE_NAME, { connection, prefix: KEY_PREFIX });
    try {
      const [job] = (await q.getJobs(['active'])).filter((j) => j.id && taskOf(j.id) === id);
      const pid = Number(/-(\d+)-[0-9a-f]+$/.exec(job.processedBy ?? '')?.[1]);
      const victim = workers.find((w) => w.child.pid === pid);
      expect(victim, `a worker process with pid ${pid}`).to.not.equal(undefined);
      await victim!.kill('SIGKILL');
    } finally {
      await q.close();
    }
    const done = await h.client.waitForState(id, ['completed', 'failed'], 90_000);
    expect(done.status).to.equal('completed');
    const local = simulateSync(netlist, {});
    expect(done.results!.measurements['SCOPE.1.ch1_avg']).to.equal(local.measurements['SCOPE.1.ch1_avg']);
    const task = h.handle.runtime.store.tasks.get(id)!;
    expect(task.attempts).to.equal(1); // BullMQ moved the stalled job; our scheduler saw one attempt
    expect(results.get(id)).to.have.length(1);
    const completions = h.handle.runtime.store.logs.recent(1000).filter((l) => l.taskId === id && l.message.startsWith('completed'));
    expect(completions).to.have.length(1);
  });
});

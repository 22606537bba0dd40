// Scale-out through BullMQ on a real redis-server with two `pesim worker` processes: a run through
// the simulation service gives the same result as the engine in this process, a sweep handed over
// at once completes each run once and leaves no job or result key in Redis, its progress reaches
// the service's event bus and SSE stream, health reports Redis and the workers, a result above the size
// limit fails with an error naming the limit, and `pesim worker` refuses a wrong Redis URL naming the
// setting and ends by itself on SIGTERM, its connections closed and its heartbeat key removed.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { simulateSync } from '../../../src/engine/index.js';
import { buck, rcStep } from '../../fixtures/circuits.js';
import { circuitFileOf, startHarness, type Harness } from '../simulation/harness.js';
import { closeConnection, redisConnection } from '../../../src/jobs/executors/bullmq/connection.js';
import { killAllWorkers, startWorker, TestRedis, waitForWorkers } from './cluster.js';

const cliEntry = fileURLToPath(new URL('./run-cli.ts', import.meta.url));

/** Runs `pesim <args>` from the sources to its end: its exit code, signal and output. */
function runCli(args: string[]): Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', cliEntry, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal, output })));
}

interface Submission {
  simulationId: string;
}

describe('scale-out: runs on worker processes through BullMQ', function () {
  this.timeout(120_000);
  let redis: TestRedis;
  let h: Harness;

  before(async () => {
    redis = await TestRedis.start();
    await Promise.all([startWorker(redis.url), startWorker(redis.url)]);
    await waitForWorkers(redis.url, 2);
    h = await startHarness({ queue: 'bullmq', redisUrl: redis.url, maxSteps: 5e7 });
  });
  after(async () => {
    await h?.close();
    await killAllWorkers();
    await redis?.stop();
  });

  it('runs a simulation on a worker with the same measurements as the engine here, and serves its result file', async () => {
    const netlist = buck({ tEnd: 2e-3 });
    const r = await h.client.post<Submission>('/api/v1/simulations', { circuitFile: circuitFileOf(netlist) });
    expect(r.status).to.equal(202);
    const done = await h.client.waitForState(r.body.simulationId, ['completed', 'failed']);
    expect(done.status, JSON.stringify(done)).to.equal('completed');
    const local = simulateSync(netlist, {});
    for (const [key, value] of Object.entries(local.measurements)) expect(done.results!.measurements[key], key).to.equal(value);
    const exported = await h.client.get(`/api/v1/simulations/${r.body.simulationId}/export?format=csv`);
    expect(exported.status).to.equal(200);
    const rows = String(exported.body).trim().split('\n');
    expect(rows.length - 1).to.equal(local.time.length);
  });

  it('completes a sweep handed over at once, each run once, and leaves nothing of its jobs in Redis', async () => {
    const runtime = h.handle.runtime;
    const tasks = await runtime.scheduler.submitMany(Array.from({ length: 40 }, (_, i) => ({
      owner: 'simulation', priority: 'NORMAL' as const, spec: { netlist: buck({ tEnd: 2e-4 }), parameters: { 'R.1.R': 2 + i * 0.1 } }, request: {}, modelName: 'buck',
    })));
    const deadline = Date.now() + 60_000;
    while (tasks.some((t) => runtime.scheduler.get(t.id).state !== 'completed') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const records = tasks.map((t) => runtime.scheduler.get(t.id));
    expect(records.map((t) => t.state)).to.deep.equal(tasks.map(() => 'completed'));
    expect(records.map((t) => t.attempts)).to.deep.equal(tasks.map(() => 1));
    const completions = runtime.store.logs.recent(1000).filter((l) => l.message.startsWith('completed'));
    for (const t of records) expect(completions.filter((l) => l.taskId === t.id), t.id).to.have.length(1);
    // BullMQ removed each job as it completed; the service read and deleted each result key.
    const connection = redisConnection(redis.url, 'pesim:test');
    try {
      expect(await connection.keys('pesim:result:*')).to.deep.equal([]);
      expect(await connection.zcard('pesim:runs:completed')).to.equal(0);
    } finally {
      await closeConnection(connection, 1000);
    }
  });

  it('brings a running simulation\'s progress from the worker to the event bus and its SSE stream', async () => {
    const seen: number[] = [];
    const listener = (_task: unknown, progress: { percent: number }): void => void seen.push(progress.percent);
    h.handle.runtime.events.on('progress', listener);
    let streamed: { progress: number; status: string }[] = [];
    try {
      const r = await h.client.post<Submission>('/api/v1/simulations', { circuitFile: circuitFileOf(buck({ tEnd: 1 })) });
      // The SSE stream of the run, read to its end (the service ends it after the final message).
      const response = await fetch(`${h.baseUrl}/api/v1/simulations/${r.body.simulationId}/stream`);
      const text = await response.text();
      streamed = text.split('\n').filter((line) => line.startsWith('data: ')).map((line) => JSON.parse(line.slice(6)) as { progress: number; status: string });
      const done = await h.client.waitForState(r.body.simulationId, ['completed', 'failed']);
      expect(done.status).to.equal('completed');
    } finally {
      h.handle.runtime.events.off('progress', listener);
    }
    const midRun = seen.filter((p) => p > 0 && p < 100);
    expect(midRun.length, `progress seen: ${seen.join(', ')}`).to.be.greaterThan(0);
    expect([...midRun].sort((a, b) => a - b)).to.deep.equal(midRun); // never backwards
    expect(streamed.some((m) => m.status === 'RUNNING' && m.progress > 0 && m.progress < 100), JSON.stringify(streamed)).to.equal(true);
    expect(streamed.at(-1)).to.deep.include({ status: 'COMPLETED', progress: 100 });
  });

  it('reports Redis and the live workers in /api/v1/health and /actuator/health', async () => {
    const health = await h.client.get<{ queue: { backend: string; redis: string; workers: number; cores: number } }>('/api/v1/health');
    expect(health.body.queue).to.deep.equal({ backend: 'bullmq', redis: 'UP', workers: 2, cores: 2 });
    const actuator = await h.client.get<{ status: string; components: { redis: { status: string }; workers: { status: string; count: number } } }>('/actuator/health');
    expect(actuator.status).to.equal(200);
    expect(actuator.body.components.redis.status).to.equal('UP');
    expect(actuator.body.components.workers).to.deep.include({ status: 'UP', count: 2 });
  });

  it('refuses a result above the size limit with an error naming the limit, without retrying it (a second service on the same Redis)', async () => {
    // 1 MiB limit; a 0.2 s buck at 100 ns keeps about 90 000 points of two channels and time (> 1 MiB).
    const small = await startHarness({ queue: 'bullmq', redisUrl: redis.url, maxSteps: 5e7, maxResultMb: 1 });
    try {
      const r = await small.client.post<Submission>('/api/v1/simulations', { circuitFile: circuitFileOf(buck({ tEnd: 0.2 })) });
      const done = await small.client.waitForState(r.body.simulationId, ['completed', 'failed']);
      expect(done.status).to.equal('failed');
      expect(done.errorMessage).to.contain('above the limit of 1048576 bytes').and.to.contain('PESIM_MAX_RESULT_MB');
      const task = small.handle.runtime.store.tasks.get(r.body.simulationId)!;
      expect(task.attempts).to.equal(1);
      expect(task.errorCode).to.equal('RESULT_TOO_LARGE');
      // A small result passes the same limit.
      const rc = await small.client.post<Submission>('/api/v1/simulations', { circuitFile: circuitFileOf(rcStep('trapezoidal', 1e-5)) });
      expect((await small.client.waitForState(rc.body.simulationId, ['completed', 'failed'])).status).to.equal('completed');
    } finally {
      await small.close();
    }
  });

  it('stops `pesim worker` at once on a wrong Redis URL, with an error naming the setting', async () => {
    const { code, output } = await runCli(['worker', '--redis', 'http://127.0.0.1:6379/0']);
    expect(code).to.equal(1);
    expect(output).to.contain('--redis (or PESIM_REDIS_URL)').and.to.contain('must start with redis://');
  });

  it('ends `pesim worker` by itself on SIGTERM: its connections closed, its heartbeat key removed', async () => {
    const worker = await startWorker(redis.url);
    await waitForWorkers(redis.url, 3);
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => worker.child.once('exit', (code, signal) => resolve({ code, signal })));
    // One SIGTERM (a second one exits at once); a connection left open would keep the process
    // alive until kill() gives up waiting and sends SIGKILL.
    await worker.kill('SIGTERM');
    expect(await ended).to.deep.equal({ code: 0, signal: null });
    const client = redisConnection(redis.url, 'pesim:test');
    try {
      const [, keys] = await client.scan('0', 'MATCH', 'pesim:workers:*', 'COUNT', 10_000);
      expect(keys).to.have.length(2);
    } finally {
      await closeConnection(client, 1000);
    }
  });
});

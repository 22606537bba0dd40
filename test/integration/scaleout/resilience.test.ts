// Scale-out under failures: Redis stopped and restarted from its append-only file while runs are
// in flight (every task ends final, each completed once, and both workers listen on the control
// channel again), the simulation service killed with SIGKILL and restarted while workers run (its
// tasks finish after the restart), and the job-queue service in BullMQ mode (health with Redis and
// workers, workers' cores in /stats).
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { defaultConfig } from '../../../src/jobq/config.js';
import { closeConnection, redisConnection } from '../../../src/jobs/executors/bullmq/connection.js';
import { CONTROL_CHANNEL } from '../../../src/jobs/executors/bullmq/protocol.js';
import { startJobq } from '../../../src/jobq/server.js';
import { openStore } from '../../../src/store/open.js';
import { FINAL_STATES, type TaskState } from '../../../src/jobs/types.js';
import { buck } from '../../fixtures/circuits.js';
import { writeModels } from '../jobq/harness.js';
import { circuitFileOf, startHarness } from '../simulation/harness.js';
import { killAllWorkers, startWorker, TestRedis, waitForWorkers } from './cluster.js';

const cliEntry = fileURLToPath(new URL('./run-cli.ts', import.meta.url));

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** `pesim serve` as a child process in its own process group; resolves with its base URL. */
async function startServe(dataDir: string, redisUrl: string): Promise<{ child: ChildProcess; url: string }> {
  const env = { ...process.env, PESIM_QUEUE: 'bullmq', PESIM_REDIS_URL: redisUrl, SIM_LOG_LEVEL: 'silent' };
  const child = spawn(process.execPath, ['--import', 'tsx', cliEntry, 'serve', '--port', '0', '--data-dir', dataDir], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`pesim serve did not start: ${out}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /simulation service on (http:\/\/[^/\s]+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`pesim serve exited with ${code}: ${out}`)));
  });
  return { child, url };
}

function killGroup(child: ChildProcess | undefined): Promise<void> {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    return Promise.resolve();
  }
  return gone;
}

describe('scale-out: Redis restarts, service restarts, the job-queue service', function () {
  this.timeout(240_000);
  let redis: TestRedis;
  let serve: ChildProcess | undefined;
  const dirs: string[] = [];

  before(async () => {
    redis = await TestRedis.start();
    await Promise.all([startWorker(redis.url), startWorker(redis.url)]);
    await waitForWorkers(redis.url, 2);
  });
  after(async () => {
    await killGroup(serve);
    await killAllWorkers();
    await redis?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('ends every task final, each completed once, when Redis restarts from its append-only file under load', async () => {
    const h = await startHarness({ queue: 'bullmq', redisUrl: redis.url });
    try {
      const { scheduler, store } = h.handle.runtime;
      const tasks = await scheduler.submitMany(
        Array.from({ length: 24 }, (_, i) => ({ owner: 'simulation', priority: 'NORMAL' as const, spec: { netlist: buck({ tEnd: 0.08, R: 4 + i / 10 }), parameters: {} }, request: {}, modelName: 'buck' })),
      );
      const ids = tasks.map((t) => t.id);
      const stateOf = (id: string): TaskState => scheduler.get(id).state;
      await until('some runs to complete', () => (ids.filter((id) => stateOf(id) === 'completed').length >= 3 ? true : undefined));
      expect(ids.some((id) => !(FINAL_STATES as readonly string[]).includes(stateOf(id))), 'runs in flight at the restart').to.equal(true);
      await redis.restart(700);
      await until('every task to be final', () => (ids.every((id) => (FINAL_STATES as readonly string[]).includes(stateOf(id))) ? true : undefined), 150_000);
      expect(ids.map(stateOf)).to.deep.equal(ids.map(() => 'completed'));
      const logs = store.logs.recent(10_000);
      for (const id of ids) expect(logs.filter((l) => l.taskId === id && l.message.startsWith('completed')), id).to.have.length(1);
      const health = await h.client.get<{ queue: { redis: string; workers: number } }>('/api/v1/health');
      expect(health.body.queue).to.deep.include({ redis: 'UP', workers: 2 });
      // The workers' subscriptions were renewed on the new Redis (else pause and cancel would not reach them).
      const client = redisConnection(redis.url, 'pesim:test');
      try {
        const subscribers = async (): Promise<number> => Number(((await client.pubsub('NUMSUB', CONTROL_CHANNEL)) as [string, number])[1]);
        await until('both workers to listen on the control channel', async () => ((await subscribers()) === 2 ? true : undefined), 10_000).catch(() => undefined);
        expect(await subscribers()).to.equal(2);
      } finally {
        await closeConnection(client, 1000);
      }
    } finally {
      await h.close();
    }
  });

  it('finishes every task of a simulation service killed with SIGKILL and restarted while workers run', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pesim-scaleout-serve-'));
    dirs.push(dataDir);
    let service = await startServe(dataDir, redis.url);
    serve = service.child;
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const body = { circuitFile: circuitFileOf(buck({ tEnd: 0.3, R: 5 + i / 10 })) };
      const r = await fetch(`${service.url}/api/v1/simulations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(r.status).to.equal(202);
      ids.push(((await r.json()) as { simulationId: string }).simulationId);
    }
    const statusOf = async (url: string, id: string): Promise<string> => ((await (await fetch(`${url}/api/v1/simulations/${id}`)).json()) as { status: string }).status;
    await until('a run to be running on a worker', async () => ((await Promise.all(ids.map((id) => statusOf(service.url, id)))).includes('running') ? true : undefined));
    await killGroup(service.child);
    service = await startServe(dataDir, redis.url);
    serve = service.child;
    const final = await until('every task to be final after the restart', async () => {
      const states = await Promise.all(ids.map((id) => statusOf(service.url, id)));
      return states.every((s) => ['completed', 'failed', 'cancelled'].includes(s)) ? states : undefined;
    }, 150_000);
    expect(final).to.deep.equal(ids.map(() => 'completed'));
    await killGroup(service.child);
    serve = undefined;
    const store = openStore(dataDir);
    try {
      const logs = store.logs.recent(10_000);
      for (const id of ids) expect(logs.filter((l) => l.taskId === id && l.message.startsWith('completed')), id).to.have.length(1);
    } finally {
      store.close();
    }
  });

  it('runs the job-queue service on the workers, with Redis and the workers in /health and their cores in /stats', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pesim-scaleout-jobq-'));
    const modelsDir = mkdtempSync(join(tmpdir(), 'pesim-scaleout-models-'));
    dirs.push(dataDir, modelsDir);
    writeModels(modelsDir);
    const config = defaultConfig();
    Object.assign(config, { data_dir: dataDir, queue: 'bullmq', redis_url: redis.url });
    Object.assign(config.api, { host: '127.0.0.1', port: 0 });
    config.simulator.models_dir = modelsDir;
    const jobq = await startJobq(config, { logger: pino({ level: 'silent' }) });
    try {
      const get = async (path: string): Promise<Record<string, unknown>> => (await (await fetch(`${jobq.url}${path}`)).json()) as Record<string, unknown>;
      await until('the service to see both workers', async () => ((await get('/health')).workers === 2 ? true : undefined), 20_000);
      expect(await get('/health')).to.include({ status: 'healthy', simulator_connected: true, redis_connected: true, workers: 2 });
      expect((await get('/stats')).system).to.include({ cpu_cores: 2 });
      const submitted = await fetch(`${jobq.url}/simulations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model_file: 'rc.json' }) });
      const { task_id: taskId } = (await submitted.json()) as { task_id: string };
      const done = await until('the jobq task to be final', async () => {
        const record = await get(`/simulations/${taskId}`);
        return ['completed', 'failed', 'cancelled'].includes(String(record.status)) ? record : undefined;
      });
      expect(done.status).to.equal('completed');
    } finally {
      await jobq.close();
    }
  });
});

// A full (and a read-only) data directory on both services: each service runs with its data directory on a small
// tmpfs (mounted here: the test needs root, and is skipped with the reason otherwise), the file
// system is filled, and then: submissions answer 507 STORAGE_FULL naming the directory, reads go on,
// health reports the store degraded, the process lives on (a run that ends meanwhile is recorded
// later), and once space is freed writes work again with everything stored before still there.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { startSimulationService, type SimulationServiceHandle } from '../../src/server/server.js';
import { startTestService, type TestService } from './jobq/harness.js';
import { circuitFileOf } from './simulation/harness.js';
import { rcStep } from '../fixtures/circuits.js';

const TMPFS_SIZE = '24m';

/** Mounts a tmpfs of TMPFS_SIZE; undefined (with the reason) when this process may not. */
function mountTmpfs(): { dir: string } | { reason: string } {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return { reason: 'mounting a tmpfs needs root on Linux' };
  const dir = mkdtempSync(join(tmpdir(), 'pesim-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${TMPFS_SIZE}`, 'tmpfs', dir], { stdio: 'pipe' });
    return { dir };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    return { reason: `mount -t tmpfs failed: ${(error as Error).message.split('\n')[0]}` };
  }
}

function unmount(dir: string): void {
  execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
  rmSync(dir, { recursive: true, force: true });
}

/** Writes a file until the file system is full; returns its path. */
function fill(dir: string): string {
  const path = join(dir, 'filler');
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  return path;
}

async function json(url: string, init: RequestInit = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, init);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const post = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function eventually<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Submits until one answers other than `accepted`; that answer. */
async function submitUntilRefused(submit: () => Promise<{ status: number; body: Record<string, unknown> }>, accepted: number): Promise<{ status: number; body: Record<string, unknown> }> {
  for (let i = 0; i < 500; i++) {
    const r = await submit();
    if (r.status !== accepted) return r;
  }
  throw new Error('every submission was accepted on a full file system');
}

describe('a full data directory', function () {
  this.timeout(120_000);
  let mount: { dir: string } | { reason: string };
  before(function () {
    mount = mountTmpfs();
    if ('reason' in mount) {
      console.log(`      skipped: ${mount.reason}`);
      this.skip();
    }
  });
  afterEach(() => {
    if ('dir' in mount) rmSync(join(mount.dir, 'filler'), { force: true });
  });
  after(() => {
    if (mount && 'dir' in mount) unmount(mount.dir);
  });

  describe('the simulation service', () => {
    let service: SimulationServiceHandle;
    let dataDir: string;
    before(async () => {
      dataDir = join((mount as { dir: string }).dir, 'sim');
      mkdirSync(dataDir);
      service = await startSimulationService({ port: 0, host: '127.0.0.1', dataDir, maxConcurrent: 1, cacheEnabled: false }, { logger: pino({ level: 'silent' }) });
    });
    after(async () => service?.close());

    it('answers 507, serves reads, reports the store DEGRADED, and recovers with nothing lost', async () => {
      const circuitFile = circuitFileOf(rcStep('trapezoidal', 1e-5, 2e-3));
      const first = await json(`${service.url}/api/v1/simulations`, post({ circuitFile }));
      expect(first.status).to.equal(202);
      const id = first.body.simulationId as string;
      await eventually('the first run completes', async () => ((await json(`${service.url}/api/v1/simulations/${id}`)).body.status === 'completed' ? true : undefined));
      // A longer run is going on while the disk fills: its end is recorded once space is back.
      const running = await json(`${service.url}/api/v1/simulations`, post({ circuitFile: circuitFileOf(rcStep('trapezoidal', 1e-8, 0.05)) }));
      expect(running.status).to.equal(202);

      const filler = fill((mount as { dir: string }).dir);
      const refused = await submitUntilRefused(() => json(`${service.url}/api/v1/simulations`, post({ circuitFile })), 202);
      expect(refused.status, JSON.stringify(refused.body)).to.equal(507);
      expect(refused.body.error).to.equal('STORAGE_FULL');
      expect(refused.body.message).to.contain(dataDir).and.contain('is full');

      const health = await json(`${service.url}/actuator/health`);
      expect(health.status).to.equal(200);
      expect(health.body.status).to.equal('DEGRADED');
      expect((health.body.components as { store: { status: string; writable: boolean } }).store).to.include({ status: 'DEGRADED', writable: false });
      const read = await json(`${service.url}/api/v1/simulations/${id}`);
      expect(read.status).to.equal(200);
      expect(read.body.status).to.equal('completed');
      expect((await fetch(`${service.url}/api/v1/simulations/${id}/export?format=csv`)).status).to.equal(200);
      expect((await json(`${service.url}/api/v1/simulations`)).status).to.equal(200);
      // The run going on ends meanwhile: the process lives on and answers.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect((await json(`${service.url}/api/v1/health`)).body.status).to.equal('DEGRADED');

      rmSync(filler);
      await eventually('the store is writable again', async () => ((await json(`${service.url}/actuator/health`)).body.status === 'UP' ? true : undefined));
      const again = await json(`${service.url}/api/v1/simulations`, post({ circuitFile }));
      expect(again.status, JSON.stringify(again.body)).to.equal(202);
      const done = await eventually('the run that went on is recorded', async () => {
        const r = await json(`${service.url}/api/v1/simulations/${running.body.simulationId as string}`);
        return ['completed', 'failed'].includes(r.body.status as string) ? r.body : undefined;
      }, 60_000);
      expect(done.status).to.equal('completed');
      expect((await json(`${service.url}/api/v1/simulations/${id}`)).body.status).to.equal('completed');
    });
  });

  describe('the job queue', () => {
    let jobq: TestService;
    before(async () => {
      const dir = (mount as { dir: string }).dir;
      jobq = await startTestService((c) => {
        c.data_dir = join(dir, 'jobq');
        c.cache.enabled = false;
      });
    });
    after(async () => jobq?.dispose());

    it('answers 507, serves reads, reports the store degraded on /health, and recovers', async () => {
      const first = await jobq.request('POST', '/simulations', { model_file: 'rc.json' });
      expect(first.status).to.equal(201);
      const id = (first.body as { task_id: string }).task_id;
      await eventually('the first run completes', async () => (((await jobq.request('GET', `/simulations/${id}`)).body as { status: string }).status === 'completed' ? true : undefined));
      const filler = fill((mount as { dir: string }).dir);
      const refused = await submitUntilRefused(async () => {
        const r = await jobq.request('POST', '/simulations', { model_file: 'rc.json', parameters: { 'R.1.R': 1000 + Math.random() } });
        return { status: r.status, body: r.body as Record<string, unknown> };
      }, 201);
      expect(refused.status, JSON.stringify(refused.body)).to.equal(507);
      expect(refused.body.error_code).to.equal('STORAGE_FULL');
      const health = (await jobq.request('GET', '/health')).body as { status: string; store_writable: boolean };
      expect(health).to.include({ status: 'degraded', store_writable: false });
      expect((await jobq.request('GET', `/simulations/${id}/result`)).status).to.equal(200);
      rmSync(filler);
      await eventually('the store is writable again', async () => (((await jobq.request('GET', '/health')).body as { store_writable: boolean }).store_writable ? true : undefined));
      expect((await jobq.request('POST', '/simulations', { model_file: 'rc.json' })).status).to.equal(201);
      expect(((await jobq.request('GET', `/simulations/${id}`)).body as { status: string }).status).to.equal('completed');
    });
  });

  describe('a read-only data directory', () => {
    it('stops both services at start-up with a message naming the path and what is needed', async () => {
      const dir = (mount as { dir: string }).dir;
      mkdirSync(join(dir, 'ro'), { recursive: true });
      execFileSync('mount', ['-o', 'remount,ro', dir], { stdio: 'pipe' });
      try {
        for (const dataDir of [join(dir, 'ro'), join(dir, 'ro', 'new')]) {
          const sim = await startSimulationService({ port: 0, host: '127.0.0.1', dataDir }, { logger: pino({ level: 'silent' }) }).then(
            async (handle) => { await handle.close(); return 'started'; },
            (error: Error) => error.message,
          );
          expect(sim).to.contain(`The data directory ${dataDir} cannot be used`).and.contain('writable');
          const jobq = await startTestService((c) => { c.data_dir = dataDir; }).then(
            async (handle) => { await handle.dispose(); return 'started'; },
            (error: Error) => error.message,
          );
          expect(jobq).to.contain(`The data directory ${join(dataDir, 'jobq')} cannot be used`).and.contain('--data-dir or PESIM_DATA_DIR');
        }
      } finally {
        execFileSync('mount', ['-o', 'remount,rw', dir], { stdio: 'pipe' });
      }
    });
  });
});

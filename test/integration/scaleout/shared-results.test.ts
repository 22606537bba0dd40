// Result files through a shared results folder (docs/several-machines.md): a worker that reaches
// the service's folder (here through another path to it, as on another machine's mount) writes its
// results there and the service moves them into its data directory; a worker with another folder
// sends its results through Redis and says so once; every run gives the engine's numbers here and
// the folder is left empty. A service that starts removes the files its earlier process left there.
// A worker whose folder cannot be used stops at start-up, naming the option. A worker whose outcome
// Redis refuses removes its file from the folder, and the run is made again once Redis takes writes.
import { watch, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { simulateSync } from '../../../src/engine/index.js';
import { closeConnection, redisConnection } from '../../../src/jobs/executors/bullmq/connection.js';
import { IDENTITY_FILE } from '../../../src/jobs/executors/bullmq/shared-results.js';
import { buck } from '../../fixtures/circuits.js';
import { circuitFileOf, startHarness, type Harness } from '../simulation/harness.js';
import { killAllWorkers, startWorker, TestRedis, waitForWorkers, type WorkerProcess } from './cluster.js';

/** Redis, workers with the given --shared-results folders, and a service whose shared folder is root/shared. */
interface Cluster {
  root: string;
  folder: string;
  redis: TestRedis;
  workers: WorkerProcess[];
  h: Harness;
  stop(): Promise<void>;
}

async function startCluster(prefix: string, workerFolders: (root: string, folder: string) => string[]): Promise<Cluster> {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const folder = join(root, 'shared');
  mkdirSync(folder);
  symlinkSync(folder, join(root, 'mounted-elsewhere'));
  const redis = await TestRedis.start();
  const folders = workerFolders(root, folder);
  const workers = await Promise.all(folders.map((sharedResults) => startWorker(redis.url, { sharedResults })));
  await waitForWorkers(redis.url, folders.length);
  const h = await startHarness({ queue: 'bullmq', redisUrl: redis.url, maxSteps: 5e7, sharedResultsDir: folder });
  return {
    root, folder, redis, workers, h,
    async stop() {
      await h.close();
      await killAllWorkers();
      await redis.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

describe('scale-out: result files through a shared results folder', function () {
  this.timeout(180_000);
  let cluster: Cluster;
  let redis: TestRedis;
  let h: Harness;
  let root: string;
  let folder: string;
  let sharing: WorkerProcess;
  let other: WorkerProcess;

  before(async () => {
    // One worker reaches the service's folder through another path to it, one has another folder.
    cluster = await startCluster('pesim-shared-it-', (base) => [join(base, 'mounted-elsewhere'), join(base, 'another-folder')]);
    ({ redis, h, root, folder } = cluster);
    [sharing, other] = cluster.workers;
  });
  after(async () => {
    await cluster?.stop();
  });

  it('moves the sharing worker\'s results from the folder, takes the other\'s through Redis, each with the engine\'s numbers', async () => {
    const serviceId = readFileSync(join(h.dataDir, 'service-id'), 'utf8').trim();
    const seen = new Set<string>();
    const watcher = watch(folder, (_event, name) => name && seen.add(name));
    try {
      const netlists = Array.from({ length: 12 }, (_, i) => buck({ tEnd: 2e-3, R: 2 + 0.25 * i }));
      const ids: string[] = [];
      for (const netlist of netlists) ids.push((await h.client.post<{ simulationId: string }>('/api/v1/simulations', { circuitFile: circuitFileOf(netlist) })).body.simulationId);
      for (const [i, id] of ids.entries()) {
        const done = await h.client.waitForState(id, ['completed', 'failed']);
        expect(done.status, JSON.stringify(done)).to.equal('completed');
        const local = simulateSync(netlists[i], {});
        for (const [key, value] of Object.entries(local.measurements)) expect(done.results!.measurements[key], key).to.equal(value);
      }
      const exported = await h.client.get(`/api/v1/simulations/${ids[0]}/export?format=csv`);
      expect(String(exported.body).trim().split('\n').length - 1).to.equal(simulateSync(netlists[0], {}).time.length);
    } finally {
      watcher.close();
    }
    const results = [...seen].filter((name) => name.startsWith(`${serviceId}.`) && name.endsWith('.parquet'));
    expect(results.length, [...seen].join(', ')).to.be.greaterThan(0);
    expect(readdirSync(folder)).to.deep.equal([IDENTITY_FILE]);
    expect(other.output()).to.contain('is not shared with this worker').and.to.contain('results go through Redis');
    expect(sharing.output()).to.contain(`result files into the shared folder ${join(root, 'mounted-elsewhere')}`).and.not.to.contain('is not shared');
    const connection = redisConnection(redis.url, 'pesim:test');
    try {
      expect(await connection.keys('pesim:result:*')).to.deep.equal([]);
    } finally {
      await closeConnection(connection, 1000);
    }
  });

  it('removes, as a service starts, the files its earlier process left in the folder, and no other service\'s', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pesim-shared-restart-'));
    writeFileSync(join(dataDir, 'service-id'), 'earlier0service1\n');
    const left = ['earlier0service1.t1.ab.parquet', '.earlier0service1.t2.cd.parquet.99-0123456789ab.tmp'];
    const others = ['another0service.t1.ab.parquet'];
    for (const name of [...left, ...others]) writeFileSync(join(folder, name), '');
    const restarted = await startHarness({ queue: 'bullmq', redisUrl: redis.url, dataDir, sharedResultsDir: folder });
    try {
      expect(readdirSync(folder).sort()).to.deep.equal([IDENTITY_FILE, ...others].sort());
    } finally {
      await restarted.close();
      rmSync(join(folder, others[0]), { force: true });
    }
  });

  it('stops a worker whose shared results folder cannot be used, naming the option and the folder', async () => {
    writeFileSync(join(root, 'a-file'), '');
    const bad = join(root, 'a-file', 'results');
    const started = await startWorker(redis.url, { sharedResults: bad }).then(() => undefined, (error: Error) => error);
    expect(started?.message).to.contain(`--shared-results (PESIM_SHARED_RESULTS_DIR): the shared results folder ${bad} cannot be used`);
  });
});

describe('scale-out: a shared results file whose outcome Redis refuses', function () {
  this.timeout(180_000);
  let cluster: Cluster;
  let redis: TestRedis;
  let h: Harness;
  let folder: string;

  before(async () => {
    cluster = await startCluster('pesim-shared-refused-', (_base, shared) => [shared]);
    ({ redis, h, folder } = cluster);
  });
  after(async () => {
    await cluster?.stop();
  });

  it('is removed by its worker when Redis refuses the outcome, and the run is made again once Redis takes writes', async () => {
    const connection = redisConnection(redis.url, 'pesim:test');
    const seen = new Set<string>();
    const watcher = watch(folder, (_event, name) => name && seen.add(name));
    try {
      const netlist = buck({ tEnd: 1.5 });
      const id = (await h.client.post<{ simulationId: string }>('/api/v1/simulations', { circuitFile: circuitFileOf(netlist) })).body.simulationId;
      await until('the run to progress on the worker', async () => {
        const { body } = await h.client.get<{ status: string; progress: { currentStep: number } }>(`/api/v1/simulations/${id}`);
        return body.status === 'running' && body.progress.currentStep > 0;
      });
      // From here Redis refuses every write (noeviction is the default policy): the worker's
      // outcome, its progress, BullMQ's completion.
      await connection.config('SET', 'maxmemory', '1');
      await until('the worker to write its result file into the folder and remove it again', () =>
        [...seen].some((name) => name.endsWith('.parquet')) && readdirSync(folder).length === 1);
      expect(readdirSync(folder)).to.deep.equal([IDENTITY_FILE]);
      await connection.config('SET', 'maxmemory', '0');
      // The job's lock runs out and BullMQ hands it out again (stalled): the run is made again.
      const done = await h.client.waitForState(id, ['completed', 'failed']);
      expect(done.status, JSON.stringify(done)).to.equal('completed');
      expect(done.results!.measurements['SCOPE.1.ch1_avg']).to.equal(simulateSync(netlist, {}).measurements['SCOPE.1.ch1_avg']);
      expect(readdirSync(folder)).to.deep.equal([IDENTITY_FILE]);
    } finally {
      watcher.close();
      await connection.config('SET', 'maxmemory', '0').catch(() => undefined);
      await closeConnection(connection, 1000);
    }
  });
});

/** Polls `probe` every 50 ms until it holds (at most 60 s). */
async function until(what: string, probe: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

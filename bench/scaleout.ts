// Scale-out benchmark: the 1 000-run buck sweep of bench/jobs.ts (2 ms, 20 000 steps each) through
// BullMQ on a local redis-server with 1 and with 2 `pesim worker` processes (compiled package, one
// simulation thread each), beside the same sweep on the embedded executor with 1 and 2 threads;
// runs per second, the 2-against-1 ratios, and the per-task overhead of the Redis path (wall time
// per task of one worker process against one embedded thread, the service thread's CPU per task,
// and the service process's CPU per task: with the engine on the workers, all of it is the service
// side of a run through Redis), with the result files through Redis and through a shared results
// folder. The sweep driver is bench/jobs-sweep.mjs with PESIM_QUEUE=bullmq. On the 2-core reference
// machine the service, Redis and both workers share the two cores, which bounds the 2-worker ratio.
// Run alone: `node --import tsx bench/scaleout.ts [runs]`.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buck } from '../test/fixtures/circuits.js';
import { TestRedis, waitForWorkers } from '../test/integration/scaleout/cluster.js';
import { removeBenchData } from './data-dir.mjs';

const RUNS = 1000;
const root = fileURLToPath(new URL('../', import.meta.url));

interface SweepFigures {
  wallMs: number;
  schedulerCpuMsPerTask: number;
  processCpuMsPerTask: number;
  /** CPU time per run of the processes beside the service (workers, Redis), by name [ms]; over the whole sweep with its warm-up. */
  others?: Record<string, number>;
}

/** The runs jobs-sweep.mjs makes before the measured ones. */
const WARM_UP = 200;

/** CPU time of a process so far, all its threads [ms] (0 for one that is gone). */
function processCpuMs(pid: number): number {
  try {
    return readdirSync(`/proc/${pid}/task`).reduce((sum, tid) => {
      try {
        return sum + Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
      } catch {
        return sum; // the thread ended meanwhile
      }
    }, 0);
  } catch {
    return 0;
  }
}

/** The sweep, and the CPU time the processes `others` (name → pid) spent per run meanwhile. */
function sweep(runs: number, env: Record<string, string>, threads = 1, others: Record<string, number> = {}): SweepFigures {
  const input = JSON.stringify({ netlist: buck({ tEnd: 2e-3 }), runs, workers: threads, cache: false, keepData: true });
  const driver = fileURLToPath(new URL('./jobs-sweep.mjs', import.meta.url));
  const before = Object.fromEntries(Object.entries(others).map(([name, pid]) => [name, processCpuMs(pid)]));
  const out = execFileSync(process.execPath, [driver], { input, encoding: 'utf8', timeout: 900_000, env: { ...process.env, ...env } });
  const figures = JSON.parse(out.trim().split('\n').at(-1)!) as SweepFigures;
  figures.others = Object.fromEntries(Object.entries(others).map(([name, pid]) => [name, (processCpuMs(pid) - before[name]) / (runs + WARM_UP)]));
  return figures;
}

/** "service 1.53 + workers 2.9 + Redis 0.6 = 5.0 ms": every process's CPU time per run. */
function cpuSum(s: SweepFigures): string {
  const parts: [string, number][] = [['service', s.processCpuMsPerTask], ...Object.entries(s.others ?? {})];
  return `${parts.map(([name, ms]) => `${name} ${ms.toFixed(2)}`).join(' + ')} = ${parts.reduce((sum, [, ms]) => sum + ms, 0).toFixed(2)} ms`;
}

function startWorker(redisUrl: string, sharedResults?: string): Promise<ChildProcess> {
  const args = ['bin/pesim.js', 'worker', '--redis', redisUrl, '--concurrency', '1', ...(sharedResults ? ['--shared-results', sharedResults] : [])];
  const child = spawn(process.execPath, args, { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('taking jobs')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`pesim worker exited with ${code}`)));
  });
}

async function stopWorkers(children: ChildProcess[]): Promise<void> {
  await Promise.all(children.map((child) => new Promise<void>((resolve) => {
    if (child.exitCode !== null || !child.pid) return resolve();
    child.once('exit', () => resolve());
    process.kill(-child.pid, 'SIGTERM');
  })));
}

export async function benchSection(runs = RUNS): Promise<string[]> {
  const embeddedOne = sweep(runs, { PESIM_QUEUE: 'embedded' }, 1);
  const embeddedTwo = sweep(runs, { PESIM_QUEUE: 'embedded' }, 2);
  const redis = await TestRedis.start();
  const workers: ChildProcess[] = [];
  const env = { PESIM_QUEUE: 'bullmq', PESIM_REDIS_URL: redis.url };
  const sharedFolder = mkdtempSync(join(tmpdir(), 'pesim-bench-shared-'));
  let one: SweepFigures;
  let two: SweepFigures;
  let shared: SweepFigures;
  try {
    const others = (): Record<string, number> => ({ ...Object.fromEntries(workers.map((w, i) => [`worker ${i + 1}`, w.pid!])), Redis: redis.pid! });
    workers.push(await startWorker(redis.url));
    await waitForWorkers(redis.url, 1);
    one = sweep(runs, env, 1, others());
    workers.push(await startWorker(redis.url));
    await waitForWorkers(redis.url, 2);
    two = sweep(runs, env, 1, others());
    await stopWorkers(workers.splice(0));
    // One worker again, the result files through a folder it shares with the service.
    workers.push(await startWorker(redis.url, sharedFolder));
    await waitForWorkers(redis.url, 1);
    shared = sweep(runs, { ...env, PESIM_SHARED_RESULTS_DIR: sharedFolder }, 1, others());
  } finally {
    await stopWorkers(workers);
    await redis.stop();
    rmSync(sharedFolder, { recursive: true, force: true });
  }
  const rate = (s: SweepFigures): number => runs / (s.wallMs / 1000);
  /** Runs per second the machine's cores allow at this CPU time per run (every process together). */
  const boundOf = (s: SweepFigures): number => (availableParallelism() * 1000) / (s.processCpuMsPerTask + Object.values(s.others ?? {}).reduce((a, b) => a + b, 0));
  const perTask = (s: SweepFigures): number => s.wallMs / runs;
  return [
    `| scale-out: ${runs}-run buck sweep (2 ms, 20 000 steps each; compiled package; Redis on this machine) | value |`,
    '|---|---|',
    `| embedded, 1 thread | ${rate(embeddedOne).toFixed(0)} runs/s |`,
    `| embedded, 2 threads | ${rate(embeddedTwo).toFixed(0)} runs/s (×${(rate(embeddedTwo) / rate(embeddedOne)).toFixed(2)}) |`,
    `| BullMQ, 1 worker process | ${rate(one).toFixed(0)} runs/s |`,
    `| BullMQ, 2 worker processes | ${rate(two).toFixed(0)} runs/s (×${(rate(two) / rate(one)).toFixed(2)} of 1 worker) |`,
    `| Redis path overhead per task (1 worker against 1 embedded thread) | ${(perTask(one) - perTask(embeddedOne)).toFixed(2)} ms of wall time |`,
    `| service thread CPU per task (the serial cost): BullMQ with 1 / 2 workers; embedded (1 thread); target ≤ 0.25 ms | ${one.schedulerCpuMsPerTask.toFixed(2)} / ${two.schedulerCpuMsPerTask.toFixed(2)}; ${embeddedOne.schedulerCpuMsPerTask.toFixed(2)} ms (${Math.max(one.schedulerCpuMsPerTask, two.schedulerCpuMsPerTask) <= 0.25 ? 'met' : 'MISSED'}) |`,
    `| BullMQ, 1 worker process, result files through a shared folder | ${rate(shared).toFixed(0)} runs/s |`,
    `| service process CPU per task, BullMQ with 1 / 2 workers (all its threads; the engine runs on the workers; result files through Redis) | ${one.processCpuMsPerTask.toFixed(2)} / ${two.processCpuMsPerTask.toFixed(2)} ms |`,
    `| service process CPU per task, BullMQ with 1 worker, result files through a shared folder (docs/several-machines.md); target ≤ 0.5 ms | ${shared.processCpuMsPerTask.toFixed(2)} ms (${shared.processCpuMsPerTask <= 0.5 ? 'met' : 'MISSED'}); service thread ${shared.schedulerCpuMsPerTask.toFixed(2)} ms |`,
    `| CPU per run of every process, BullMQ 1 worker (through Redis) | ${cpuSum(one)} |`,
    `| CPU per run of every process, BullMQ 2 workers (through Redis); the bound of this machine's ${availableParallelism()} cores: cores / total | ${cpuSum(two)}: at most ${boundOf(two).toFixed(0)} runs/s |`,
    `| CPU per run of every process, BullMQ 1 worker (shared folder) | ${cpuSum(shared)} |`,
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const runs = process.argv[2] ? Number(process.argv[2]) : RUNS;
  console.log((await benchSection(runs)).join('\n'));
  removeBenchData();
  process.exit(0);
}

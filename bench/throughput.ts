// Sweep throughput and scaling: what one service costs per run beside the engine, and what that
// means for a machine with more cores (Amdahl). The 2 ms buck (20 000 steps at 100 ns, result cache
// off) runs RUNS times as
// - the engine alone in plain worker threads (bench/jobs-ceiling.mjs: no runtime, no files);
// - the job runtime in process (bench/jobs-sweep.mjs: scheduler, piscina workers, SQLite store,
//   result files);
// - one HTTP batch of `pesim serve` (POST /api/v1/simulations/batch with base + sweep), the
//   service in its own process (bench/http-server.mjs);
// - one batch of the job-queue service (POST /simulations/batch), in its own process
//   (bench/jobq-server.mjs);
// each on 1 and on 2 simulation threads, after a warm-up batch. For the services the CPU time of
// the service's main thread (/proc/<pid>/task/<pid>/schedstat), less what answering the bench's
// own status polls cost it, is divided by the runs: the serial
// cost per run, which bounds any machine at 1 / serial cost runs per second however many cores it
// has; and the CPU time of the whole process per run beyond the engine's: the runtime's overhead,
// which every core pays. The engine's part is its CPU time per run of the same circuit on two
// threads at once without the runtime (bench/jobs-ceiling.mjs), measured before and after the
// services (two threads can each take more CPU per run than one alone, and this machine's speed
// drifts from minute to minute), not the runs' engine wall time from the
// store: on a busy machine a run's wall time includes the time its thread waited for a core, and
// taking that out made the overhead too small (negative at times) and moved it with the load.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { buck, rcStep } from '../test/fixtures/circuits.js';
import { percentile } from './stats.js';
import { benchDataDir, removeBenchData } from './data-dir.mjs';

const RUNS = 1000;
const WARM_UP = 200;
const THREADS = [1, 2] as const;
/** Targets of the serial cost per run (service main thread) and of the overhead beyond the engine. */
const SERIAL_TARGET_MS = 0.25;
const OVERHEAD_TARGET_MS = 0.5;
/** The larger machine the scaling section reads off. */
const CORES = 16;

const netlist = buck({ tEnd: 2e-3 });
const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));

export interface Figures {
  threads: number;
  runsPerSecond: number;
  /** CPU of the service's (scheduler's) main thread per run [ms]. */
  serialMs: number;
  /** CPU of the whole process per run [ms]; less the engine's CPU per run, the overhead. */
  processMs: number;
  /** The runs' engine wall time per run, from the store [ms] (includes waits for a core). */
  engineMs: number;
  /** Time until the submission was answered [ms] (services). */
  submitMs?: number;
}

// ---- CPU time of another process, from /proc ----

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

function threadCpuMs(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
}

function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1000; // utime + stime
}

// ---- children ----

/** PESIM_BENCH_CPU_PROF=<dir>: the services write V8 CPU profiles of their threads there (diagnosis). */
function profileArguments(): string[] {
  const dir = process.env.PESIM_BENCH_CPU_PROF;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
}

async function startChild(driver: string, settings: unknown): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [...profileArguments(), here(driver)], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin!.end(JSON.stringify(settings));
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /url (\S+)/.exec(output);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`${driver} exited with ${code} before listening`)));
  });
  return { child, url };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

async function request<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, init);
  const text = await response.text();
  if (!response.ok) throw new Error(`${init?.method ?? 'GET'} ${url}: ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Each 1 000-run sweep writes ≈ 0.5 GB of result files (470 KB a run). What a set-up wrote made the
 * ones after it slower on the reference machine (a virtual machine), by the order they ran in:
 * - while the kernel writes dirty pages back, writing a file costs its writer two to three times
 *   the CPU (0.46 → 1.3 ms per 470 KB file in a probe writing 6 000 files in a row);
 * - once written, the files' pages stay cached, and new files then take page-cache memory the
 *   machine has not used before, whose first touch costs more: a `pesim serve` batch took 2.0 ms
 *   of process CPU per run first and 3.2 ms after 3 GB of other set-ups' files, `sync` or not.
 * So each set-up removes its files when it ends (releaseData), and the next one starts SETTLE_MS
 * later, is measured after `sync`, and creates its files in a folder of another ext4 block group
 * (bench/data-dir.mjs: without a journal, ext4 skips the inodes freed in the last minutes of a
 * group, one by one, for each file it creates there).
 */
const SETTLE_MS = 20_000;
let releasedAt = Number.NEGATIVE_INFINITY;

function releaseData(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  releasedAt = performance.now();
}

/** Waits until SETTLE_MS after the last release (before a set-up starts its service or driver). */
function settle(): void {
  const wait = releasedAt + SETTLE_MS - performance.now();
  if (wait > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, wait);
}

/** Writes the page cache's dirty data to disk, before a measurement. */
function flushWrites(): void {
  execFileSync('sync');
}

/** Engine time of the given runs, read from the service's store [ms]. */
function engineMsOf(databaseFile: string, where: string, parameter: string): number {
  const db = new Database(databaseFile, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare(`SELECT total(run_ms) FROM tasks WHERE ${where}`).pluck().get(parameter) as number);
  } finally {
    db.close();
  }
}

/** Status reads (the bench's own polling) used to tell the service's polling cost from its runs'. */
const POLL_PROBES = 20;

/**
 * A batch submission and the wait for its end, with the service's CPU before and after. The CPU
 * the service spends answering the bench's own status polls is measured afterwards (POLL_PROBES
 * reads of the idle service) and taken out: it is the bench's load, not the runs'.
 */
async function measured(pid: number, submit: () => Promise<string>, unfinished: () => Promise<number>): Promise<{ wallMs: number; serialMs: number; processMs: number; submitMs: number; handle: string }> {
  flushWrites();
  const thread0 = threadCpuMs(pid);
  const process0 = processCpuMs(pid);
  const started = performance.now();
  const handle = await submit();
  const submitMs = performance.now() - started;
  let polls = 1;
  while ((await unfinished()) > 0) {
    await sleep(50);
    polls++;
  }
  const wallMs = performance.now() - started;
  const serialMs = threadCpuMs(pid) - thread0;
  const processMs = processCpuMs(pid) - process0;
  const probe0 = threadCpuMs(pid);
  for (let i = 0; i < POLL_PROBES; i++) await unfinished();
  const pollMs = (threadCpuMs(pid) - probe0) / POLL_PROBES;
  return { wallMs, serialMs: serialMs - polls * pollMs, processMs: processMs - polls * pollMs, submitMs, handle };
}

// ---- the four set-ups ----

/** `pesim serve`: one batch of `runs` (base + sweep). */
export async function httpBatch(threads: number, runs = RUNS, warmUp = WARM_UP): Promise<Figures> {
  const dataDir = benchDataDir('throughput-http-');
  const settings = { port: 0, host: '127.0.0.1', dataDir, logLevel: 'silent', maxConcurrent: threads, cacheEnabled: false, maxBatchSize: Math.max(runs, warmUp), queueSize: 2 * Math.max(runs, warmUp) + 10 };
  settle();
  const { child, url } = await startChild('./http-server.mjs', settings);
  try {
    const circuitFile = Buffer.from(JSON.stringify(netlist)).toString('base64');
    const submit = async (count: number, offset: number): Promise<string> => {
      const body = { base: { circuitFile }, sweep: { 'R.1.R': Array.from({ length: count }, (_, i) => 2 + (i + offset) * 1e-3) } };
      const answer = await request<{ batchId: string }>(`${url}/api/v1/simulations/batch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return answer.batchId;
    };
    let batchId = '';
    const unfinished = async (): Promise<number> =>
      (await request<{ total: number }>(`${url}/api/v1/simulations?batchId=${batchId}&status=queued,running,paused&limit=1`)).total;
    batchId = await submit(warmUp, runs);
    while ((await unfinished()) > 0) await sleep(50);
    const m = await measured(child.pid!, async () => (batchId = await submit(runs, 0)), unfinished);
    const engineMs = engineMsOf(join(dataDir, 'pesim.db'), 'batch_id = ?', m.handle);
    return { threads, runsPerSecond: runs / (m.wallMs / 1000), serialMs: m.serialMs / runs, processMs: m.processMs / runs, engineMs: engineMs / runs, submitMs: m.submitMs };
  } finally {
    await stopChild(child);
    releaseData(dataDir);
  }
}

/** `pesim jobq`: one POST /simulations/batch of `runs` items. */
export async function jobqBatch(threads: number, runs = RUNS, warmUp = WARM_UP): Promise<Figures> {
  const dataDir = benchDataDir('throughput-jobq-');
  const settings = { dataDir, modelsDir: join(dataDir, 'models'), threads, queueSize: 2 * Math.max(runs, warmUp) + 10, models: { 'buck.json': netlist } };
  settle();
  const { child, url } = await startChild('./jobq-server.mjs', settings);
  try {
    const submit = async (count: number, offset: number): Promise<string> => {
      const body = Array.from({ length: count }, (_, i) => ({ model_file: 'buck.json', parameters: { 'R.1.R': 2 + (i + offset) * 1e-3 } }));
      const answer = await request<{ task_ids: string[] }>(`${url}/simulations/batch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return JSON.stringify(answer.task_ids);
    };
    const unfinished = async (): Promise<number> => {
      const { queue } = await request<{ queue: { pending: number; running: number } }>(`${url}/stats`);
      return queue.pending + queue.running;
    };
    await submit(warmUp, runs);
    while ((await unfinished()) > 0) await sleep(50);
    const m = await measured(child.pid!, () => submit(runs, 0), unfinished);
    const engineMs = engineMsOf(join(dataDir, 'jobq', 'pesim.db'), 'id IN (SELECT value FROM json_each(?))', m.handle);
    return { threads, runsPerSecond: runs / (m.wallMs / 1000), serialMs: m.serialMs / runs, processMs: m.processMs / runs, engineMs: engineMs / runs, submitMs: m.submitMs };
  } finally {
    await stopChild(child);
    releaseData(dataDir);
  }
}

/** The job runtime in process (bench/jobs-sweep.mjs); `env` selects the queue (PESIM_QUEUE). */
export function runtimeSweep(threads: number, runs = RUNS, env: Record<string, string> = {}): Figures {
  // keepData false: the sweep's driver removes its files when it ends.
  const input = JSON.stringify({ netlist, runs, workers: threads, cache: false, keepData: false });
  settle();
  flushWrites();
  const out = execFileSync(process.execPath, [here('./jobs-sweep.mjs')], { input, encoding: 'utf8', timeout: 600_000, env: { ...process.env, ...env } });
  releasedAt = performance.now();
  const s = JSON.parse(out.trim().split('\n').at(-1)!) as { wallMs: number; engineMs: number; schedulerCpuMsPerTask: number; processCpuMsPerTask: number };
  return { threads, runsPerSecond: runs / (s.wallMs / 1000), serialMs: s.schedulerCpuMsPerTask, processMs: s.processCpuMsPerTask, engineMs: s.engineMs / runs };
}

/** The engine alone in plain worker threads (bench/jobs-ceiling.mjs): runs/s on 1 and 2 threads, CPU per run [ms] at 2 threads. */
function engineAlone(runs = RUNS): { one: number; two: number; cpuMs: number } {
  const input = JSON.stringify({ netlist, runs, rounds: 1 });
  const out = execFileSync(process.execPath, [here('./jobs-ceiling.mjs')], { input, encoding: 'utf8', timeout: 300_000 });
  const { msPerRun, cpuMsPerRun } = JSON.parse(out.trim().split('\n').at(-1)!) as { msPerRun: { 1: number; 2: number }; cpuMsPerRun: { 1: number; 2: number } };
  return { one: 1000 / msPerRun[1], two: 1000 / msPerRun[2], cpuMs: cpuMsPerRun[2] };
}

/** The big batch: a grid of BIG_BATCH runs of a tiny RC circuit (10 steps each), one request. */
const BIG_BATCH = { resistances: 1000, capacitances: 100 };
const STATUS_WINDOW_MS = 10_000;

export interface BigBatchFigures {
  runs: number;
  /** POST until its 202 (checked, stored, queued) [ms]. */
  submitMs: number;
  /** CPU time of the service's main thread meanwhile [ms]: what the submission cost it, whatever the machine's load. */
  submitCpuMs: number;
  /** GET /batch/{id} (the default page of 1 000 entries) while the batch runs [ms]. */
  statusMs: number[];
  /** DELETE /batch/{id} of the unfinished rest [ms]. */
  cancelMs: number;
  completedBeforeCancel: number;
}

/** `pesim serve` takes a 100 000-run sweep in one request; its status is read while it runs. */
export async function bigBatch(threads = 2): Promise<BigBatchFigures> {
  const runs = BIG_BATCH.resistances * BIG_BATCH.capacitances;
  const dataDir = benchDataDir('throughput-big-');
  const settings = { port: 0, host: '127.0.0.1', dataDir, logLevel: 'silent', maxConcurrent: threads, cacheEnabled: false, maxBatchSize: runs, queueSize: runs + 10, maxBodyBytes: 64 * 1024 * 1024 };
  const { child, url } = await startChild('./http-server.mjs', settings);
  try {
    const circuitFile = Buffer.from(JSON.stringify(rcStep('backward-euler', 1e-5, 1e-4))).toString('base64');
    const sweep = {
      'R.1.R': Array.from({ length: BIG_BATCH.resistances }, (_, i) => 100 + i),
      'C.1.C': Array.from({ length: BIG_BATCH.capacitances }, (_, i) => 1e-6 * (1 + i / 100)),
    };
    // A running service: the modules its first batch loads (body parser, check threads) are loaded
    // by a two-run batch first, so that the figure is the big batch's and not the service's start.
    await request(`${url}/api/v1/simulations/batch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ base: { circuitFile }, sweep: { 'R.1.R': [50, 60] } }) });
    const cpu0 = threadCpuMs(child.pid!);
    const started = performance.now();
    const { batchId } = await request<{ batchId: string }>(`${url}/api/v1/simulations/batch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ base: { circuitFile }, sweep }) });
    const submitMs = performance.now() - started;
    const submitCpuMs = threadCpuMs(child.pid!) - cpu0;
    const statusMs: number[] = [];
    let completed = 0;
    const until = performance.now() + STATUS_WINDOW_MS;
    while (performance.now() < until) {
      const t0 = performance.now();
      const status = await request<{ completed: number; totalSimulations: number }>(`${url}/api/v1/simulations/batch/${batchId}`);
      statusMs.push(performance.now() - t0);
      if (status.totalSimulations !== runs) throw new Error(`the batch has ${status.totalSimulations} runs, not ${runs}`);
      completed = status.completed;
      await sleep(100);
    }
    const t0 = performance.now();
    const cancelled = await fetch(`${url}/api/v1/simulations/batch/${batchId}`, { method: 'DELETE' });
    if (cancelled.status !== 204) throw new Error(`DELETE answered ${cancelled.status}`);
    return { runs, submitMs, submitCpuMs, statusMs, cancelMs: performance.now() - t0, completedBeforeCancel: completed };
  } finally {
    await stopChild(child);
  }
}

/** `pesim jobq` takes a 100 000-item POST /simulations/batch; its statistics (GET /stats) are read while it runs. */
export async function jobqBigBatch(threads = 2): Promise<BigBatchFigures> {
  const runs = BIG_BATCH.resistances * BIG_BATCH.capacitances;
  const dataDir = benchDataDir('throughput-jobq-big-');
  const settings = { dataDir, modelsDir: join(dataDir, 'models'), threads, queueSize: runs + 10, models: { 'rc.json': rcStep('backward-euler', 1e-5, 1e-4) } };
  const { child, url } = await startChild('./jobq-server.mjs', settings);
  try {
    const body = Array.from({ length: runs }, (_, i) => ({
      model_file: 'rc.json',
      parameters: { 'R.1.R': 100 + (i % BIG_BATCH.resistances), 'C.1.C': 1e-6 * (1 + Math.floor(i / BIG_BATCH.resistances) / 100) },
    }));
    // A running service (as for `pesim serve` above): a two-item batch first.
    await request(`${url}/simulations/batch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body.slice(0, 2)) });
    const cpu0 = threadCpuMs(child.pid!);
    const started = performance.now();
    const answer = await request<{ batch_id: string; batch_size: number }>(`${url}/simulations/batch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const submitMs = performance.now() - started;
    const submitCpuMs = threadCpuMs(child.pid!) - cpu0;
    if (answer.batch_size !== runs) throw new Error(`the batch has ${answer.batch_size} tasks, not ${runs}`);
    const statusMs: number[] = [];
    let completed = 0;
    const until = performance.now() + STATUS_WINDOW_MS;
    while (performance.now() < until) {
      const t0 = performance.now();
      const stats = await request<{ queue: { pending: number; running: number; completed: number } }>(`${url}/stats`);
      statusMs.push(performance.now() - t0);
      completed = stats.queue.completed;
      await sleep(100);
    }
    return { runs, submitMs, submitCpuMs, statusMs, cancelMs: Number.NaN, completedBeforeCancel: completed };
  } finally {
    await stopChild(child);
  }
}

// ---- the section ----

/** The verdicts of a 100 000-run batch (bigBatch: `pesim serve`; `jobq`: jobqBigBatch). */
export function bigBatchLine(big: BigBatchFigures, jobq = false): string {
  const statusP50 = percentile(big.statusMs, 50);
  const statusMax = Math.max(...big.statusMs);
  const what = jobq
    ? `A ${big.runs.toLocaleString('en')}-item POST /simulations/batch of \`pesim jobq\` (the same grid as items): queued in`
    : `A ${big.runs.toLocaleString('en')}-run sweep in one request (grid of ${BIG_BATCH.resistances} × ${BIG_BATCH.capacitances} values of a tiny RC circuit, 10 steps each; \`pesim serve\` on 2 threads): queued in`;
  const status = jobq ? 'its status (GET /stats, counts of the queue)' : 'its status (GET /api/v1/simulations/batch/{id}, counts of the whole batch and the first 1 000 entries)';
  const cancel = jobq ? '' : `; DELETE of the unfinished rest: ${(big.cancelMs / 1000).toFixed(2)} s`;
  return `${what} ${(big.submitMs / 1000).toFixed(2)} s (target < 2 s: ${big.submitMs < 2000 ? 'met' : 'MISSED'}; ${(big.submitCpuMs / 1000).toFixed(2)} s of the service thread's CPU); ${status} answered in ${statusP50.toFixed(1)} ms p50, ${statusMax.toFixed(1)} ms at most over ${big.statusMs.length} reads in ${STATUS_WINDOW_MS / 1000} s while ${big.completedBeforeCancel.toLocaleString('en')} runs completed (target < 50 ms: ${statusMax < 50 ? 'met' : 'MISSED'})${cancel}.`;
}

const ms = (v: number): string => v.toFixed(3);
const rate = (v: number): string => v.toFixed(0);
const verdict = (value: number, target: number): string => `≤ ${target} ms ${value <= target ? 'met' : 'MISSED'}`;

export async function benchSection(): Promise<string[]> {
  const engine = engineAlone();
  const runtime = THREADS.map((t) => runtimeSweep(t));
  const http: Figures[] = [];
  const jobq: Figures[] = [];
  for (const t of THREADS) {
    http.push(await httpBatch(t));
    jobq.push(await jobqBatch(t));
  }
  const engineAfter = engineAlone();
  const big = await bigBatch();
  const rows: [string, Figures[]][] = [['job runtime (in process)', runtime], ['HTTP batch (`pesim serve`)', http], ['job-queue batch (`pesim jobq`)', jobq]];
  // The engine's CPU per run on two threads, measured before and after the services (the machine's
  // speed drifts between runs of a minute): their mean is the engine's part of a 2-thread run.
  const engineCpuMs = (engine.cpuMs + engineAfter.cpuMs) / 2;
  const overhead = (f: Figures): number => f.processMs - engineCpuMs;
  const lines = [
    `${RUNS}-run sweeps of the 2 ms buck (20 000 steps at 100 ns, result cache off; compiled package; ${WARM_UP} warm-up runs first). Serial cost: CPU time of the service's main thread per run (submission, bookkeeping, store, events); overhead: CPU time of the whole process per run beyond the engine's (its CPU time per run alone on two threads at once, before and after the services: ${ms(engine.cpuMs)} and ${ms(engineAfter.cpuMs)} ms). Both at 2 threads.`,
    '',
    '| per run | serial cost (main thread CPU) | target | overhead beyond the engine (process CPU) | target |',
    '|---|---|---|---|---|',
    ...rows.map(([name, f]) => `| ${name} | ${ms(f[1].serialMs)} ms | ${verdict(f[1].serialMs, SERIAL_TARGET_MS)} | ${ms(overhead(f[1]))} ms | ${verdict(overhead(f[1]), OVERHEAD_TARGET_MS)} |`),
    '',
    `Submission of the ${RUNS}-run batch (POST until its answer): HTTP ${http[1].submitMs!.toFixed(0)} ms, job queue ${jobq[1].submitMs!.toFixed(0)} ms.`,
    '',
    bigBatchLine(big),
    '',
    '### Scaling',
    '',
    `Runs per second on 1 and 2 simulation threads, and the limit the serial cost sets on a larger machine (Amdahl: with n cores a service gives at most min(n × engine rate, 1 / serial cost)); read off for ${CORES} cores with this machine's engine rate.`,
    '',
    `| | 1 thread runs/s | 2 threads runs/s | serial cost per run | 1 / serial cost | ${CORES} cores (read off) | share of the engine at ${CORES} cores |`,
    '|---|---|---|---|---|---|---|',
    `| engine alone (worker threads, no runtime) | ${rate(engine.one)} | ${rate(engine.two)} | | | ${rate(CORES * engine.one)} | 100 % |`,
    ...rows.map(([name, f]) => {
      const limit = 1000 / f[1].serialMs;
      const cores = Math.min(CORES * f[0].runsPerSecond, limit);
      return `| ${name} | ${rate(f[0].runsPerSecond)} | ${rate(f[1].runsPerSecond)} | ${ms(f[1].serialMs)} ms | ${rate(limit)} | ${rate(cores)} | ${((cores / (CORES * engine.one)) * 100).toFixed(0)} % |`;
    }),
  ];
  return lines;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  // --big-batch: only the 100 000-run batches of `pesim serve` and `pesim jobq` (--serve-only,
  // --jobq-only: one of them; --json: the figures as JSON lines).
  if (process.argv.includes('--big-batch')) {
    const json = process.argv.includes('--json');
    if (!process.argv.includes('--jobq-only')) {
      const big = await bigBatch();
      console.log(json ? JSON.stringify(big) : bigBatchLine(big));
    }
    if (!process.argv.includes('--serve-only')) {
      const big = await jobqBigBatch();
      console.log(json ? JSON.stringify(big) : bigBatchLine(big, true));
    }
  }
  else console.log((await benchSection()).join('\n'));
  removeBenchData();
  process.exit(0);
}

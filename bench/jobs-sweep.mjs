// Child process of bench/jobs.ts: runs the 1 000-run sweep on the compiled job runtime (dist/) in a
// plain `node` process, so neither the scheduler's thread nor its workers pay a TypeScript loader.
// Reads {netlist, runs, workers, cache, keepData} as JSON on stdin; prints one JSON line of figures,
// with the data directory. The benchmarks pass keepData and remove the directories at their end
// (see bench/jobs.ts: not between sweeps); run by hand, the driver removes its own. With
// PESIM_BENCH_THREADS=1 it also prints each thread's CPU time per task to stderr (diagnosis).
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { benchDataDir } from './data-dir.mjs';

const { createRuntime, defaultRuntimeSettings, remoteExecutorFor } = await import(new URL('../dist/src/jobs/runtime.js', import.meta.url).href);
const { netlist, runs, workers, cache, keepData } = JSON.parse(readFileSync(0, 'utf8'));
const WARM_UP = 200;

const sweep = (count, offset = 0) => Array.from({ length: count }, (_, i) => ({
  owner: 'bench', priority: 'NORMAL', modelName: 'buck', request: {},
  spec: { netlist, parameters: { 'R.1.R': 2 + (i + offset) * 0.01 } },
}));

function allDone(runtime, tasks) {
  const ids = new Set(tasks.map((t) => t.id));
  return new Promise((resolve) => {
    const listener = (t) => {
      if (ids.has(t.id) && (t.state === 'completed' || t.state === 'failed') && ids.delete(t.id) && ids.size === 0) {
        runtime.events.off('state', listener);
        resolve();
      }
    };
    runtime.events.on('state', listener);
  });
}

const keepAlive = setInterval(() => undefined, 1000); // the runtime's workers and timers do not hold the process
const dir = benchDataDir('sweep-');
const settings = defaultRuntimeSettings(dir);
settings.maxConcurrentSimulations = workers;
settings.cache.enabled = cache;
settings.scheduler.queueSize = runs + 10;
// PESIM_QUEUE=bullmq (bench/scaleout.ts): the runs go to `pesim worker` processes through Redis.
const runtime = createRuntime(settings, { executor: await remoteExecutorFor(settings) });
// Start the workers and let V8 compile the hot paths before measuring (in a short warm-up the
// optimising compiler's threads still take ≈ 0.3 ms of CPU per task).
await allDone(runtime, await runtime.scheduler.submitMany(sweep(WARM_UP, runs)));

// CPU time of this (the scheduler's) thread [ns]: unlike event-loop utilisation it does not count
// the time the thread waits for a core on a busy machine.
const threadCpuNs = () => { try { return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]); } catch { return NaN; } };
const threadsCpu = () => {
  const out = new Map();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const comm = readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
      out.set(tid, { comm, ns: Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]) });
    } catch { /* the thread ended */ }
  }
  return out;
};
const threadsBefore = process.env.PESIM_BENCH_THREADS ? threadsCpu() : undefined;
const cpuBefore = threadCpuNs();
const processCpuBefore = process.cpuUsage();
const loopBefore = performance.eventLoopUtilization();
const started = performance.now();
const tasks = await runtime.scheduler.submitMany(sweep(runs));
await allDone(runtime, tasks);
const wallMs = performance.now() - started;
const loop = performance.eventLoopUtilization(loopBefore);
const schedulerCpuMsPerTask = (threadCpuNs() - cpuBefore) / 1e6 / runs;
const processCpu = process.cpuUsage(processCpuBefore);
if (threadsBefore) {
  for (const [tid, { comm, ns }] of threadsCpu()) {
    const delta = (ns - (threadsBefore.get(tid)?.ns ?? 0)) / 1e6 / runs;
    if (delta > 0.005) console.error(`thread ${tid} ${comm}: ${delta.toFixed(3)} ms per task`);
  }
}
// CPU time of the whole process (scheduler, workers, garbage-collector and I/O threads) per task.
const processCpuMsPerTask = (processCpu.user + processCpu.system) / 1e3 / runs;
const engineMs = tasks.reduce((sum, t) => sum + (runtime.store.tasks.get(t.id).runMs ?? 0), 0);

// Cache-hit latency: resubmit items that are now cached, one at a time.
const hitLatencies = [];
if (cache) {
  for (const item of sweep(200)) {
    const t0 = performance.now();
    const [record] = await runtime.scheduler.submitMany([item]);
    hitLatencies.push(performance.now() - t0);
    if (!record.cacheHit) throw new Error('expected a cache hit');
  }
}
await runtime.close();
clearInterval(keepAlive);
if (!keepData) rmSync(dir, { recursive: true, force: true });
// The scheduler's thread: time it was busy (not waiting in the event loop) per task.
console.log(JSON.stringify({ wallMs, engineMs, schedulerMsPerTask: loop.active / runs, schedulerCpuMsPerTask, processCpuMsPerTask, hitLatencies, dir }));

// Child process of bench/jobs.ts: the scheduler's own cost per task, without an executor's
// transport. 1 000 tasks go through submit → start → complete on the compiled runtime (dist/)
// with an in-process executor that reports each run finished at once (its result file written,
// as the embedded workers report it), so what is measured is the scheduler's bookkeeping: queue,
// state transitions committed to SQLite with their log lines, events, dispatch decisions. Prints
// one JSON line: CPU and wall time per task.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { benchDataDir } from './data-dir.mjs';

const { createRuntime, defaultRuntimeSettings } = await import(new URL('../dist/src/jobs/runtime.js', import.meta.url).href);
const { netlist, runs, capacity } = JSON.parse(readFileSync(0, 'utf8'));

const stats = { steps: 20000, preSteps: 0, factorizations: 8, cacheHits: 20000, switchingEvents: 80, extraSolves: 40, unknowns: 5, solver: 'dense', wallMs: 1 };
const instant = {
  name: 'instant',
  capacity,
  run: async () => ({ ok: true, written: { measurements: { 'SCOPE.1.ch1.avg': 1 }, signals: ['SCOPE.1.ch1'], stats } }),
  connected: () => true,
  close: async () => {},
};

const settings = defaultRuntimeSettings(benchDataDir('scheduler-'));
settings.cache.enabled = false;
settings.scheduler.queueSize = runs + 10;
const runtime = createRuntime(settings, { executor: instant });
const sweep = (count) => Array.from({ length: count }, (_, i) => ({
  owner: 'bench', priority: 'NORMAL', modelName: 'buck', request: {}, spec: { netlist, parameters: { 'R.1.R': 2 + i * 0.01 } },
}));
function allDone(tasks) {
  const ids = new Set(tasks.map((t) => t.id));
  return new Promise((resolve) => {
    const listener = (t) => {
      if (ids.has(t.id) && t.state === 'completed' && ids.delete(t.id) && ids.size === 0) {
        runtime.events.off('state', listener);
        resolve();
      }
    };
    runtime.events.on('state', listener);
  });
}
await allDone(await runtime.scheduler.submitMany(sweep(50))); // warm-up
const cpu0 = process.cpuUsage();
const t0 = performance.now();
await allDone(await runtime.scheduler.submitMany(sweep(runs)));
const wallMs = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
await runtime.close();
console.log(JSON.stringify({ cpuMsPerTask: (cpu.user + cpu.system) / 1000 / runs, wallMsPerTask: wallMs / runs }));

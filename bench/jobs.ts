// Job-runtime benchmark: a 1 000-run parameter sweep of the buck (2 ms each) through the
// scheduler on 1 and on 2 workers (runs/s, speed-up), the scheduler's own cost per task, and the
// latency of a result-cache hit. Returns table lines for bench/run.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime, defaultRuntimeSettings, type Runtime } from '../src/jobs/runtime.js';
import type { SubmitInput } from '../src/jobs/scheduler.js';
import type { TaskRecord } from '../src/jobs/types.js';
import { buck } from '../test/fixtures/circuits.js';

const RUNS = 1000;

function sweep(count: number): SubmitInput[] {
  const netlist = buck({ tEnd: 2e-3 });
  return Array.from({ length: count }, (_, i) => ({
    owner: 'bench', priority: 'NORMAL' as const, modelName: 'buck', request: {},
    spec: { netlist, parameters: { 'R.1.R': 2 + i * 0.01 } },
  }));
}

function allDone(runtime: Runtime, ids: Set<string>): Promise<void> {
  return new Promise((resolve) => {
    let left = ids.size;
    const listener = (t: TaskRecord): void => {
      if (ids.has(t.id) && (t.state === 'completed' || t.state === 'failed')) {
        ids.delete(t.id);
        if (--left === 0) {
          runtime.events.off('state', listener);
          resolve();
        }
      }
    };
    runtime.events.on('state', listener);
  });
}

async function runSweep(workers: number, cache: boolean): Promise<{ wallMs: number; engineMs: number; runtime: Runtime; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'pesim-bench-'));
  const settings = defaultRuntimeSettings(dir);
  settings.maxConcurrentSimulations = workers;
  settings.cache.enabled = cache;
  settings.scheduler.queueSize = RUNS + 10;
  const runtime = createRuntime(settings);
  await runtime.scheduler.submitMany(sweep(4)); // warm the workers
  await new Promise((r) => setTimeout(r, 500));
  const started = performance.now();
  const tasks = await runtime.scheduler.submitMany(sweep(RUNS));
  await allDone(runtime, new Set(tasks.map((t) => t.id)));
  const wallMs = performance.now() - started;
  const engineMs = tasks.reduce((sum, t) => sum + (runtime.store.tasks.get(t.id)!.runMs ?? 0), 0);
  return { wallMs, engineMs, runtime, dir };
}

export async function jobsBenchmark(): Promise<string[]> {
  const one = await runSweep(1, false);
  await one.runtime.close();
  rmSync(one.dir, { recursive: true, force: true });
  const two = await runSweep(2, true);
  // Cache-hit latency: resubmit sweep items that are now cached, one at a time.
  const items = sweep(200);
  const latencies: number[] = [];
  for (const item of items) {
    const t0 = performance.now();
    const [record] = await two.runtime.scheduler.submitMany([item]);
    latencies.push(performance.now() - t0);
    if (!record.cacheHit) throw new Error('expected a cache hit');
  }
  await two.runtime.close();
  rmSync(two.dir, { recursive: true, force: true });
  latencies.sort((a, b) => a - b);
  const p50 = latencies[Math.floor(latencies.length / 2)];
  const overheadMs = (one.wallMs - one.engineMs) / RUNS;
  const speedup = one.wallMs / two.wallMs;
  return [
    '| job runtime: 1 000-run buck sweep (2 ms each) | value | target |',
    '|---|---|---|',
    `| 1 worker: runs/s | ${((RUNS / one.wallMs) * 1000).toFixed(0)} | |`,
    `| 2 workers: runs/s | ${((RUNS / two.wallMs) * 1000).toFixed(0)} | |`,
    `| speed-up 2 workers / 1 worker | ${speedup.toFixed(2)}× | ≥ 1.8× ${speedup >= 1.8 ? 'met' : 'MISSED'} |`,
    `| runtime cost per task beyond the engine run (1 worker: dispatch, transfer, store, result file) | ${overheadMs.toFixed(2)} ms | < 0.5 ms ${overheadMs < 0.5 ? 'met' : 'MISSED'} |`,
    `| cache-hit submit latency p50 / max of 200 | ${p50.toFixed(2)} / ${latencies.at(-1)!.toFixed(2)} ms | < 2 ms ${p50 < 2 ? 'met' : 'MISSED'} |`,
  ];
}

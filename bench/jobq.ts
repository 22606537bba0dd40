// Benchmark of the job-queue service: the real server on 127.0.0.1 (ephemeral port, temporary data
// and models directories) takes 2 000 submissions of short RC models from concurrent HTTP clients
// (50 distinct parameter sets, so the result cache serves most of them), then every task is
// followed to a final state. Reports submissions/s, completed tasks/s and submit latency
// percentiles. The load test (test/integration/jobq/load.test.ts) runs the same load.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { EmbeddedExecutor } from '../src/jobs/executors/embedded.js';
import { FINAL_STATES, type TaskRecord } from '../src/jobs/types.js';
import { defaultConfig } from '../src/jobq/config.js';
import { startJobq } from '../src/jobq/server.js';
import { rcStep } from '../test/fixtures/circuits.js';
import { benchDataDir } from './data-dir.mjs';

export interface LoadOptions {
  submissions: number;
  /** Concurrent HTTP clients. */
  clients: number;
  /** Distinct parameter sets (the rest are cache hits). */
  distinct: number;
  /** Give up waiting for final states after this long [ms]. */
  deadlineMs: number;
}

export interface LoadReport {
  submissions: number;
  accepted: number;
  rejected: number;
  finished: number;
  completed: number;
  lost: number;
  cacheHits: number;
  submitSeconds: number;
  totalSeconds: number;
  submitsPerSecond: number;
  tasksPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  speedupFactor: number;
}

const quantile = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

export async function runLoad(options: LoadOptions): Promise<LoadReport> {
  const dataDir = benchDataDir('jobq-');
  const modelsDir = mkdtempSync(join(tmpdir(), 'pesim-jobq-load-models-'));
  writeFileSync(join(modelsDir, 'rc.json'), JSON.stringify(rcStep('backward-euler', 1e-5, 2e-3)));
  const config = defaultConfig();
  Object.assign(config.api, { host: '127.0.0.1', port: 0 });
  config.data_dir = dataDir;
  config.simulator.models_dir = modelsDir;
  config.orchestration.queue_size = options.submissions * 2;
  config.orchestration.max_concurrent_simulations = 2;
  const fromSources = import.meta.url.endsWith('.ts');
  const executor = new EmbeddedExecutor({
    threads: 2,
    ...(fromSources ? { workerFile: fileURLToPath(new URL('./jobq-worker.mjs', import.meta.url)) } : {}),
  });
  const jobq = await startJobq(config, { logger: pino({ level: 'silent' }), executor });
  const ids: string[] = [];
  const latencies: number[] = [];
  let rejected = 0;
  const started = performance.now();
  try {
    let next = 0;
    const client = async (): Promise<void> => {
      while (next < options.submissions) {
        const index = next++;
        const body = JSON.stringify({ model_file: 'rc.json', parameters: { 'R.1.R': 100 + (index % options.distinct) }, priority: index % 4 === 0 ? 'HIGH' : 'NORMAL' });
        const t0 = performance.now();
        const response = await fetch(`${jobq.url}/simulations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        const answer = (await response.json()) as { task_id?: string };
        latencies.push(performance.now() - t0);
        if (response.status === 201 && answer.task_id) ids.push(answer.task_id);
        else rejected++;
      }
    };
    await Promise.all(Array.from({ length: options.clients }, client));
    const submitted = performance.now();
    const isFinal = (task: TaskRecord | undefined): boolean => task !== undefined && FINAL_STATES.includes(task.state);
    while (!ids.every((id) => isFinal(jobq.runtime.store.tasks.get(id))) && performance.now() - started < options.deadlineMs) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const finishedAt = performance.now();
    const tasks = ids.map((id) => jobq.runtime.store.tasks.get(id));
    const stats = jobq.service.stats();
    latencies.sort((a, b) => a - b);
    const totalSeconds = (finishedAt - started) / 1000;
    return {
      submissions: options.submissions,
      accepted: ids.length,
      rejected,
      finished: tasks.filter(isFinal).length,
      completed: tasks.filter((t) => t?.state === 'completed').length,
      lost: tasks.filter((t) => t === undefined).length,
      cacheHits: tasks.filter((t) => t?.cacheHit).length,
      submitSeconds: (submitted - started) / 1000,
      totalSeconds,
      submitsPerSecond: options.submissions / ((submitted - started) / 1000),
      tasksPerSecond: tasks.filter(isFinal).length / totalSeconds,
      p50Ms: quantile(latencies, 0.5),
      p99Ms: quantile(latencies, 0.99),
      speedupFactor: stats.figures.speedupFactor,
    };
  } finally {
    await jobq.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(modelsDir, { recursive: true, force: true });
  }
}

export const STANDARD_LOAD: LoadOptions = { submissions: 2000, clients: 16, distinct: 50, deadlineMs: 60_000 };

export async function benchSection(): Promise<string[]> {
  const r = await runLoad(STANDARD_LOAD);
  return [
    '## Job-queue service (port 8000)',
    '',
    `${r.submissions} POST /simulations from ${STANDARD_LOAD.clients} concurrent clients on loopback (RC model, 200 steps, ${STANDARD_LOAD.distinct} parameter sets; 2 worker threads).`,
    '',
    '| submissions | accepted | final | completed | cache hits | lost | submit s | submits/s | tasks/s (to final) | p50 submit ms | p99 submit ms | speedup |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    `| ${r.submissions} | ${r.accepted} | ${r.finished} | ${r.completed} | ${r.cacheHits} | ${r.lost} | ${r.submitSeconds.toFixed(2)} | ${r.submitsPerSecond.toFixed(0)} | ${r.tasksPerSecond.toFixed(0)} | ${r.p50Ms.toFixed(1)} | ${r.p99Ms.toFixed(1)} | ${r.speedupFactor.toFixed(2)} |`,
  ];
}

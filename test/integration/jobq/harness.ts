// Test set-up of the job-queue service: the real server on 127.0.0.1 with an ephemeral port, a
// temporary data directory and a temporary models directory holding the test models, plus small
// HTTP and waiting helpers.
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { EmbeddedExecutor } from '../../../src/jobs/executors/embedded.js';
import { defaultConfig, type JobqConfig } from '../../../src/jobq/config.js';
import { startJobq, type JobqServer, type JobqStartOptions } from '../../../src/jobq/server.js';
import type { TaskRecord, TaskState } from '../../../src/jobs/types.js';
import type { Netlist } from '../../../src/formats/netlist.js';
import { waitForState as waitForRuntimeState } from '../../unit/jobs/harness.js';
import { buck, rcStep } from '../../fixtures/circuits.js';

/** The embedded worker as the tests run it (see workers/flaky-worker.ts). */
export const TEST_WORKER = fileURLToPath(new URL('./workers/loader.mjs', import.meta.url));
export const GECKO_DIR = fileURLToPath(new URL('../../fixtures/gecko/', import.meta.url));

export interface TestService extends JobqServer {
  modelsDir: string;
  dataDir: string;
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: unknown; headers: Headers }>;
  dispose(): Promise<void>;
}

/** Writes the test models: buck (2 ms, global parameter Vin), RC step, bucks of 0.3 s and 5 s, a copied .ipes file. */
export function writeModels(dir: string): void {
  const json = (name: string, netlist: Netlist): void => writeFileSync(join(dir, name), JSON.stringify(netlist));
  json('buck.json', { ...buck({ tEnd: 2e-3, dt: 1e-6 }), parameters: { Vin: 48 }, elements: buck({ tEnd: 2e-3, dt: 1e-6 }).elements.map((e) => (e.name === 'V.1' ? { ...e, params: { waveform: 'dc', value: '$Vin' } } : e)) });
  json('rc.json', rcStep('backward-euler', 1e-5, 5e-3));
  // 5·10⁷ steps: the most the step limit (orchestration.max_steps) allows, long enough to cancel mid-run.
  json('long.json', buck({ tEnd: 5, dt: 1e-7 }));
  // Long enough (3 M steps, ≥ 0.2 s on a fast machine) for progress ticks (every 100 ms) mid-run.
  json('medium.json', buck({ tEnd: 0.3, dt: 1e-7 }));
  copyFileSync(join(GECKO_DIR, 'buck_simple.ipes'), join(dir, 'buck_simple.ipes'));
}

export async function startTestService(adjust: (c: JobqConfig) => void = () => {}, options: JobqStartOptions = {}): Promise<TestService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pesim-jobq-data-'));
  const modelsDir = mkdtempSync(join(tmpdir(), 'pesim-jobq-models-'));
  writeModels(modelsDir);
  const config = defaultConfig();
  config.api.host = '127.0.0.1';
  config.api.port = 0;
  config.data_dir = dataDir;
  config.simulator.models_dir = modelsDir;
  config.orchestration.max_concurrent_simulations = 2;
  config.orchestration.retry_delay = 0.05;
  adjust(config);
  const executor = options.executor ?? new EmbeddedExecutor({ threads: config.orchestration.max_concurrent_simulations, workerFile: TEST_WORKER });
  const jobq = await startJobq(config, { logger: pino({ level: 'silent' }), ...options, executor });
  return {
    ...jobq,
    modelsDir,
    dataDir,
    async request(method, path, body, headers = {}) {
      const response = await fetch(`${jobq.url}${path}`, {
        method,
        headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      return { status: response.status, body: parsed, headers: response.headers };
    },
    async dispose() {
      await jobq.close();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(modelsDir, { recursive: true, force: true });
    },
  };
}

/** Resolves when the task reaches one of the states (the job runtime tests' helper, on this service's runtime). */
export function waitForState(service: JobqServer, id: string, states: TaskState[], timeoutMs = 30_000): Promise<TaskRecord> {
  return waitForRuntimeState(service.runtime, id, states, timeoutMs);
}

export { sleep } from '../../unit/jobs/harness.js';


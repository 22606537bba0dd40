// Test set-up of the job runtime: a temporary data directory, the real store and cache, and the
// real embedded executor (or a given one).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime, defaultRuntimeSettings, type Runtime, type RuntimeOptions, type RuntimeSettings } from '../../../src/jobs/runtime.js';
import type { TaskRecord, TaskState } from '../../../src/jobs/types.js';
import type { SubmitInput } from '../../../src/jobs/scheduler.js';
import type { Netlist } from '../../../src/formats/netlist.js';
import { buck } from '../../fixtures/circuits.js';

export interface TestRuntime extends Runtime {
  dir: string;
  dispose(): Promise<void>;
}

export function testRuntime(adjust: (s: RuntimeSettings) => void = () => {}, options: RuntimeOptions = {}, dir?: string): TestRuntime {
  const dataDir = dir ?? mkdtempSync(join(tmpdir(), 'pesim-jobs-'));
  const settings = defaultRuntimeSettings(dataDir);
  settings.maxConcurrentSimulations = 2;
  adjust(settings);
  const runtime = createRuntime(settings, options);
  return {
    ...runtime,
    dir: dataDir,
    async dispose() {
      await runtime.close();
      if (!dir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function task(netlist: Netlist = buck({ tEnd: 2e-3 }), priority: SubmitInput['priority'] = 'NORMAL', parameters: Record<string, number> = {}): SubmitInput {
  return { owner: 'test', priority, spec: { netlist, parameters }, request: {}, modelName: netlist.name ?? 'test' };
}

/** Resolves when the task reaches one of the states (checked on every state event). */
export function waitForState(runtime: Runtime, id: string, states: TaskState[], timeoutMs = 30_000): Promise<TaskRecord> {
  return new Promise((resolve, reject) => {
    const current = runtime.store.tasks.get(id);
    if (current && states.includes(current.state)) return resolve(current);
    const timer = setTimeout(() => {
      runtime.events.off('state', listener);
      reject(new Error(`task ${id} did not reach ${states.join('/')} (is ${runtime.store.tasks.get(id)?.state})`));
    }, timeoutMs);
    const listener = (t: TaskRecord): void => {
      if (t.id !== id || !states.includes(t.state)) return;
      clearTimeout(timer);
      runtime.events.off('state', listener);
      resolve(t);
    };
    runtime.events.on('state', listener);
  });
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

// A piscina task for the tests: runs one netlist with simulateSync in a worker thread.
import { RunController, simulateSync, type ControlBuffers, type Netlist } from '../../../src/index.js';
import { threadId } from 'node:worker_threads';

export interface WorkerOutcome {
  threadId: number;
  average?: number;
  steps?: number;
  // Errors cross the thread boundary as plain data: structured cloning drops an Error's `code`.
  error?: { code: string; message: string };
}

export default function run(task: { netlist: Netlist; buffers?: ControlBuffers }): WorkerOutcome {
  const controller = task.buffers ? new RunController(task.buffers) : undefined;
  try {
    const result = simulateSync(task.netlist, { controller });
    return { threadId, average: result.measurements['SCOPE.1.ch1_avg'], steps: result.stats.steps };
  } catch (error) {
    const e = error as Error & { code?: string };
    return { threadId, error: { code: e.code ?? 'ENGINE_ERROR', message: e.message } };
  }
}

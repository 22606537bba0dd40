// Piscina task of the embedded executor: runs one simulation with the addon on this worker thread
// (or a group of them, one after the other: see embedded.ts) and, when asked, writes the result
// file here too, so encoding (Parquet, HDF5, CSV) runs in parallel on the workers instead of on
// the scheduler's thread. Errors return as data because structured cloning drops an Error's `code`.
import { Piscina } from 'piscina';
import { lowerThreadPriority } from '../../threads/priority.js';
import { RunController, simulateSync, steadyStateSync, isDeterministicFailure } from '../../engine/index.js';
import { writableInWorker, writeResultInWorker } from '../cache/formats/eager.js';
import type { ExecutionOutcome, ExecutionRequest } from './types.js';
import type { StoredResult } from '../types.js';
import { runSummary } from './summary.js';

/** What the executor hands each worker thread (Piscina's workerData). */
export interface EmbeddedWorkerData {
  /** Nice levels this thread runs below the service's thread. */
  niceIncrement: number;
}

lowerThreadPriority((Piscina.workerData as EmbeddedWorkerData | undefined)?.niceIncrement ?? 0);

// The arrays of this thread's last result that went to a file rather than back to the scheduler:
// the next run records into their memory (see SimulateSyncOptions.reuse). A result larger than
// REUSE_LIMIT_BYTES is let go instead, so that an idle worker does not hold a huge run's memory.
let reusable: Float64Array[] = [];
const REUSE_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * What a group task returns: the outcome of each run it made and the time each took on this
 * thread [ms], in order. Once the runs made take longer than the group's window, the rest are
 * left for the executor to send again (runs longer than their group size assumed).
 */
export interface GroupAnswer {
  outcomes: ExecutionOutcome[];
  runMs: number[];
}

/** A piscina task: one run, or `{ group }`, several runs in one message and one answer. */
export default function runTasks(task: ExecutionRequest | { group: ExecutionRequest[]; windowMs: number }): Promise<unknown> {
  return 'group' in task ? runGroup(task.group, task.windowMs) : runTask(task);
}

async function runGroup(requests: ExecutionRequest[], windowMs: number): Promise<unknown> {
  const answer: GroupAnswer = { outcomes: [], runMs: [] };
  const transfer: ArrayBufferLike[] = [];
  const groupStarted = performance.now();
  for (const request of requests) {
    const started = performance.now();
    if (answer.outcomes.length > 0 && started - groupStarted > windowMs) break;
    // A run cancelled while it waited in its group does not start.
    const outcome: ExecutionOutcome = new RunController(request.buffers).cancelled
      ? { ok: false, error: { code: 'CANCELLED', message: 'cancelled before it started', deterministic: false } }
      : await runOne(request);
    answer.runMs.push(performance.now() - started);
    answer.outcomes.push(outcome);
    if ('result' in outcome) transfer.push(...transferOf(outcome.result));
  }
  if (transfer.length === 0) return answer;
  const movable = { [Piscina.transferableSymbol]: transfer, [Piscina.valueSymbol]: answer };
  return Piscina.move(movable as unknown as Parameters<typeof Piscina.move>[0]);
}

/** The arrays of a result handed back without copying them (piscina's Transferable protocol). */
function transferOf(result: StoredResult): ArrayBufferLike[] {
  return [result.time.buffer, ...Object.values(result.signals).map((s) => s.buffer)];
}

/** One run (the task of a worker file that wraps this one, see test/unit/jobs/workers). */
export async function runTask(request: ExecutionRequest): Promise<unknown> {
  const outcome = await runOne(request);
  if (!('result' in outcome)) return outcome;
  const movable = { [Piscina.transferableSymbol]: transferOf(outcome.result), [Piscina.valueSymbol]: outcome };
  return Piscina.move(movable as unknown as Parameters<typeof Piscina.move>[0]);
}

async function runOne(request: ExecutionRequest): Promise<ExecutionOutcome> {
  const controller = new RunController(request.buffers);
  try {
    const { netlist, parameters, steady } = request.spec;
    // A steady-state run records one period: nothing worth reusing memory for.
    const result = steady ? steadyStateSync(netlist, { ...steady, parameters, controller }) : simulateSync(netlist, { parameters, controller, reuse: reusable });
    reusable = [];
    const wanted = request.spec.signals;
    const signals: Record<string, Float64Array> = {};
    for (const [key, values] of Object.entries(result.signals)) {
      if (!wanted || wanted.includes(key)) signals[key] = values;
    }
    const stored: StoredResult = { time: result.time, signals, measurements: result.measurements, stats: result.stats, losses: result.losses };
    if (result.steady) stored.steady = result.steady;
    if (request.output && writableInWorker(request.output.format)) {
      const { path, format, compression, sync } = request.output;
      await writeResultInWorker(path, stored, format, compression, { sync });
      const arrays = [result.time, ...Object.values(result.signals)];
      if (arrays.reduce((sum, a) => sum + a.buffer.byteLength, 0) <= REUSE_LIMIT_BYTES) reusable = arrays;
      const written: ExecutionOutcome = { ok: true, written: runSummary(stored) };
      return written;
    }
    return { ok: true, result: stored };
  } catch (error) {
    const e = error as Error & { code?: string; element?: string; node?: string; time?: number };
    return {
      ok: false,
      error: {
        code: e.code ?? 'ENGINE_ERROR',
        message: e.message,
        element: e.element,
        node: e.node,
        time: e.time,
        deterministic: isDeterministicFailure(error) || e.name === 'NetlistError',
      },
    };
  }
}

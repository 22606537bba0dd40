// Piscina task of the embedded executor: runs one simulation with the addon on this worker thread
// and, when asked, writes the result file here too, so encoding (Parquet, HDF5, CSV) runs in
// parallel on the workers instead of on the scheduler's thread. Errors return as data because
// structured cloning drops an Error's `code`.
import { Piscina } from 'piscina';
import { RunController, simulateSync, steadyStateSync, isDeterministicFailure } from '../../engine/index.js';
import { writableInWorker, writeResultInWorker } from '../cache/formats/eager.js';
import type { ExecutionOutcome, ExecutionRequest } from './types.js';
import type { StoredResult } from '../types.js';
import { runSummary } from './summary.js';

// The arrays of this thread's last result that went to a file rather than back to the scheduler:
// the next run records into their memory (see SimulateSyncOptions.reuse). A result larger than
// REUSE_LIMIT_BYTES is let go instead, so that an idle worker does not hold a huge run's memory.
let reusable: Float64Array[] = [];
const REUSE_LIMIT_BYTES = 64 * 1024 * 1024;

export default async function runTask(request: ExecutionRequest): Promise<unknown> {
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
    const outcome: ExecutionOutcome = {
      ok: true,
      result: stored,
    };
    // Hand the arrays over without copying them (piscina's Transferable protocol).
    const transfer = [result.time.buffer, ...Object.values(signals).map((s) => s.buffer)];
    const movable = { [Piscina.transferableSymbol]: transfer, [Piscina.valueSymbol]: outcome };
    return Piscina.move(movable as unknown as Parameters<typeof Piscina.move>[0]);
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

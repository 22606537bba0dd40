// The periodic steady-state analysis (docs/steady-state.md): one settled period of the circuit, found
// by the shooting method in the engine (native/core/src/steady/), instead of a long transient run.
import { CancelledError, toEngineError } from './errors.js';
import { RunController, type Progress } from './controller.js';
import { loadBinding } from './binding.js';
import { prepareNetlist, toResult, type SimulationResult } from './simulate.js';
import type { Netlist, ParameterOverrides } from '../formats/netlist.js';
import type { SteadyOptions } from './types.js';

export interface SteadyStateOptions extends SteadyOptions {
  /** Parameter overrides: `<component>.<parameter>` or `$<global>`. */
  parameters?: ParameterOverrides;
  /** Called with the progress of the period being simulated, at most every `progressIntervalMs`. */
  onProgress?: (progress: Progress) => void;
  progressIntervalMs?: number;
  /** Aborting cancels the analysis; the promise rejects with CancelledError. */
  signal?: AbortSignal;
  controller?: RunController;
}

/** The engine's options from the caller's (the fields it knows, nothing else). */
function engineOptions(options: SteadyOptions): SteadyOptions {
  const { period, tolerance, maxIterations, maxPeriods, temperatures, initPeriods, perturbation, jacobian } = options;
  const out: SteadyOptions = {};
  if (period !== undefined) out.period = period;
  if (tolerance !== undefined) out.tolerance = tolerance;
  if (maxIterations !== undefined) out.maxIterations = maxIterations;
  if (maxPeriods !== undefined) out.maxPeriods = maxPeriods;
  if (temperatures !== undefined) out.temperatures = temperatures;
  if (initPeriods !== undefined) out.initPeriods = initPeriods;
  if (perturbation !== undefined) out.perturbation = perturbation;
  if (jacobian !== undefined) out.jacobian = jacobian;
  return out;
}

/**
 * The circuit's periodic steady state: one settled period (time from 0 to the period), its
 * measurements, and `steady` (iterations, periodicity error, ...). Runs on the libuv pool.
 * Throws EngineError `STEADY_STATE_UNSUPPORTED` when the circuit has no periodic steady state to look for.
 */
export async function steadyState(netlist: Netlist, options: SteadyStateOptions = {}): Promise<SimulationResult> {
  const prepared = prepareNetlist(netlist, options.parameters);
  const controller = options.controller ?? new RunController();
  const { signal, onProgress } = options;
  if (signal?.aborted) throw new CancelledError('CANCELLED', 'the run was cancelled before it started');
  const onAbort = (): void => controller.cancel();
  signal?.addEventListener('abort', onAbort, { once: true });
  const timer = onProgress ? setInterval(() => onProgress(controller.progress()), options.progressIntervalMs ?? 100) : undefined;
  try {
    return toResult(await loadBinding().steadyAsync(prepared, engineOptions(options), controller.native));
  } catch (error) {
    throw toEngineError(error);
  } finally {
    if (timer) clearInterval(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/** steadyState on the calling thread (blocks it): for worker threads and scripts. */
export function steadyStateSync(netlist: Netlist, options: SteadyOptions & { parameters?: ParameterOverrides; controller?: RunController } = {}): SimulationResult {
  const prepared = prepareNetlist(netlist, options.parameters);
  try {
    return toResult(loadBinding().steadySync(prepared, engineOptions(options), options.controller?.native));
  } catch (error) {
    throw toEngineError(error);
  }
}

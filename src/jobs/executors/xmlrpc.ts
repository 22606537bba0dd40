// The XML-RPC executor of the job queue (`simulator.mode: xmlrpc`): each task runs on a simulator
// reached over its PLECS remote-control dialect — `pesim serve` (its SIM_RMI_PORT) or any server
// speaking it — as plecs.load(<model file>) and plecs.simulate(<model>, {ModelVars}) with the
// task's parameters (`$Vin` sent as `Vin`, `R.1.R` as is); a steady-state task as
// plecs.analyze(<model>, 'Steady-State Analysis', {ModelVars, AnalysisOpts}). The rows of Values are the model's scope
// channels in file order, mapped back to the task's channel keys. A simulator that cannot be
// reached fails the attempt with SIMULATOR_CONNECTION_ERROR (not deterministic: the scheduler
// retries it with the task's back-off); a fault of the simulator fails it for good. A probe
// (system.listMethods) every few seconds keeps connected() true to the simulator's state.
import { resolve } from 'node:path';
import { RunController } from '../../engine/controller.js';
import { channelKeys, type Netlist } from '../../formats/netlist.js';
import { XmlRpcClient, XmlRpcConnectionError } from '../../xmlrpc/client.js';
import { FAULT, XmlRpcFault, isStruct, type XmlRpcValue } from '../../xmlrpc/values.js';
import type { StoredResult } from '../types.js';
import type { SteadyOptions, SteadyReport } from '../../engine/types.js';
import type { ExecutionOutcome, ExecutionRequest, Executor } from './types.js';

export interface XmlRpcExecutorOptions {
  host: string;
  port: number;
  /** Seconds a call may take (simulator.timeout). */
  timeoutSeconds: number;
  /** Folder model_file paths are resolved against; the simulator receives absolute paths. */
  modelsDir: string;
  /** Calls at once. */
  capacity: number;
  /** Milliseconds between probes (default 2000). */
  probeIntervalMs?: number;
}

export const CONNECTION_SUGGESTION = 'Start the simulator (pesim serve, XML-RPC on SIM_RMI_PORT) or correct simulator.host / simulator.port, then retry';

/** Scope channel keys in the order of plecs.simulate's Values rows. */
function channelOrder(netlist: Netlist): string[] {
  return channelKeys(netlist);
}

/** The AnalysisOpts of plecs.analyze for a task's steady-state options (PLECS's names). */
function analysisOptions(steady: SteadyOptions): Record<string, number | string> {
  const options: Record<string, number | string> = {};
  if (steady.period !== undefined) options.TimeSpan = steady.period;
  if (steady.tolerance !== undefined) options.Tolerance = steady.tolerance;
  if (steady.maxIterations !== undefined) options.MaxIter = steady.maxIterations;
  if (steady.initPeriods !== undefined) options.InitCycles = steady.initPeriods;
  if (steady.perturbation !== undefined) options.JacobianPerturbation = steady.perturbation;
  if (steady.jacobian !== undefined) options.JacobianCalculation = steady.jacobian;
  return options;
}

function numbers(value: XmlRpcValue | undefined, what: string): Float64Array {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'number')) throw new Error(`the simulator's answer has no numeric array ${what}`);
  return Float64Array.from(value as number[]);
}

export class XmlRpcExecutor implements Executor {
  readonly name = 'xmlrpc';
  readonly capacity: number;
  private readonly client: XmlRpcClient;
  private readonly probeTimer: NodeJS.Timeout;
  private reachable = false;
  private closed = false;

  constructor(private readonly options: XmlRpcExecutorOptions) {
    this.capacity = options.capacity;
    this.client = new XmlRpcClient({ host: options.host, port: options.port, timeoutSeconds: options.timeoutSeconds });
    this.probeTimer = setInterval(() => void this.probe(), options.probeIntervalMs ?? 2000);
    this.probeTimer.unref();
    void this.probe();
  }

  /** Asks the simulator for its methods; true when it answered with the PLECS dialect. */
  async probe(): Promise<boolean> {
    try {
      const methods = await this.client.call('system.listMethods', [], Math.min(5, this.options.timeoutSeconds || 5));
      this.reachable = Array.isArray(methods) && methods.includes('plecs.simulate');
    } catch {
      this.reachable = false;
    }
    return this.reachable;
  }

  async run(request: ExecutionRequest): Promise<ExecutionOutcome> {
    const controller = new RunController(request.buffers);
    const abort = new AbortController();
    const watch = setInterval(() => controller.cancelled && abort.abort(), 100);
    const started = Date.now();
    try {
      const { netlist, parameters } = request.spec;
      const modelVars: Record<string, number> = {};
      for (const [key, value] of Object.entries(parameters)) modelVars[key.startsWith('$') ? key.slice(1) : key] = value;
      const model = await this.client.call('plecs.load', [resolve(this.options.modelsDir, netlist.name ?? '')], undefined, abort.signal);
      if (typeof model !== 'string') throw new Error('plecs.load answered no model name');
      const { steady } = request.spec;
      const answer = steady
        ? await this.client.call('plecs.analyze', [model, 'Steady-State Analysis', { ModelVars: modelVars, AnalysisOpts: analysisOptions(steady) }], undefined, abort.signal)
        : await this.client.call('plecs.simulate', [model, { ModelVars: modelVars }], undefined, abort.signal);
      this.reachable = true;
      return { ok: true, result: this.toResult(netlist, request.spec.signals, answer, Date.now() - started) };
    } catch (error) {
      if (error instanceof XmlRpcConnectionError || (error as Error).name === 'AbortError') {
        if (!abort.signal.aborted) this.reachable = false;
        const message = abort.signal.aborted ? 'the run was cancelled' : `cannot reach the simulator at ${this.client.address}: ${(error as Error).message}. ${CONNECTION_SUGGESTION}`;
        return { ok: false, error: { code: 'SIMULATOR_CONNECTION_ERROR', message, deterministic: false } };
      }
      // A simulator whose own queue is full may take the run later: that attempt is retried.
      const busy = error instanceof XmlRpcFault && error.faultCode === FAULT.QUEUE_FULL;
      return { ok: false, error: { code: busy ? 'SIMULATOR_BUSY' : 'SIMULATION_FAILED', message: `the simulator at ${this.client.address}: ${(error as Error).message}`, deterministic: !busy } };
    } finally {
      clearInterval(watch);
    }
  }

  private toResult(netlist: Netlist, wanted: string[] | undefined, answer: XmlRpcValue, wallMs: number): StoredResult {
    if (!isStruct(answer)) throw new Error('plecs.simulate answered something other than {Time, Values}');
    const time = numbers(answer.Time, 'Time');
    const rows = Array.isArray(answer.Values) ? answer.Values : [];
    const keys = channelOrder(netlist);
    const signals: Record<string, Float64Array> = {};
    for (const key of wanted ?? keys.slice(0, rows.length)) {
      const index = keys.indexOf(key);
      if (index < 0 || index >= rows.length) {
        throw new Error(`${key} is not a scope channel of the model file; in simulator.mode xmlrpc only the model's own scope channels can be output variables`);
      }
      signals[key] = numbers(rows[index], `Values[${index}]`);
      if (signals[key].length !== time.length) throw new Error(`Values[${index}] has ${signals[key].length} samples for ${time.length} times`);
    }
    const stats = { steps: Math.max(0, time.length - 1), preSteps: 0, factorizations: 0, cacheHits: 0, switchingEvents: 0, extraSolves: 0, unknowns: 0, solver: 'sparse' as const, wallMs };
    const result: StoredResult = { time, signals, measurements: {}, stats };
    // pesim's plecs.analyze reports how it found the settled period; other simulators may not.
    if (isStruct(answer.SteadyState)) result.steady = answer.SteadyState as unknown as SteadyReport;
    return result;
  }

  connected(): boolean {
    return !this.closed && this.reachable;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.probeTimer);
    this.client.close();
  }
}

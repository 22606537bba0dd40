// RemoteSession: one loaded circuit, the parameter and setting changes made to it since it was
// loaded, the run in progress and the last completed run — the state behind the remote-control
// operations (RemoteOperations in types.ts). The XML-RPC server keeps one per server; `pesim script`
// keeps one per script. Where runs execute is the SimulationRunner's business.
import { resolve } from 'node:path';
import { CancelledError, EngineError } from '../engine/errors.js';
import type { Progress } from '../engine/controller.js';
import { validateNetlist } from '../engine/simulate.js';
import type { SteadyOptions } from '../engine/types.js';
import { NetlistError } from '../formats/errors.js';
import { SIGNAL_TIMINGS, type Netlist, type SignalTiming } from '../formats/netlist.js';
import { readCircuitAt, writeCircuitAt, type LoadedCircuit } from './circuit-files.js';
import { checkExportFormat, exportResult } from './export-data.js';
import { channelOf, componentNamed, componentsOf, findComponent, findParameter, isNumericParameter, measurementKey, numericValue } from './lookup.js';
import { resolveRemotePath, type PathPolicy } from './paths.js';
import {
  RemoteError, type CircuitSummary, type RemoteExportFormat, type RemoteOperations, type RemoteRun, type SimulationRunner, type Waveform,
} from './types.js';

export interface RemoteSessionOptions {
  runner: SimulationRunner;
  /** Relative paths resolve against this folder (default: the working directory). */
  baseDir?: string;
  /** When set, paths outside this folder are refused (PATH_OUTSIDE_ROOT). */
  root?: string;
  /** Progress of the run in progress. */
  onProgress?: (progress: Progress) => void;
}

interface Loaded extends LoadedCircuit {
  path: string;
}

function positive(value: number, what: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new RemoteError('INVALID_ARGUMENT', `${what}: expected a positive number of seconds, got ${JSON.stringify(value)}`);
  }
  return value;
}

function finite(value: number, what: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new RemoteError('INVALID_ARGUMENT', `${what}: expected a finite number, got ${JSON.stringify(value)}`);
  return value;
}

/**
 * The engine's verdict on a parameter value (its ranges: a resistance > 0, a duty cycle in [0, 1]),
 * so that a value out of range is refused when it is set, not when the circuit runs: the error
 * when the engine finds a parameter out of range that `changed` picks out; undefined otherwise
 * (other problems of the circuit are runSimulation's to report).
 */
function outOfRange(netlist: Netlist, changed: (error: EngineError) => boolean): EngineError | undefined {
  try {
    validateNetlist(netlist);
  } catch (error) {
    if (error instanceof EngineError && error.code === 'PARAMETER_OUT_OF_RANGE' && changed(error)) return error;
  }
  return undefined;
}

/** True when the parameter an engine error names holds a reference to the global `key`. */
function refersTo(netlist: Netlist, error: EngineError, key: string): boolean {
  const owner = error.element === undefined ? undefined : componentNamed(netlist, error.element);
  return error.field !== undefined && owner?.params?.[error.field] === `$${key}`;
}

export class RemoteSession implements RemoteOperations {
  private loaded: Loaded | undefined;
  /** The loaded netlist with this session's changes; rebuilt from `loaded` on reset. */
  private changed: Netlist | undefined;
  private running: AbortController | undefined;
  private last: RemoteRun | undefined;
  /** A run in progress whose results so far stand for the last run (GeckoSCRIPT's step-wise run). */
  private live: (() => RemoteRun) | undefined;
  private readonly paths: PathPolicy;

  constructor(private readonly options: RemoteSessionOptions) {
    this.paths = { base: resolve(options.baseDir ?? process.cwd()), root: options.root };
  }

  async loadCircuit(path: string): Promise<CircuitSummary> {
    const absolute = resolveRemotePath(path, this.paths, 'loadCircuit');
    const circuit = await readCircuitAt(absolute);
    this.loaded = { ...circuit, path: absolute };
    this.changed = structuredClone(circuit.netlist);
    this.last = undefined;
    this.live = undefined;
    return {
      path: absolute,
      format: circuit.format,
      components: componentsOf(circuit.netlist).map((item) => item.name),
      scopes: (circuit.netlist.blocks ?? []).filter((b) => b.type === 'SCOPE').map((b) => b.name),
      globals: { ...(circuit.netlist.parameters ?? {}) },
      warnings: circuit.warnings,
    };
  }

  async saveCircuit(path: string): Promise<string> {
    const netlist = this.circuit();
    const absolute = resolveRemotePath(path, this.paths, 'saveCircuit');
    await writeCircuitAt(absolute, netlist);
    return absolute;
  }

  runSimulation(): Promise<string> {
    return this.run('runSimulation');
  }

  runSteadyState(options: SteadyOptions = {}): Promise<string> {
    return this.run('runSteadyState', options);
  }

  private async run(operation: string, steady?: SteadyOptions): Promise<string> {
    const netlist = this.circuit();
    if (this.running) throw new RemoteError('BUSY', `${operation}: a simulation is already running in this session; stopSimulation() stops it`);
    const abort = new AbortController();
    this.running = abort;
    try {
      const run = await this.options.runner.run(netlist, { signal: abort.signal, onProgress: this.options.onProgress, ...(steady ? { steady } : {}) });
      this.last = run;
      this.live = undefined;
      return run.id;
    } catch (error) {
      if (abort.signal.aborted || error instanceof CancelledError) throw new RemoteError('CANCELLED', `${operation}: the simulation was stopped by stopSimulation()`);
      if (error instanceof RemoteError) throw error;
      if (error instanceof EngineError || error instanceof NetlistError) {
        throw new RemoteError('SIMULATION_FAILED', `${operation}: ${error.code}: ${error.message}`, { cause: error });
      }
      throw new RemoteError('SIMULATION_FAILED', `${operation}: ${(error as Error).message}`, { cause: error });
    } finally {
      this.running = undefined;
    }
  }

  stopSimulation(): boolean {
    if (!this.running) return false;
    this.running.abort();
    return true;
  }

  resetSimulation(): void {
    this.stopSimulation();
    this.last = undefined;
    this.live = undefined;
    if (this.loaded) this.changed = structuredClone(this.loaded.netlist);
  }

  setParameter(component: string, param: string, value: number): void {
    const netlist = this.circuit();
    const item = findComponent(netlist, component);
    const name = findParameter(item, param);
    if (!isNumericParameter(item.params?.[name])) {
      throw new RemoteError('INVALID_ARGUMENT', `setParameter: ${item.name}.${name} is ${JSON.stringify(item.params?.[name])}, not a number; it cannot be set to one`);
    }
    const before = item.params;
    item.params = { ...(item.params ?? {}), [name]: finite(value, `setParameter ${item.name}.${name}`) };
    const refused = outOfRange(netlist, (e) => e.element === item.name && e.field === name);
    if (refused) {
      item.params = before;
      throw new RemoteError('INVALID_ARGUMENT', `setParameter ${item.name}.${name} = ${value}: ${refused.message}`);
    }
  }

  getParameter(component: string, param: string): number | string {
    const netlist = this.circuit();
    const item = findComponent(netlist, component);
    const name = findParameter(item, param);
    return numericValue(item.params![name], netlist);
  }

  setGlobalParameter(name: string, value: number): void {
    const netlist = this.circuit();
    const key = this.globalName(netlist, name);
    const before = netlist.parameters;
    netlist.parameters = { ...netlist.parameters, [key]: finite(value, `setGlobalParameter ${key}`) };
    const refused = outOfRange(netlist, (e) => refersTo(netlist, e, key));
    if (refused) {
      netlist.parameters = before;
      throw new RemoteError('INVALID_ARGUMENT', `setGlobalParameter $${key} = ${value}: ${refused.message}`);
    }
  }

  getGlobalParameter(name: string): number {
    const netlist = this.circuit();
    return netlist.parameters![this.globalName(netlist, name)];
  }

  getMeasurement(scope: string, channel: string): number {
    const { result } = this.lastRunOrThrow('getMeasurement');
    return result.measurements[measurementKey(result, scope, channel)];
  }

  getWaveform(scope: string, channel: string): Waveform {
    const { result } = this.lastRunOrThrow('getWaveform');
    const key = channelOf(result, scope, channel);
    return { time: Array.from(result.time), values: Array.from(result.signals[key]) };
  }

  async exportData(path: string, format: RemoteExportFormat): Promise<string> {
    const checked = checkExportFormat(format);
    const { result } = this.lastRunOrThrow('exportData');
    const absolute = resolveRemotePath(path, this.paths, 'exportData');
    await exportResult(absolute, checked, result);
    return absolute;
  }

  getTimeStep(): number {
    return this.circuit().settings.dt;
  }

  setTimeStep(dt: number): void {
    const netlist = this.circuit();
    netlist.settings = { ...netlist.settings, dt: positive(dt, 'set_dt') };
  }

  getEndTime(): number {
    return this.circuit().settings.tEnd;
  }

  setEndTime(tEnd: number): void {
    const netlist = this.circuit();
    netlist.settings = { ...netlist.settings, tEnd: positive(tEnd, 'set_Tend') };
  }

  getPreSimulationTime(): number {
    return this.circuit().settings.tPre ?? -1;
  }

  setPreSimulationTime(tPre: number): void {
    if (typeof tPre !== 'number' || !Number.isFinite(tPre)) {
      throw new RemoteError('INVALID_ARGUMENT', `set_Tend_pre: expected a number of seconds (≤ 0: no pre-simulation), got ${JSON.stringify(tPre)}`);
    }
    const netlist = this.circuit();
    const { tPre: _dropped, ...rest } = netlist.settings;
    netlist.settings = tPre > 0 ? { ...rest, tPre } : rest;
  }

  getPreSimulationStep(): number {
    const { dtPre, dt } = this.circuit().settings;
    return dtPre ?? dt;
  }

  setPreSimulationStep(dtPre: number): void {
    const netlist = this.circuit();
    netlist.settings = { ...netlist.settings, dtPre: positive(dtPre, 'set_dt_pre') };
  }

  /** Discretisation of the signal sources (NetlistSettings.timing; .ipes models default to gecko). */
  getTiming(): SignalTiming {
    return this.circuit().settings.timing ?? 'exact';
  }

  setTiming(timing: string): void {
    const netlist = this.circuit();
    if (!SIGNAL_TIMINGS.includes(timing as SignalTiming)) {
      throw new RemoteError('INVALID_ARGUMENT', `setTiming: expected one of ${SIGNAL_TIMINGS.join(', ')}, got ${JSON.stringify(timing)}`);
    }
    netlist.settings = { ...netlist.settings, timing: timing as SignalTiming };
  }

  circuit(): Netlist {
    if (!this.changed) throw new RemoteError('NO_CIRCUIT', 'no circuit is loaded: call loadCircuit(path) first');
    return this.changed;
  }

  /** Path and format of the loaded circuit file. */
  circuitFile(): { path: string; format: LoadedCircuit['format'] } | undefined {
    return this.loaded && { path: this.loaded.path, format: this.loaded.format };
  }

  lastRun(): RemoteRun | undefined {
    return this.live ? this.live() : this.last;
  }

  /** Makes the results so far of a run in progress (read through `live`) the last run's, until adoptRun. */
  followRun(live: () => RemoteRun): void {
    this.live = live;
  }

  /** Makes `run` the last completed run (a step-wise run that ended); without one, the run followed is dropped. */
  adoptRun(run: RemoteRun | undefined): void {
    this.live = undefined;
    if (run) this.last = run;
  }

  isRunning(): boolean {
    return this.running !== undefined;
  }

  private lastRunOrThrow(operation: string): RemoteRun {
    const run = this.lastRun();
    if (!run) throw new RemoteError('NO_RESULT', `${operation}: no completed simulation; call runSimulation() first`);
    return run;
  }

  private globalName(netlist: Netlist, name: string): string {
    const bare = typeof name === 'string' && name.startsWith('$') ? name.slice(1) : name;
    const globals = Object.keys(netlist.parameters ?? {});
    if (globals.includes(bare)) return bare;
    const folded = globals.filter((g) => g.toLowerCase() === String(bare).toLowerCase());
    if (folded.length === 1) return folded[0];
    const known = globals.length > 0 ? globals.map((g) => `$${g}`).join(', ') : 'none';
    throw new RemoteError('UNKNOWN_PARAMETER', `no global parameter ${JSON.stringify(name)}; the circuit's global parameters: ${known}`);
  }
}

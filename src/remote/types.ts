// The remote-control operations of the simulation specification (its "RMI" table) as one interface.
// The XML-RPC server (`pesim serve`, port 1099) and the scripting language (`pesim script`) both
// drive a circuit through a RemoteSession implementing it, so a method means the same on both.
import type { Netlist, SignalTiming } from '../formats/netlist.js';
import type { Progress } from '../engine/controller.js';
import type { SimulationResult } from '../engine/simulate.js';
import type { SteadyOptions } from '../engine/types.js';
import { PesimError } from '../errors/pesim-error.js';

export type RemoteExportFormat = 'csv' | 'json' | 'parquet';

export interface Waveform {
  time: number[];
  values: number[];
}

/** What loadCircuit reports about the circuit it read. */
export interface CircuitSummary {
  /** Absolute path of the file read. */
  path: string;
  format: 'json' | 'ipes' | 'spice';
  components: string[];
  scopes: string[];
  /** Global parameters (`$name`) with their values. */
  globals: Record<string, number>;
  warnings: string[];
}

/** One finished run: its id (the job runtime's simulation id, or a local counter) and its result. */
export interface RemoteRun {
  id: string;
  result: SimulationResult;
}

export interface RunOptions {
  /** Aborting stops the run; the promise then rejects with a RemoteError `CANCELLED`. */
  signal: AbortSignal;
  onProgress?: (progress: Progress) => void;
  /** The periodic steady-state analysis instead of the transient (docs/steady-state.md): one settled period. */
  steady?: SteadyOptions;
}

/**
 * Where a session's runs execute: in-process through the engine API (`pesim script`), or on the
 * service's job runtime so that they appear in `GET /api/v1/simulations` (`pesim serve`).
 * `netlist` has the session's parameter changes applied already.
 */
export interface SimulationRunner {
  run(netlist: Netlist, options: RunOptions): Promise<RemoteRun>;
}

export type RemoteErrorCode =
  | 'NO_CIRCUIT' // an operation needs a loaded circuit
  | 'NO_RESULT' // a measurement, waveform or export before a completed run
  | 'PATH_OUTSIDE_ROOT' // a path escapes the session's root directory
  | 'FILE_NOT_FOUND'
  | 'CIRCUIT_INVALID' // the file does not read as a circuit (message names line and field)
  | 'UNKNOWN_COMPONENT'
  | 'UNKNOWN_PARAMETER'
  | 'UNKNOWN_CHANNEL'
  | 'INVALID_ARGUMENT'
  | 'BUSY' // a run is already going on in this session
  | 'CANCELLED' // the run was stopped by stopSimulation()
  | 'SIMULATION_FAILED'; // the engine's error; its message is kept

export class RemoteError extends PesimError {
  declare readonly code: RemoteErrorCode;

  constructor(code: RemoteErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/** The specification's remote-control operations, plus the settings GeckoSCRIPT scripts use. */
export interface RemoteOperations {
  /** Reads a circuit file (`.ipes`, SPICE or JSON netlist); clears parameter changes and results. */
  loadCircuit(path: string): Promise<CircuitSummary>;
  /** Writes the circuit with the session's parameter changes; the format follows the extension (`.ipes`, `.json`, `.cir`/`.sp`). Returns the absolute path. */
  saveCircuit(path: string): Promise<string>;
  /** Runs the circuit to its end time and resolves with the run's id. */
  runSimulation(): Promise<string>;
  /** Runs the periodic steady-state analysis (docs/steady-state.md): the last run is then one settled period (its report in `result.steady`). */
  runSteadyState(options?: SteadyOptions): Promise<string>;
  /** Stops the run in progress; false when none is running. */
  stopSimulation(): boolean;
  /** Forgets the last result and every parameter change since loadCircuit. */
  resetSimulation(): void;
  /** `component` as in the netlist (`R.1`), `param` its parameter name (`R`). */
  setParameter(component: string, param: string, value: number): void;
  getParameter(component: string, param: string): number | string;
  setGlobalParameter(name: string, value: number): void;
  getGlobalParameter(name: string): number;
  /** `channel` as `ch1_avg` (`_avg`, `_rms`, `_min`, `_max`) over the measurement window of the last run. */
  getMeasurement(scope: string, channel: string): number;
  /** `channel` as `ch1` (or the channel's label): the last run's samples. */
  getWaveform(scope: string, channel: string): Waveform;
  /** Writes the last run's waveforms; returns the absolute path. */
  exportData(path: string, format: RemoteExportFormat): Promise<string>;
  /** Fixed time step and end time of the loaded circuit (GeckoSCRIPT `get_dt`/`set_dt`, `get_Tend`/`set_Tend`). */
  getTimeStep(): number;
  setTimeStep(dt: number): void;
  getEndTime(): number;
  setEndTime(tEnd: number): void;
  /**
   * The pre-simulation over [−tPre, 0) (GeckoSCRIPT `get_Tend_pre`/`set_Tend_pre`, `get_dt_pre`/
   * `set_dt_pre`): tPre is −1 when there is none, as GeckoCIRCUITS stores it; dtPre defaults to dt.
   * Setting tPre ≤ 0 removes the pre-simulation.
   */
  getPreSimulationTime(): number;
  setPreSimulationTime(tPre: number): void;
  getPreSimulationStep(): number;
  setPreSimulationStep(dtPre: number): void;
  /** How the signal sources are discretised ("gecko" as GeckoCIRCUITS steps them, or "exact"). */
  getTiming(): SignalTiming;
  setTiming(timing: string): void;
  /** The loaded circuit with the session's changes applied (for readers such as the scripting language). */
  circuit(): Netlist;
  /** The last completed run, if any. */
  lastRun(): RemoteRun | undefined;
}

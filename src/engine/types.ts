// The hand-written type of the native addon (native/addon/addon.cc). Only src/engine touches it.
import type { Netlist } from '../formats/netlist.js';

/** Shared control buffers: flags [cancel, pause] and progress [step, totalSteps, time, phase, paused]. */
export interface NativeControl {
  flags?: Int32Array;
  progress?: Float64Array;
}

export interface NativeChannel {
  key: string;
  scope: string;
  index: number;
  label: string;
  values: Float64Array;
}

export interface RunStats {
  steps: number;
  preSteps: number;
  factorizations: number;
  cacheHits: number;
  switchingEvents: number;
  extraSolves: number;
  unknowns: number;
  solver: 'dense' | 'sparse';
  wallMs: number;
}

/** Losses of one semiconductor over the measurement window, from the loss model the run used. */
export interface DeviceLossSummary {
  device: string;
  /** [W] */
  conductionLoss: number;
  /** [W] */
  switchingLoss: number;
  /** [W] */
  totalLoss: number;
  /** Turn-ons plus turn-offs in the window. */
  switchingEvents: number;
  /** [A] */
  averageCurrent: number;
  /** [A] */
  rmsCurrent: number;
  /** Mean junction temperature [°C], when a PV element couples the device to a thermal network. */
  junctionTemperature?: number;
  /** Highest junction temperature in the window [°C]. */
  maxJunctionTemperature?: number;
}

/**
 * The spectrum of one CISPR16 test receiver block, computed from its input after the run (levels
 * in dBµV; NaN where a detector is off or the level is 0 V).
 */
export interface ReceiverSpectrum {
  block: string;
  /** [Hz] spacing of the analysed FFT bins, 1/(N·dt) for the N samples analysed. */
  resolution: number;
  /** [Hz] the analysed frequencies. */
  frequency: Float64Array;
  peak: Float64Array;
  quasiPeak: Float64Array;
  average: Float64Array;
}

/** Options of the periodic steady-state analysis (docs/steady-state.md); every field optional. */
export interface SteadyOptions {
  /** [s] The period; default: the common period of the circuit's periodic sources. */
  period?: number;
  /** Periodicity error accepted, relative to each state variable's scale (default 1e-9). */
  tolerance?: number;
  /** Newton iterations before the fallback to transient periods (default 20). */
  maxIterations?: number;
  /** Transient periods of the fallback (default 2000; 0: no fallback). */
  maxPeriods?: number;
  /** Solve for the thermal network's temperatures too (default true); false carries them on. */
  temperatures?: boolean;
  /** Transient periods simulated before Newton's method starts (default 1; at least until every source repeats). */
  initPeriods?: number;
  /** Perturbation of the Jacobian's products, relative to each state variable's scale (default 1e-6; at most 0.1). */
  perturbation?: number;
  /** 'fast' (default): Newton steps keep the Jacobian's products of earlier steps; 'full': new products every step. */
  jacobian?: 'fast' | 'full';
}

/** How the steady state was found (docs/steady-state.md). */
export interface SteadyReport {
  converged: boolean;
  /** 'shooting', or 'transient' when the fallback ran. */
  method: 'shooting' | 'transient';
  /** Newton iterations. */
  iterations: number;
  /** Periods simulated in all (warm-up, Newton, Krylov directions, fallback, the returned one). */
  periods: number;
  /** [s] */
  period: number;
  stepsPerPeriod: number;
  /** State variables solved for. */
  unknowns: number;
  /** Periodicity error of the returned period (relative, largest over the state). */
  error: number;
  /** [s] Simulated time at which the returned period starts. */
  periodStart: number;
  /** Why the fallback ran, or why the result did not converge ('' otherwise). */
  message: string;
}

export interface NativeResult {
  time: Float64Array;
  channels: NativeChannel[];
  measurements: Record<string, number>;
  stats: RunStats;
  warnings: string[];
  losses: DeviceLossSummary[];
  receivers: ReceiverSpectrum[];
  steady?: SteadyReport;
}

export interface NativeBinding {
  steadySync(netlist: Netlist, options?: SteadyOptions, control?: NativeControl): NativeResult;
  steadyAsync(netlist: Netlist, options?: SteadyOptions, control?: NativeControl): Promise<NativeResult>;
  simulateSync(netlist: Netlist, control?: NativeControl, reuse?: Float64Array[]): NativeResult;
  simulateAsync(netlist: Netlist, control?: NativeControl): Promise<NativeResult>;
  validate(netlist: Netlist): string[];
  /** validate with each of many sets of parameter assignments (native/addon/check_many.hh); the first refused, -1 if none. */
  checkMany(netlist: Netlist, names: string[], counts: Int32Array, lists: Int32Array, items: Int32Array, nameIds: Int32Array, values: Float64Array): number;
  /** The parameters nothing read while the circuit was built (UnusedParameter in pesim/engine.hpp). */
  unusedParameters(netlist: Netlist): { owner: string; type: string; key: string; asked: string[] }[];
  version: string;
  eigenVersion: string;
}

export const FLAG_CANCEL = 0;
export const FLAG_PAUSE = 1;
export const FLAG_COUNT = 2;
export const PROGRESS_STEP = 0;
export const PROGRESS_TOTAL_STEPS = 1;
export const PROGRESS_TIME = 2;
export const PROGRESS_PHASE = 3;
export const PROGRESS_PAUSED = 4;
export const PROGRESS_COUNT = 5;

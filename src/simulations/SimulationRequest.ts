// The SimulationRequest (docs/spec/simulation-service.md §2.1 with docs/spec/decisions.md §1.3's extra fields) and its
// translation into a job-runtime submission: the circuit (base64 file content or a stored circuit's
// id), settings overrides, parameter overrides, signals and measurement window, each checked with
// an error naming the field, and the step-count limit.
import { checkSubmittedCircuit } from '../jobs/circuit-check.js';
import { checkStepLimit, type StepLimitExceeded } from '../jobs/step-limit.js';
import { channelKeys, type Netlist } from '../formats/netlist.js';
import { readCircuitFile } from '../formats/read.js';
import { checkJsonParameterNames } from '../engine/index.js';
import { applySettings, type CircuitService } from '../circuits/CircuitService.js';
import type { SolverType } from '../circuits/CircuitPresenter.js';
import { circuitNotFound, circuitProblem } from '../circuits/circuit-errors.js';
import { AppError, validationError } from '../http/errors.js';
import type { SubmitInput } from '../jobs/scheduler.js';
import type { Priority } from '../jobs/types.js';
import type { SteadyOptions } from '../engine/types.js';
import type { RecentCircuits } from './recent-circuits.js';

export interface MeasurementWindow {
  /** Start of the window [s]. */
  start: number;
  /** End of the window [s]. */
  end: number;
}

/** Options of the periodic steady-state analysis (docs/steady-state.md); every field optional. */
export interface SteadyRequest {
  /** The period [s]; default: the common period of the circuit's periodic sources. It must be a whole number of time steps. */
  period?: number;
  /** Periodicity error accepted, relative to each state variable's scale (default 1e-9). */
  tolerance?: number;
  /** Newton iterations before plain transient periods take over (default 20). */
  maxIterations?: number;
  /** Transient periods of that fallback (default 2000; 0: none). */
  maxPeriods?: number;
  /** Solve for the thermal network's temperatures too (default true). */
  temperatures?: boolean;
  /** Transient periods simulated before Newton's method starts (default 1; at least until every source repeats). */
  initPeriods?: number;
  /** Perturbation of the Jacobian's products, relative to each state variable's scale (default 1e-6; at most 0.1). */
  perturbation?: number;
  /** "fast" (default): Newton steps keep the Jacobian's products of earlier steps; "full": new products every step (checked by the service, which names the field when it is neither). */
  jacobian?: string;
}

export interface SimulationRequest {
  /** Base64-encoded circuit file content (.ipes, SPICE or JSON netlist), or the circuitId of a loaded circuit. */
  circuitFile: string;
  /** Total simulated time [s] (default: the circuit's). */
  simulationTime?: number;
  /** Integration time step [s] (default: the circuit's). */
  timeStep?: number;
  /** Default: the circuit's. */
  solverType?: SolverType;
  /**
   * Discretisation of the rectangle and triangle signal sources: `gecko` (as GeckoCIRCUITS steps
   * them; the default of .ipes models) or `exact` (from their definition; the default of SPICE
   * and JSON circuits). Default: the circuit's.
   */
  timing?: 'gecko' | 'exact';
  /** Parameter overrides: `<component>.<index>.<parameter>` (`R.1.R`) or `$<global>`. */
  parameters?: Record<string, number>;
  /** Default NORMAL. */
  priority?: 'CRITICAL' | 'HIGH' | 'NORMAL' | 'LOW';
  /** Scope channels to record (`SCOPE.1.ch1`); default all. */
  signals?: string[];
  /** Window of the measurements (default: the last 20 % of the simulated time). */
  measurementWindow?: MeasurementWindow;
  /**
   * The periodic steady state instead of the transient (docs/steady-state.md): `true`, or the
   * analysis's options. The result is one settled period (time from 0 to the period), the
   * measurements over it and `results.steady` (iterations, periodicity error, ...);
   * simulationTime and measurementWindow do not apply.
   */
  steady?: boolean | SteadyRequest;
}

/** The request as stored with the simulation (a large inline file is not repeated). */
export interface StoredRequest extends Omit<SimulationRequest, 'circuitFile'> {
  circuitFile: string;
  circuitName: string;
}

export interface SubmissionLimits {
  maxSteps: number;
}

/** How the simulation service names the step ratio and its limit in the shared message. */
export const SIMULATION_STEPS = { ratio: 'simulationTime / timeStep', setting: 'sim.api.max-steps' };

/** 422 SIMULATION_TOO_LARGE naming `field` (the time step that gives too many steps). */
export function simulationTooLarge(exceeded: StepLimitExceeded, field: string): AppError {
  return new AppError(422, 'SIMULATION_TOO_LARGE', exceeded.message, [{ field, message: `gives ${Math.round(exceeded.steps)} steps, more than ${exceeded.limit}` }]);
}

/** Circuits of earlier inline submissions (see recent-circuits.ts). */
export type RecentInlineCircuits = RecentCircuits<ResolvedCircuit>;

const ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;


export interface ResolvedCircuit {
  netlist: Netlist;
  name: string;
  stored: string;
}

/** Circuits already read, by circuitFile (a batch reads its base circuit once). */
export type CircuitCache = Map<string, Promise<ResolvedCircuit>>;

function circuitOf(circuitFile: string, circuits: CircuitService, field: string, cache?: CircuitCache, recent?: RecentInlineCircuits): Promise<ResolvedCircuit> {
  let pending = cache?.get(circuitFile);
  if (!pending) {
    pending = readCircuit(circuitFile, circuits, field, recent);
    cache?.set(circuitFile, pending);
  }
  return pending;
}

async function readCircuit(circuitFile: string, circuits: CircuitService, field: string, recent?: RecentInlineCircuits): Promise<ResolvedCircuit> {
  const trimmed = circuitFile.trim();
  const known = recent?.get(trimmed);
  if (known) return known;
  if (ID_PATTERN.test(trimmed)) {
    if (!circuits.has(trimmed)) throw circuitNotFound(trimmed);
    const record = circuits.get(trimmed);
    return { netlist: record.netlist, name: record.name, stored: record.id };
  }
  if (trimmed === '' || !BASE64.test(trimmed)) {
    throw validationError(`${field} must be base64-encoded circuit file content or the circuitId of a loaded circuit`, [{ field, message: 'is neither base64 content nor a circuit id' }]);
  }
  const bytes = Buffer.from(trimmed, 'base64');
  try {
    const read = await readCircuitFile(bytes);
    checkJsonParameterNames(read);
    const resolved = { netlist: read.netlist, name: read.netlist.name ?? 'inline circuit', stored: `inline ${read.format} file (${bytes.length} bytes)` };
    recent?.set(trimmed, resolved);
    return resolved;
  } catch (error) {
    // The request field holds the file: the error names it (`circuitFile`, line 12).
    const problem = circuitProblem(error);
    if (!(problem instanceof AppError)) throw problem;
    const details = (problem.details ?? [{ field, message: problem.message }]).map((d) => ({ ...d, field }));
    throw new AppError(problem.status, problem.code, `${field}: ${problem.message}`, details, problem.headers);
  }
}

/** The steady-state options of a request's `steady` field (undefined: a transient run); checks each field. */
function steadyOptions(value: SimulationRequest['steady'], field: string): SteadyOptions | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw validationError(`${field} must be true, false or an object {period, tolerance, maxIterations, maxPeriods, temperatures, initPeriods, perturbation, jacobian}`, [{ field, message: 'is not a boolean or an object' }]);
  }
  const bad = (name: string, expected: string): never => {
    throw validationError(`${field}.${name} must be ${expected}`, [{ field: `${field}.${name}`, message: `must be ${expected}` }]);
  };
  const { period, tolerance, maxIterations, maxPeriods, temperatures, initPeriods, perturbation, jacobian } = value;
  const options: SteadyOptions = {};
  if (period !== undefined) options.period = Number.isFinite(period) && period > 0 ? period : bad('period', 'a positive number of seconds');
  if (tolerance !== undefined) options.tolerance = Number.isFinite(tolerance) && tolerance > 0 ? tolerance : bad('tolerance', 'a positive number');
  if (maxIterations !== undefined) options.maxIterations = Number.isInteger(maxIterations) && maxIterations >= 0 ? maxIterations : bad('maxIterations', 'a whole number ≥ 0');
  if (maxPeriods !== undefined) options.maxPeriods = Number.isInteger(maxPeriods) && maxPeriods >= 0 ? maxPeriods : bad('maxPeriods', 'a whole number ≥ 0');
  if (temperatures !== undefined) options.temperatures = typeof temperatures === 'boolean' ? temperatures : bad('temperatures', 'true or false');
  if (initPeriods !== undefined) options.initPeriods = Number.isInteger(initPeriods) && initPeriods >= 0 ? initPeriods : bad('initPeriods', 'a whole number ≥ 0');
  if (perturbation !== undefined) options.perturbation = Number.isFinite(perturbation) && perturbation > 0 && perturbation <= 0.1 ? perturbation : bad('perturbation', 'a number in (0, 0.1]');
  if (jacobian !== undefined) options.jacobian = jacobian === 'fast' || jacobian === 'full' ? jacobian : bad('jacobian', '"fast" or "full"');
  return options;
}

/**
 * Checks a request and builds what the scheduler runs; `prefix` names the request in a batch.
 * The netlists of `cache` and `recent` are shared, never modified (applySettings and the
 * parameter overrides build new objects).
 */
export async function buildSubmission(
  request: SimulationRequest,
  circuits: CircuitService,
  limits: SubmissionLimits,
  prefix = '',
  cache?: CircuitCache,
  recent?: RecentInlineCircuits,
): Promise<SubmitInput> {
  if (typeof request.circuitFile !== 'string') throw validationError(`${prefix}circuitFile is required`, [{ field: `${prefix}circuitFile`, message: 'is required' }]);
  const base = await circuitOf(request.circuitFile, circuits, `${prefix}circuitFile`, cache, recent);
  let netlist = applySettings(base.netlist, { simulationDuration: request.simulationTime, timeStep: request.timeStep, solverType: request.solverType, timing: request.timing }, prefix, { simulationDuration: 'simulationTime' });
  const steady = steadyOptions(request.steady, `${prefix}steady`);
  if (steady && request.measurementWindow) {
    throw validationError(`${prefix}measurementWindow does not apply to a steady-state run (its measurements are over the settled period)`, [{ field: `${prefix}measurementWindow`, message: 'not with steady' }]);
  }
  const tEnd = netlist.settings.tEnd;
  // A steady-state run does not simulate simulationTime (its length is periods of the analysis).
  const tooLarge = steady ? undefined : checkStepLimit(netlist.settings, limits.maxSteps, SIMULATION_STEPS);
  if (tooLarge) throw simulationTooLarge(tooLarge, `${prefix}timeStep`);
  const window = request.measurementWindow;
  if (window) {
    if (!(Number.isFinite(window.start) && Number.isFinite(window.end) && window.start >= 0 && window.start < window.end && window.end <= tEnd * (1 + 1e-12))) {
      throw validationError(`${prefix}measurementWindow must satisfy 0 ≤ start < end ≤ simulationTime (${tEnd} s)`, [{ field: `${prefix}measurementWindow`, message: `must satisfy 0 ≤ start < end ≤ ${tEnd}` }]);
    }
    netlist = { ...netlist, settings: { ...netlist.settings, measureFrom: window.start, measureTo: window.end } };
  }
  const parameters = request.parameters ?? {};
  try {
    checkSubmittedCircuit(netlist, parameters);
  } catch (error) {
    throw circuitProblem(error, `${prefix}parameters`, { netlist, overrides: parameters });
  }
  const channels = channelKeys(netlist);
  for (const [i, signal] of (request.signals ?? []).entries()) {
    if (!channels.includes(signal)) {
      throw validationError(`${prefix}signals[${i}]: the circuit has no scope channel ${signal}; it has ${channels.join(', ') || 'none'}`, [{ field: `${prefix}signals[${i}]`, message: `unknown signal ${signal}` }]);
    }
  }
  const stored: StoredRequest = { ...request, circuitFile: base.stored, circuitName: base.name };
  return {
    owner: 'simulation',
    priority: (request.priority ?? 'NORMAL') as Priority,
    spec: { netlist, parameters, ...(request.signals ? { signals: [...request.signals] } : {}), ...(steady ? { steady } : {}) },
    request: stored,
    modelName: base.name,
  };
}

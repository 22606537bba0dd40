// The SimulationRequest (docs/spec/simulation-service.md §2.1 with docs/spec/decisions.md §1.3's extra fields) and its
// translation into a job-runtime submission: the circuit (base64 file content or a stored circuit's
// id), settings overrides, parameter overrides, signals and measurement window, each checked with
// an error naming the field, and the step-count limit.
import { checkSubmittedCircuit } from '../jobs/circuit-check.js';
import { checkStepLimit, type StepLimitExceeded } from '../jobs/step-limit.js';
import { channelKeys, type Netlist } from '../formats/netlist.js';
import { readCircuitFile } from '../formats/read.js';
import { applySettings, type CircuitService } from '../circuits/CircuitService.js';
import type { SolverType } from '../circuits/CircuitPresenter.js';
import { circuitNotFound, circuitProblem } from '../circuits/circuit-errors.js';
import { AppError, validationError } from '../http/errors.js';
import type { SubmitInput } from '../jobs/scheduler.js';
import type { Priority } from '../jobs/types.js';
import type { RecentCircuits } from './recent-circuits.js';

export interface MeasurementWindow {
  /** Start of the window [s]. */
  start: number;
  /** End of the window [s]. */
  end: number;
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
  const tEnd = netlist.settings.tEnd;
  const tooLarge = checkStepLimit(netlist.settings, limits.maxSteps, SIMULATION_STEPS);
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
    spec: { netlist, parameters, ...(request.signals ? { signals: [...request.signals] } : {}) },
    request: stored,
    modelName: base.name,
  };
}

// Circuit files as a resource: reading uploads (.ipes, SPICE or JSON, detected from the content),
// checking that they can be simulated, and keeping them in the SQLite circuit repository; cloning
// with parameter overrides and changing the simulation settings.
import { randomUUID } from 'node:crypto';
import { basename, extname } from 'node:path';
import { checkJsonParameterNames, validateNetlist } from '../engine/index.js';
import { resolveNetlist, SIGNAL_TIMINGS, SOLVER_METHODS, type Netlist, type ParameterOverrides, type SignalTiming, type SolverMethod } from '../formats/netlist.js';
import { readCircuitFile } from '../formats/read.js';
import { AppError, validationError } from '../http/errors.js';
import { checkStepLimit } from '../jobs/step-limit.js';
import type { RuntimeQueries } from '../jobs/runtime.js';
import type { CircuitRecord } from '../store/types.js';
import { circuitNotFound, circuitProblem } from './circuit-errors.js';
import { DATA_FILES_FIELD, UploadedDataFiles } from './data-files.js';
import type { SolverType, ValidationResult } from './CircuitPresenter.js';

export interface SettingsPatch {
  simulationDuration?: number;
  timeStep?: number;
  solverType?: SolverType;
  /**
   * How rectangle and triangle signal sources are discretised: `gecko` (stepped as GeckoCIRCUITS
   * steps them, with its steps; the default of .ipes models) or `exact` (sampled from their
   * definition; the default of SPICE and JSON circuits). Default: the circuit's.
   */
  timing?: SignalTiming;
}

/** Checks simulation settings; returns the netlist with them applied. */
export function applySettings(netlist: Netlist, patch: SettingsPatch, prefix = '', names: Partial<Record<keyof SettingsPatch, string>> = {}): Netlist {
  const settings = { ...netlist.settings };
  const positive = (key: keyof SettingsPatch, value: number | undefined): void => {
    const field = `${prefix}${names[key] ?? key}`;
    if (value !== undefined && !(Number.isFinite(value) && value > 0)) throw validationError(`${field} must be a positive number of seconds`, [{ field, message: 'must be a positive number' }]);
  };
  positive('simulationDuration', patch.simulationDuration);
  positive('timeStep', patch.timeStep);
  if (patch.solverType !== undefined && !SOLVER_METHODS.includes(patch.solverType as SolverMethod)) {
    throw validationError(`${prefix}solverType must be one of ${SOLVER_METHODS.join(', ')}`, [{ field: `${prefix}solverType`, message: `must be one of ${SOLVER_METHODS.join(', ')}` }]);
  }
  if (patch.timing !== undefined && !SIGNAL_TIMINGS.includes(patch.timing)) {
    throw validationError(`${prefix}timing must be one of ${SIGNAL_TIMINGS.join(', ')}`, [{ field: `${prefix}timing`, message: `must be one of ${SIGNAL_TIMINGS.join(', ')}` }]);
  }
  if (patch.timing !== undefined) settings.timing = patch.timing;
  if (patch.simulationDuration !== undefined) settings.tEnd = patch.simulationDuration;
  if (patch.timeStep !== undefined) settings.dt = patch.timeStep;
  if (patch.solverType !== undefined) settings.solver = patch.solverType;
  if (settings.dt > settings.tEnd) {
    throw validationError(`${prefix}timeStep (${settings.dt} s) is longer than the simulated time (${settings.tEnd} s)`, [{ field: `${prefix}timeStep`, message: 'must not exceed the simulated time' }]);
  }
  return { ...netlist, settings };
}

/**
 * The netlist with overrides written into it (globals as `$name`, component parameters as
 * `<component>.<parameter>`), keeping `$name` references elsewhere. Keys are checked by
 * resolveNetlist first, so an unknown key is a 400 naming it.
 */
export function applyOverrides(netlist: Netlist, overrides: ParameterOverrides, field = 'overrides'): Netlist {
  try {
    resolveNetlist(netlist, overrides);
  } catch (error) {
    throw circuitProblem(error, field);
  }
  const copy = structuredClone(netlist);
  const owners = new Map([...copy.elements, ...(copy.blocks ?? []), ...(copy.thermal ?? [])].map((item) => [item.name, item]));
  for (const [key, value] of Object.entries(overrides)) {
    if (key.startsWith('$')) {
      copy.parameters = { ...(copy.parameters ?? {}), [key.slice(1)]: value };
      continue;
    }
    const dot = key.lastIndexOf('.');
    const owner = owners.get(key.slice(0, dot))!;
    owner.params = { ...(owner.params ?? {}), [key.slice(dot + 1)]: value };
  }
  return copy;
}

/** The settings' step count against the limit every submission applies (SimulationRequest.ts). */
const CIRCUIT_STEPS = { ratio: 'simulationDuration / timeStep', setting: 'sim.api.max-steps' };

export class CircuitService {
  constructor(
    private readonly runtime: Pick<RuntimeQueries, 'circuits'>,
    /** The simulation service's step limit: settings that every submission would refuse are refused here too. */
    private readonly limits: { maxSteps: number },
  ) {}

  /**
   * Reads and checks an uploaded file, with the data files uploaded beside it (imported signals,
   * loss files, SPICE includes), stores it, returns the record. A refusal or warning about a data
   * file that was not uploaded says how to send it.
   */
  async parse(bytes: Uint8Array, fileName: string | undefined, dataFiles = new UploadedDataFiles()): Promise<CircuitRecord> {
    if (bytes.length === 0) throw validationError('The uploaded file is empty', [{ field: 'file', message: 'is empty' }]);
    let read;
    try {
      read = await readCircuitFile(bytes, fileName, dataFiles.readOptions());
      checkJsonParameterNames(read);
    } catch (error) {
      const problem = circuitProblem(error);
      const advice = dataFiles.missingAdvice();
      if (!advice || !(problem instanceof AppError)) throw problem;
      throw new AppError(problem.status, problem.code, `${problem.message}; ${advice}`, [...(problem.details ?? []), { field: DATA_FILES_FIELD, message: advice }]);
    }
    const advice = dataFiles.missingAdvice();
    const warnings = [...read.warnings, ...(advice ? [advice] : []), ...this.check(read.netlist)];
    // Readers that name the circuit after the file keep its extension; the record does not.
    const fromFile = fileName ? basename(fileName, extname(fileName)) : undefined;
    const name = (read.netlist.name === fileName ? fromFile : read.netlist.name) ?? fromFile ?? 'circuit';
    const record: CircuitRecord = {
      id: randomUUID(),
      name,
      format: read.format,
      netlist: read.netlist,
      source: bytes,
      warnings,
      createdAt: new Date().toISOString(),
    };
    this.runtime.circuits.insert(record);
    return record;
  }

  list(limit: number, offset: number): { circuits: CircuitRecord[]; total: number } {
    return this.runtime.circuits.list(limit, offset);
  }

  get(id: string): CircuitRecord {
    const record = this.runtime.circuits.get(id);
    if (!record) throw circuitNotFound(id);
    return record;
  }

  /** Whether `id` names a stored circuit. */
  has(id: string): boolean {
    return this.runtime.circuits.get(id) !== undefined;
  }

  validate(id: string): ValidationResult {
    const record = this.get(id);
    const tooLarge = checkStepLimit(record.netlist.settings, this.limits.maxSteps, CIRCUIT_STEPS);
    if (tooLarge) {
      return { circuitId: id, valid: false, errors: [{ code: 'SIMULATION_TOO_LARGE', message: tooLarge.message }], warnings: record.warnings.map((message) => ({ code: 'WARNING', message })) };
    }
    try {
      const warnings = validateNetlist(record.netlist);
      return { circuitId: id, valid: true, errors: [], warnings: [...record.warnings, ...warnings].filter(unique).map((message) => ({ code: 'WARNING', message })) };
    } catch (error) {
      const problem = circuitProblem(error);
      if (!(problem instanceof AppError)) throw error;
      const code = (error as { code?: string }).code ?? problem.code;
      const errors = (problem.details ?? [{ field: 'circuit', message: problem.message }]).map((d) => ({
        code,
        message: d.message,
        ...(d.component ? { component: d.component } : d.field !== 'circuit' ? { component: d.field } : {}),
      }));
      return { circuitId: id, valid: false, errors, warnings: record.warnings.map((message) => ({ code: 'WARNING', message })) };
    }
  }

  delete(id: string): void {
    if (!this.runtime.circuits.delete(id)) throw circuitNotFound(id);
  }

  clone(id: string, overrides: ParameterOverrides, name?: string): CircuitRecord {
    const source = this.get(id);
    const netlist = applyOverrides(source.netlist, overrides);
    const warnings = this.check(netlist);
    const record: CircuitRecord = {
      id: randomUUID(),
      name: name ?? `${source.name} (copy)`,
      format: source.format,
      netlist: { ...netlist, name: name ?? netlist.name },
      // The original bytes no longer describe the overridden circuit.
      source: Object.keys(overrides).length === 0 ? source.source : null,
      warnings,
      createdAt: new Date().toISOString(),
    };
    this.runtime.circuits.insert(record);
    return record;
  }

  updateSettings(id: string, patch: SettingsPatch): CircuitRecord {
    const record = this.get(id);
    const netlist = applySettings(record.netlist, patch);
    const tooLarge = checkStepLimit(netlist.settings, this.limits.maxSteps, CIRCUIT_STEPS);
    if (tooLarge) {
      const field = patch.timeStep !== undefined || patch.simulationDuration === undefined ? 'timeStep' : 'simulationDuration';
      throw new AppError(422, 'SIMULATION_TOO_LARGE', tooLarge.message, [{ field, message: `gives ${Math.round(tooLarge.steps)} steps, more than ${tooLarge.limit}` }]);
    }
    return this.runtime.circuits.update(id, { netlist });
  }

  /** Engine check: 422 CIRCUIT_INVALID when the circuit cannot be simulated; else its warnings. */
  private check(netlist: Netlist): string[] {
    try {
      return validateNetlist(netlist);
    } catch (error) {
      throw circuitProblem(error);
    }
  }
}

function unique(value: string, index: number, all: string[]): boolean {
  return all.indexOf(value) === index;
}

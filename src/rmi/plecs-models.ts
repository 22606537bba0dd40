// The models of the PLECS dialect: files opened by plecs.load, known by their file stem, with the
// parameter values plecs.set gave them; and the translation of one simulate option struct
// ({ModelVars, SolverOpts, OutputFormat}; plecs.analyze adds AnalysisOpts) into the netlist, the
// parameter overrides and the steady-state options of a run.
import { basename, extname } from 'node:path';
import { componentNamed } from '../remote/lookup.js';
import { validateNetlist } from '../engine/simulate.js';
import { channelKeys, type Netlist, type ParameterOverrides } from '../formats/netlist.js';
import type { SteadyOptions } from '../engine/types.js';
import { checkStepLimit } from '../jobs/step-limit.js';
import { invalidParams } from './methods.js';
import { FAULT, XmlRpcFault, isStruct, typeName, type XmlRpcStruct, type XmlRpcValue } from '../xmlrpc/values.js';

export interface PlecsModel {
  name: string;
  path: string;
  netlist: Netlist;
  /** Overrides set by plecs.set (`R.1.R`, `$Vin`) and solver settings it changed. */
  overrides: ParameterOverrides;
}

/** One run of plecs.simulate, ready for the runtime. */
export interface PlecsRun {
  netlist: Netlist;
  parameters: ParameterOverrides;
  /** SolverOpts.Timeout [s]; 0: none. */
  timeoutSeconds: number;
  /** plecs.analyze's steady-state analysis: its options (absent for plecs.simulate). */
  steady?: SteadyOptions;
}

const OPTION_KEYS = ['ModelVars', 'SolverOpts', 'OutputFormat'];
/** Solver, AbsTol, RelTol, InitStep and Refine are accepted and ignored: the engine integrates with a fixed step. */
const SOLVER_KEYS = ['TimeSpan', 'StartTime', 'StopTime', 'FixedStep', 'MaxStep', 'Timeout', 'Solver', 'AbsTol', 'RelTol', 'InitStep', 'Refine'];
/** Model-level settings plecs.get / plecs.set reach besides global parameters. */
export const MODEL_SETTINGS = ['TimeSpan', 'FixedStep', 'MaxStep'] as const;

export function modelName(path: string): string {
  return basename(path, extname(path));
}

/** A ModelVars value or plecs.set value as a number: numbers, booleans and numeric strings. */
export function numericValue(value: XmlRpcValue, where: string): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  throw new XmlRpcFault(FAULT.INVALID_PARAMS, `${where}: expected a number (or a string holding one), got ${typeName(value)}${typeof value === 'string' ? ` ${JSON.stringify(value.slice(0, 40))}` : ''}; expressions are not evaluated`);
}

/** The override key of a variable: `R.1.R` for a component parameter, `$Vin` for a global (`Vin` or `$Vin`). */
export function overrideKey(netlist: Netlist, name: string, where: string): string {
  const dot = name.lastIndexOf('.');
  if (dot > 0 && componentNamed(netlist, name.slice(0, dot))) return name;
  const bare = name.startsWith('$') ? name.slice(1) : name;
  if (Object.hasOwn(netlist.parameters ?? {}, bare)) return `$${bare}`;
  const globals = Object.keys(netlist.parameters ?? {});
  throw new XmlRpcFault(FAULT.INVALID_PARAMS, `${where}: the model has no variable ${JSON.stringify(name)}; use a global parameter (${globals.join(', ') || 'the model has none'}) or <component>.<parameter> such as R.1.R`);
}

function positive(value: XmlRpcValue, where: string): number {
  const number = numericValue(value, where);
  if (!(number > 0)) throw new XmlRpcFault(FAULT.INVALID_PARAMS, `${where}: expected a positive number of seconds, got ${number}`);
  return number;
}

/** Applies a solver setting (TimeSpan, FixedStep, MaxStep) to a netlist's settings. */
export function withSetting(netlist: Netlist, name: string, value: number): Netlist {
  const settings = { ...netlist.settings };
  if (name === 'TimeSpan' || name === 'StopTime') settings.tEnd = value;
  else settings.dt = value; // FixedStep, MaxStep: the engine integrates with a fixed step
  return { ...netlist, settings };
}

/**
 * AnalysisOpts of the steady-state analysis (docs/remote-control.md): TimeSpan is the period
 * (default: from the model's sources), StartTime must be 0 (runs start at 0), Tolerance and MaxIter
 * those of Newton's method, InitCycles the transient periods before it, JacobianPerturbation the
 * relative perturbation of the Jacobian's products, JacobianCalculation "fast" (products kept from
 * step to step) or "full" (new products every step); ShowCycles must be 1 (one period is returned).
 */
const ANALYSIS_KEYS = ['TimeSpan', 'StartTime', 'Tolerance', 'MaxIter', 'InitCycles', 'JacobianPerturbation', 'JacobianCalculation', 'ShowCycles'];

function wholeNumber(value: XmlRpcValue, where: string): number {
  const n = numericValue(value, where);
  if (!(Number.isInteger(n) && n >= 0)) throw invalidParams('plecs.analyze', `${where} must be a whole number ≥ 0, got ${n}`);
  return n;
}

function analysisOptions(options: XmlRpcValue | undefined, where: string): SteadyOptions {
  const steady: SteadyOptions = {};
  if (options === undefined || options === null) return steady;
  if (!isStruct(options)) throw invalidParams('plecs.analyze', `${where} must be a struct, got ${typeName(options)}`);
  const unknown = Object.keys(options).filter((k) => !ANALYSIS_KEYS.includes(k));
  if (unknown.length > 0) throw invalidParams('plecs.analyze', `${where}: unknown option ${unknown.join(', ')}; accepted: ${ANALYSIS_KEYS.join(', ')}`);
  const given = (name: string): boolean => options[name] !== undefined && options[name] !== null;
  if (given('TimeSpan')) steady.period = positive(options.TimeSpan!, `${where}.TimeSpan`);
  if (given('StartTime') && numericValue(options.StartTime!, `${where}.StartTime`) !== 0) {
    throw invalidParams('plecs.analyze', `${where}.StartTime: the analysis starts at 0; StartTime must be 0`);
  }
  if (given('Tolerance')) steady.tolerance = positive(options.Tolerance!, `${where}.Tolerance`);
  if (given('MaxIter')) steady.maxIterations = wholeNumber(options.MaxIter!, `${where}.MaxIter`);
  if (given('InitCycles')) steady.initPeriods = wholeNumber(options.InitCycles!, `${where}.InitCycles`);
  if (given('JacobianPerturbation')) {
    const h = numericValue(options.JacobianPerturbation!, `${where}.JacobianPerturbation`);
    if (!(h > 0 && h <= 0.1)) throw invalidParams('plecs.analyze', `${where}.JacobianPerturbation must be in (0, 0.1], got ${h}`);
    steady.perturbation = h;
  }
  if (given('JacobianCalculation')) {
    const how = options.JacobianCalculation;
    const name = typeof how === 'string' ? how.toLowerCase() : how;
    if (name !== 'fast' && name !== 'full') {
      throw invalidParams('plecs.analyze', `${where}.JacobianCalculation must be "fast" or "full", got ${JSON.stringify(how)}`);
    }
    steady.jacobian = name;
  }
  if (given('ShowCycles') && numericValue(options.ShowCycles!, `${where}.ShowCycles`) !== 1) {
    throw invalidParams('plecs.analyze', `${where}.ShowCycles: one settled period is returned; ShowCycles must be 1`);
  }
  return steady;
}

/**
 * The run described by one option struct (null or absent: the model as it is). With `analysis`
 * (plecs.analyze) the struct may carry AnalysisOpts and the run is the steady-state analysis.
 */
export function planRun(model: PlecsModel, options: XmlRpcValue | undefined, maxSteps: number, where: string, analysis = false): PlecsRun {
  const method = analysis ? 'plecs.analyze' : 'plecs.simulate';
  const optionKeys = analysis ? [...OPTION_KEYS, 'AnalysisOpts'] : OPTION_KEYS;
  let netlist = model.netlist;
  const parameters: ParameterOverrides = {};
  for (const [key, value] of Object.entries(model.overrides)) {
    if ((MODEL_SETTINGS as readonly string[]).includes(key)) netlist = withSetting(netlist, key, value);
    else parameters[key] = value;
  }
  let timeoutSeconds = 0;
  if (options !== undefined && options !== null) {
    if (!isStruct(options)) throw invalidParams(method, `${where} must be a struct {${optionKeys.slice(0, 2).join(', ')}${analysis ? ', AnalysisOpts' : ''}}, got ${typeName(options)}`);
    const unknown = Object.keys(options).filter((k) => !optionKeys.includes(k));
    if (unknown.length > 0) throw invalidParams(method, `${where}: unknown option ${unknown.join(', ')}; accepted: ${optionKeys.join(', ')} (solver settings such as TimeSpan go inside SolverOpts)`);
    if (options.OutputFormat !== undefined && options.OutputFormat !== null && options.OutputFormat !== 'Plain') {
      throw invalidParams(method, `${where}.OutputFormat: only "Plain" is supported (MAT-file output is not), got ${JSON.stringify(options.OutputFormat)}`);
    }
    const vars = options.ModelVars;
    if (vars !== undefined && vars !== null) {
      if (!isStruct(vars)) throw invalidParams(method, `${where}.ModelVars must be a struct, got ${typeName(vars)}`);
      for (const [name, value] of Object.entries(vars)) {
        if (value === null) continue;
        const field = `${where}.ModelVars.${name}`;
        parameters[overrideKey(netlist, name, field)] = numericValue(value, field);
      }
    }
    const solver = options.SolverOpts;
    if (solver !== undefined && solver !== null) {
      if (!isStruct(solver)) throw invalidParams(method, `${where}.SolverOpts must be a struct, got ${typeName(solver)}`);
      netlist = applySolverOptions(netlist, solver, `${where}.SolverOpts`);
      if (solver.Timeout !== undefined && solver.Timeout !== null) {
        timeoutSeconds = numericValue(solver.Timeout, `${where}.SolverOpts.Timeout`);
        if (!(timeoutSeconds >= 0)) throw invalidParams(method, `${where}.SolverOpts.Timeout must be 0 (none) or a positive number of seconds`);
      }
    }
  }
  // A steady-state analysis does not run TimeSpan: its length is periods of the analysis.
  const steady = analysis ? analysisOptions(isStruct(options) ? options.AnalysisOpts : undefined, `${where}.AnalysisOpts`) : undefined;
  const tooLarge = steady ? undefined : checkStepLimit(netlist.settings, maxSteps, { ratio: 'TimeSpan / FixedStep', setting: 'sim.api.max-steps' });
  if (tooLarge) throw invalidParams(method, `${where}: ${tooLarge.message}`);
  try {
    validateNetlist(netlist, parameters);
  } catch (error) {
    throw new XmlRpcFault(FAULT.INVALID_PARAMS, `${method}: ${where}: ${(error as Error).message}`);
  }
  return { netlist, parameters, timeoutSeconds, ...(steady ? { steady } : {}) };
}

function applySolverOptions(netlist: Netlist, solver: XmlRpcStruct, where: string): Netlist {
  const unknown = Object.keys(solver).filter((k) => !SOLVER_KEYS.includes(k));
  if (unknown.length > 0) throw invalidParams('plecs.simulate', `${where}: unknown option ${unknown.join(', ')}; accepted: ${SOLVER_KEYS.join(', ')}`);
  let out = netlist;
  const start = solver.StartTime === undefined || solver.StartTime === null ? 0 : numericValue(solver.StartTime, `${where}.StartTime`);
  if (start !== 0) throw invalidParams('plecs.simulate', `${where}.StartTime: runs start at 0; use TimeSpan for their length`);
  for (const name of ['TimeSpan', 'StopTime', 'FixedStep', 'MaxStep']) {
    const value = solver[name];
    if (value !== undefined && value !== null) out = withSetting(out, name, positive(value, `${where}.${name}`));
  }
  return out;
}

/** Scope channel keys in the order of `Values` rows: SCOPE blocks as the netlist lists them, channels in order. */
export function channelOrder(netlist: Netlist): string[] {
  return channelKeys(netlist);
}

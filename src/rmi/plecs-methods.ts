// The PLECS remote-control dialect (docs/spec/plecs-xmlrpc-notes.md) on the same port: plecs.load / close /
// get / set / simulate / analyze / statistics. plecs.analyze runs the steady-state analysis
// (docs/steady-state.md) like plecs.simulate runs transients, and answers one settled period. plecs.simulate runs each option struct as a simulation of the
// service's job runtime (so the runs are listed, cached and spread over the worker pool), blocks
// until they end and returns {Time, Values}: Values has one row per scope channel, SCOPE blocks in
// the order of the model file and their inputs in order (SCOPE.1.ch1, SCOPE.1.ch2, SCOPE.2.ch1, …).
// A list of option structs runs in parallel and answers a list in input order, a failed item as an
// error string in its slot.
import { resolveRemotePath } from '../remote/paths.js';
import type { ServiceRuntime } from '../jobs/runtime.js';
import { argumentCount, invalidParams, stringArg, type RmiMethod } from './methods.js';
import { LoadedModels, componentParams, parameterText } from './plecs-loaded-models.js';
import { MODEL_SETTINGS, numericValue, overrideKey } from './plecs-models.js';
import { runModel } from './plecs-runs.js';

export interface PlecsContext {
  runtime: ServiceRuntime;
  /** Folder plecs.load paths must stay in (SIM_RMI_ROOT). */
  root: string;
  maxSteps: number;
  version: string;
  engineVersion: string;
}

/** The analysis names plecs.analyze accepts: a model's steady-state analysis ("Steady-State Analysis", "steady state", "steady"). */
const STEADY_NAME = /^\s*steady(?:[-\s]?state(?:\s+analysis)?)?\s*$/i;

/** plecs.load and plecs.close. */
function fileMethods(models: LoadedModels, context: PlecsContext): RmiMethod[] {
  return [
    {
      name: 'plecs.load',
      signature: 'plecs.load(mdlFileName: string) → string',
      help: 'Opens a circuit file (.ipes, SPICE deck or JSON netlist) under SIM_RMI_ROOT as a model named after the file stem (buck.ipes → "buck"), replacing a model of that name. Returns the model name. Faults: PATH_OUTSIDE_ROOT (3), FILE_NOT_FOUND (4), CIRCUIT_INVALID (5), INVALID_ARGUMENT (9), INVALID_PARAMS (-32602).',
      async call(p) {
        argumentCount('plecs.load', p, 1);
        const path = resolveRemotePath(stringArg('plecs.load', p, 0, 'mdlFileName'), { base: context.root, root: context.root }, 'plecs.load');
        return models.load(path);
      },
    },
    {
      name: 'plecs.close',
      signature: 'plecs.close(mdlName: string) → boolean',
      help: 'Closes a loaded model without saving (its plecs.set values are forgotten). Returns true. Faults: INVALID_PARAMS (-32602: no such model).',
      call(p) {
        argumentCount('plecs.close', p, 1);
        models.close(stringArg('plecs.close', p, 0, 'mdlName'));
        return true;
      },
    },
  ];
}

/** plecs.get and plecs.set. */
function parameterMethods(models: LoadedModels): RmiMethod[] {
  return [
    {
      name: 'plecs.get',
      signature: 'plecs.get(path: string[, param: string]) → string | struct',
      help: `A parameter as text: "Model/Comp" with a parameter of the component ("buck/R.1", "R"), or "Model" with a global parameter or one of ${MODEL_SETTINGS.join(', ')}. Without param: a struct of all parameters of the component (or of the model's globals and settings). Faults: INVALID_PARAMS (-32602: unknown model, component or parameter).`,
      call(p) {
        argumentCount('plecs.get', p, 1, 1);
        const { model: m, component } = models.target(stringArg('plecs.get', p, 0, 'path'));
        if (p[1] !== undefined && p[1] !== null) return parameterText(m, component, stringArg('plecs.get', p, 1, 'param'));
        const names = component === undefined ? [...MODEL_SETTINGS, ...Object.keys(m.netlist.parameters ?? {})] : Object.keys(componentParams(m, component));
        return Object.fromEntries(names.map((name) => [name, parameterText(m, component, name)]));
      },
    },
    {
      name: 'plecs.set',
      signature: 'plecs.set(path: string, param: string, value: string | double) → boolean',
      help: `Sets a parameter for the following plecs.simulate calls: "Model/Comp" with a numeric parameter of the component, or "Model" with a global parameter or ${MODEL_SETTINGS.join(', ')}. The value is a number or a string holding one (expressions are not evaluated). Returns true. Faults: INVALID_PARAMS (-32602: unknown model, component or parameter, or a value that is not a number).`,
      call(p) {
        argumentCount('plecs.set', p, 3);
        const { model: m, component } = models.target(stringArg('plecs.set', p, 0, 'path'));
        const param = stringArg('plecs.set', p, 1, 'param');
        const value = numericValue(p[2], `plecs.set ${String(p[0])} ${param}`);
        if (component === undefined && (MODEL_SETTINGS as readonly string[]).includes(param)) {
          if (!(value > 0)) throw invalidParams('plecs.set', `${param} must be a positive number of seconds, got ${value}`);
          m.overrides[param] = value;
        } else if (component === undefined) {
          m.overrides[overrideKey(m.netlist, param, 'plecs.set')] = value;
        } else {
          parameterText(m, component, param); // the parameter must exist
          m.overrides[`${component}.${param}`] = value;
        }
        return true;
      },
    },
  ];
}

/** plecs.simulate and plecs.analyze. */
function runMethods(models: LoadedModels, context: PlecsContext): RmiMethod[] {
  return [
    {
      name: 'plecs.simulate',
      signature: 'plecs.simulate(mdlName: string[, opts: struct | [struct]]) → struct | [struct | string]',
      help: 'Runs the model as simulations of the service and blocks until they end. opts = {ModelVars: {name: value}, SolverOpts: {TimeSpan, FixedStep | MaxStep, Timeout, StartTime = 0}, OutputFormat: "Plain"}; ModelVars names are global parameters (Vin) or component parameters (R.1.R). Returns {Time: [double], Values: [[double], …]} with one row per scope channel, SCOPE blocks in file order and their inputs in order. With a list of opts the runs go to the worker pool at once and the answer is a list in the same order; a failed item is an error string in its slot. Faults: INVALID_PARAMS (-32602: unknown model, bad option or variable), SIMULATION_FAILED (12: a single run failed, was cancelled or passed its Timeout; the message says which), QUEUE_FULL (503).',
      async call(p) {
        argumentCount('plecs.simulate', p, 1, 1);
        return runModel(context, 'plecs.simulate', models.model(stringArg('plecs.simulate', p, 0, 'mdlName')), p[1]);
      },
    },
    {
      name: 'plecs.analyze',
      signature: 'plecs.analyze(mdlName: string, analysisName: string[, opts: struct | [struct]]) → struct | [struct | string]',
      help: 'The periodic steady state of the model (analysisName "Steady-State Analysis"; docs/steady-state.md): one settled period found by the shooting method instead of a long transient. opts as for plecs.simulate plus AnalysisOpts: {TimeSpan (the period; default from the model\'s periodic sources), StartTime (0), Tolerance (1e-9), MaxIter (20), InitCycles (transient periods before Newton\'s method, 1), JacobianPerturbation (1e-6), JacobianCalculation ("fast": products kept from step to step, or "full"), ShowCycles (1)}. Returns {Time, Values, SteadyState: {converged, method, iterations, periods, period, stepsPerPeriod, unknowns, error, periodStart, message}} with Time from 0 to the period; a list of opts answers a list, a failed item as an error string. Faults: INVALID_PARAMS (-32602: unknown model, analysis, option or variable), SIMULATION_FAILED (12: the analysis failed or was refused, e.g. STEADY_STATE_UNSUPPORTED for a model without periodic sources; the message says why), QUEUE_FULL (503).',
      async call(p) {
        argumentCount('plecs.analyze', p, 2, 1);
        const m = models.model(stringArg('plecs.analyze', p, 0, 'mdlName'));
        const name = stringArg('plecs.analyze', p, 1, 'analysisName');
        if (!STEADY_NAME.test(name)) {
          throw invalidParams('plecs.analyze', `analysis ${JSON.stringify(name)} is not available; the one analysis is the periodic steady state: "Steady-State Analysis"`);
        }
        return runModel(context, 'plecs.analyze', m, p[2]);
      },
    },
  ];
}

export function plecsMethods(context: PlecsContext): RmiMethod[] {
  const models = new LoadedModels();
  return [
    ...fileMethods(models, context),
    ...parameterMethods(models),
    ...runMethods(models, context),
    {
      name: 'plecs.statistics',
      signature: 'plecs.statistics() → struct',
      help: 'Returns {version, build, models: [{id, path}]}: the pesim version, the engine version and the loaded models. Faults: INVALID_PARAMS (-32602: arguments given).',
      call(p) {
        argumentCount('plecs.statistics', p, 0);
        return { version: context.version, build: `pesim engine ${context.engineVersion}`, models: models.list().map((m) => ({ id: m.name, path: m.path })) };
      },
    },
  ];
}

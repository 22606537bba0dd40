// The PLECS remote-control dialect (docs/spec/plecs-xmlrpc-notes.md) on the same port: plecs.load / close /
// get / set / simulate / analyze / statistics. plecs.analyze runs the steady-state analysis
// (docs/steady-state.md) like plecs.simulate runs transients, and answers one settled period. plecs.simulate runs each option struct as a simulation of the
// service's job runtime (so the runs are listed, cached and spread over the worker pool), blocks
// until they end and returns {Time, Values}: Values has one row per scope channel, SCOPE blocks in
// the order of the model file and their inputs in order (SCOPE.1.ch1, SCOPE.1.ch2, SCOPE.2.ch1, …).
// A list of option structs runs in parallel and answers a list in input order, a failed item as an
// error string in its slot.
import { resolveControlPath } from '../control/paths.js';
import { readCircuitAt } from '../control/circuit-files.js';
import type { Runtime } from '../jobs/runtime.js';
import type { SubmitInput } from '../jobs/scheduler.js';
import type { StoredResult } from '../jobs/types.js';
import { OWNER } from '../simulations/SimulationService.js';
import type { StoredRequest } from '../simulations/SimulationRequest.js';
import { CONTROL_FAULT_CODES } from './faults.js';
import { argumentCount, invalidParams, stringArg, type RmiMethod } from './methods.js';
import { MODEL_SETTINGS, channelOrder, modelName, numericValue, overrideKey, planRun, type PlecsModel, type PlecsRun } from './plecs-models.js';
import { awaitTask } from './runtime-runs.js';
import { FAULT, XmlRpcFault, type XmlRpcStruct, type XmlRpcValue } from '../xmlrpc/values.js';

export interface PlecsContext {
  runtime: Runtime;
  /** Folder plecs.load paths must stay in (SIM_RMI_ROOT). */
  root: string;
  maxSteps: number;
  version: string;
  engineVersion: string;
}

const unknownModel = (name: string, models: Map<string, PlecsModel>): XmlRpcFault =>
  new XmlRpcFault(FAULT.INVALID_PARAMS, `no model ${JSON.stringify(name)} is loaded (loaded: ${[...models.keys()].join(', ') || 'none'}); plecs.load(path) opens one`);

/** `{Time, Values}` of a stored result, rows in channelOrder; a steady-state run adds `SteadyState` (its report). */
function plainResult(netlist: PlecsRun['netlist'], result: StoredResult): XmlRpcStruct {
  const rows = channelOrder(netlist).map((key) => result.signals[key]).filter((row): row is Float64Array => row !== undefined);
  const answer: XmlRpcStruct = { Time: result.time, Values: rows };
  if (result.steady) answer.SteadyState = { ...result.steady };
  return answer;
}

/** The analysis names plecs.analyze accepts: a model's steady-state analysis ("Steady-State Analysis", "steady state", "steady"). */
const STEADY_NAME = /^\s*steady(?:[-\s]?state(?:\s+analysis)?)?\s*$/i;

export function plecsMethods(context: PlecsContext): RmiMethod[] {
  const models = new Map<string, PlecsModel>();

  const model = (name: string): PlecsModel => {
    const found = models.get(name);
    if (!found) throw unknownModel(name, models);
    return found;
  };

  /** `Model/Comp` → the model and the component name (none for the model itself). */
  const target = (path: string): { model: PlecsModel; component?: string } => {
    const slash = path.indexOf('/');
    if (slash < 0) return { model: model(path) };
    return { model: model(path.slice(0, slash)), component: path.slice(slash + 1) };
  };

  const componentParams = (m: PlecsModel, component: string): Record<string, unknown> => {
    const item = [...m.netlist.elements, ...(m.netlist.blocks ?? []), ...(m.netlist.thermal ?? [])].find((i) => i.name === component);
    if (!item) throw new XmlRpcFault(FAULT.INVALID_PARAMS, `${m.name} has no component ${JSON.stringify(component)}`);
    return item.params ?? {};
  };

  const parameterText = (m: PlecsModel, component: string | undefined, param: string): string => {
    if (component === undefined) {
      if (param === 'TimeSpan') return String(m.overrides.TimeSpan ?? m.netlist.settings.tEnd);
      if (param === 'FixedStep' || param === 'MaxStep') return String(m.overrides[param] ?? m.netlist.settings.dt);
      const key = overrideKey(m.netlist, param, 'plecs.get');
      if (!key.startsWith('$')) return parameterText(m, key.slice(0, key.lastIndexOf('.')), key.slice(key.lastIndexOf('.') + 1));
      return String(m.overrides[key] ?? m.netlist.parameters![key.slice(1)]);
    }
    const params = componentParams(m, component);
    const key = `${component}.${param}`;
    if (m.overrides[key] !== undefined) return String(m.overrides[key]);
    if (!(param in params)) throw new XmlRpcFault(FAULT.INVALID_PARAMS, `${m.name}/${component} has no parameter ${JSON.stringify(param)}; its parameters: ${Object.keys(params).join(', ') || 'none'}`);
    const value = params[param];
    return Array.isArray(value) ? value.join(' ') : String(value);
  };

  async function simulate(params: XmlRpcValue[]): Promise<XmlRpcValue> {
    argumentCount('plecs.simulate', params, 1, 1);
    return run('plecs.simulate', model(stringArg('plecs.simulate', params, 0, 'mdlName')), params[1]);
  }

  async function analyze(params: XmlRpcValue[]): Promise<XmlRpcValue> {
    argumentCount('plecs.analyze', params, 2, 1);
    const m = model(stringArg('plecs.analyze', params, 0, 'mdlName'));
    const name = stringArg('plecs.analyze', params, 1, 'analysisName');
    if (!STEADY_NAME.test(name)) {
      throw invalidParams('plecs.analyze', `analysis ${JSON.stringify(name)} is not available; the one analysis is the periodic steady state: "Steady-State Analysis"`);
    }
    return run('plecs.analyze', m, params[2]);
  }

  /** Runs the option struct (or each of a list) as tasks of the runtime; plecs.analyze as steady-state runs. */
  async function run(method: 'plecs.simulate' | 'plecs.analyze', m: PlecsModel, options: XmlRpcValue | undefined): Promise<XmlRpcValue> {
    const list = Array.isArray(options);
    const items: XmlRpcValue[] = list ? options : [options ?? null];
    if (list && items.length === 0) throw invalidParams(method, 'the list of option structs is empty');
    const plans: (PlecsRun | XmlRpcFault)[] = items.map((item, i) => {
      try {
        return planRun(m, item, context.maxSteps, list ? `opts[${i}]` : 'opts', method === 'plecs.analyze');
      } catch (error) {
        if (!list || !(error instanceof XmlRpcFault)) throw error;
        return error;
      }
    });
    const inputs: SubmitInput[] = [];
    for (const plan of plans) {
      if (plan instanceof XmlRpcFault) continue;
      const request: StoredRequest = { circuitFile: `XML-RPC ${method} ${m.path}`, circuitName: m.name, parameters: plan.parameters, simulationTime: plan.netlist.settings.tEnd, timeStep: plan.netlist.settings.dt };
      if (plan.steady) request.steady = plan.steady;
      const spec = { netlist: { ...plan.netlist, name: m.name }, parameters: plan.parameters, ...(plan.steady ? { steady: plan.steady } : {}) };
      inputs.push({ owner: OWNER, priority: 'NORMAL', spec, request, modelName: m.path });
    }
    // All runs are queued at once (QUEUE_FULL for the set): the pool runs them side by side.
    const tasks = await context.runtime.scheduler.submitMany(inputs);
    let next = 0;
    const answers = await Promise.all(
      plans.map(async (plan): Promise<XmlRpcValue> => {
        if (plan instanceof XmlRpcFault) return plan.message;
        const task = tasks[next++];
        try {
          const { result } = await awaitTask(context.runtime, task, { timeoutSeconds: plan.timeoutSeconds });
          return plainResult(plan.netlist, result);
        } catch (error) {
          if (!list) throw new XmlRpcFault(CONTROL_FAULT_CODES.SIMULATION_FAILED, `SIMULATION_FAILED: ${method}: simulation ${task.id}: ${(error as Error).message}`);
          return `simulation ${task.id}: ${(error as Error).message}`;
        }
      }),
    );
    return list ? answers : answers[0];
  }

  return [
    {
      name: 'plecs.load',
      signature: 'plecs.load(mdlFileName: string) → string',
      help: 'Opens a circuit file (.ipes, SPICE deck or JSON netlist) under SIM_RMI_ROOT as a model named after the file stem (buck.ipes → "buck"), replacing a model of that name. Returns the model name. Faults: PATH_OUTSIDE_ROOT (3), FILE_NOT_FOUND (4), CIRCUIT_INVALID (5), INVALID_ARGUMENT (9), INVALID_PARAMS (-32602).',
      async call(p) {
        argumentCount('plecs.load', p, 1);
        const path = resolveControlPath(stringArg('plecs.load', p, 0, 'mdlFileName'), { base: context.root, root: context.root }, 'plecs.load');
        const circuit = await readCircuitAt(path);
        const name = modelName(path);
        models.set(name, { name, path, netlist: circuit.netlist, overrides: {} });
        return name;
      },
    },
    {
      name: 'plecs.close',
      signature: 'plecs.close(mdlName: string) → boolean',
      help: 'Closes a loaded model without saving (its plecs.set values are forgotten). Returns true. Faults: INVALID_PARAMS (-32602: no such model).',
      call(p) {
        argumentCount('plecs.close', p, 1);
        model(stringArg('plecs.close', p, 0, 'mdlName'));
        models.delete(p[0] as string);
        return true;
      },
    },
    {
      name: 'plecs.get',
      signature: 'plecs.get(path: string[, param: string]) → string | struct',
      help: `A parameter as text: "Model/Comp" with a parameter of the component ("buck/R.1", "R"), or "Model" with a global parameter or one of ${MODEL_SETTINGS.join(', ')}. Without param: a struct of all parameters of the component (or of the model's globals and settings). Faults: INVALID_PARAMS (-32602: unknown model, component or parameter).`,
      call(p) {
        argumentCount('plecs.get', p, 1, 1);
        const { model: m, component } = target(stringArg('plecs.get', p, 0, 'path'));
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
        const { model: m, component } = target(stringArg('plecs.set', p, 0, 'path'));
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
    {
      name: 'plecs.simulate',
      signature: 'plecs.simulate(mdlName: string[, opts: struct | [struct]]) → struct | [struct | string]',
      help: 'Runs the model as simulations of the service and blocks until they end. opts = {ModelVars: {name: value}, SolverOpts: {TimeSpan, FixedStep | MaxStep, Timeout, StartTime = 0}, OutputFormat: "Plain"}; ModelVars names are global parameters (Vin) or component parameters (R.1.R). Returns {Time: [double], Values: [[double], …]} with one row per scope channel, SCOPE blocks in file order and their inputs in order. With a list of opts the runs go to the worker pool at once and the answer is a list in the same order; a failed item is an error string in its slot. Faults: INVALID_PARAMS (-32602: unknown model, bad option or variable), SIMULATION_FAILED (12: a single run failed, was cancelled or passed its Timeout; the message says which), QUEUE_FULL (503).',
      call: simulate,
    },
    {
      name: 'plecs.analyze',
      signature: 'plecs.analyze(mdlName: string, analysisName: string[, opts: struct | [struct]]) → struct | [struct | string]',
      help: 'The periodic steady state of the model (analysisName "Steady-State Analysis"; docs/steady-state.md): one settled period found by the shooting method instead of a long transient. opts as for plecs.simulate plus AnalysisOpts: {TimeSpan (the period; default from the model\'s periodic sources), StartTime (0), Tolerance (1e-9), MaxIter (20), InitCycles (transient periods before Newton\'s method, 1), JacobianPerturbation (1e-6), JacobianCalculation ("fast": products kept from step to step, or "full"), ShowCycles (1)}. Returns {Time, Values, SteadyState: {converged, method, iterations, periods, period, stepsPerPeriod, unknowns, error, periodStart, message}} with Time from 0 to the period; a list of opts answers a list, a failed item as an error string. Faults: INVALID_PARAMS (-32602: unknown model, analysis, option or variable), SIMULATION_FAILED (12: the analysis failed or was refused, e.g. STEADY_STATE_UNSUPPORTED for a model without periodic sources; the message says why), QUEUE_FULL (503).',
      call: analyze,
    },
    {
      name: 'plecs.statistics',
      signature: 'plecs.statistics() → struct',
      help: 'Returns {version, build, models: [{id, path}]}: the pesim version, the engine version and the loaded models. Faults: INVALID_PARAMS (-32602: arguments given).',
      call(p) {
        argumentCount('plecs.statistics', p, 0);
        return { version: context.version, build: `pesim engine ${context.engineVersion}`, models: [...models.values()].map((m) => ({ id: m.name, path: m.path })) };
      },
    },
  ];
}

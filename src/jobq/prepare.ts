// Turns a validated SimulationRequest and its model into what the job runtime runs: parameter keys
// mapped to the engine's override keys (`Vin` → `$Vin`, `R.1.R` unchanged) and checked against the
// model, and `output_variables` mapped to recorded channels. A variable that no scope records (a node
// voltage, an element current, an unscoped control signal) gets a probe: a VOLT or AMP block feeding
// an added scope, so the engine records exactly what was asked for.
import { resolveNetlist, scopeChannels as channelsOf, type ControlBlock, type Netlist, type ParameterOverrides } from '../formats/netlist.js';
import type { TaskSpec } from '../jobs/types.js';
import { checkSubmittedCircuit, circuitProblemOf, type CircuitProblem } from '../jobs/circuit-check.js';
import { checkStepLimit } from '../jobs/step-limit.js';
import { JobqError, RequestValidationError } from './errors.js';
import type { LoadedModel } from './model-files.js';
import type { SteadyOptions } from '../engine/types.js';
import type { SteadyStateOptions } from './models.js';

/** Name of the scope added for a probed variable; its one channel is `<scope>.ch1`. */
export const probeScope = (variable: string): string => `SCOPE.probe(${variable})`;

export interface PreparedTask {
  spec: TaskSpec;
  /** Requested variable name → channel key in the stored result. */
  outputs: Record<string, string>;
}

function badParameter(key: string, message: string): JobqError {
  return new JobqError(400, 'VALIDATION_ERROR', `parameters.${key}: ${message}`, {
    field: `parameters.${key}`,
    suggestion: 'Use a global parameter of the model (Vin or $Vin) or <component>.<parameter> (R.1.R)',
  });
}

/** The names of a model's elements and blocks, made once per netlist object (the items of a batch share one). */
const ownerNames = new WeakMap<Netlist, Set<string>>();

function ownersOf(netlist: Netlist): Set<string> {
  let owners = ownerNames.get(netlist);
  if (!owners) ownerNames.set(netlist, (owners = new Set([...netlist.elements, ...(netlist.blocks ?? [])].map((item) => item.name))));
  return owners;
}

/**
 * Maps request keys to override keys and checks them by resolving the netlist once (not with
 * `resolve` false: the caller's circuit check resolves it, and a failure there prepares the item
 * again with this check, for its error). The netlist is read only.
 */
export function mapParameters(netlist: Netlist, parameters: Record<string, number>, resolve = true): ParameterOverrides {
  const owners = ownersOf(netlist);
  const globals = netlist.parameters ?? {};
  const mapped: ParameterOverrides = {};
  const origin = resolve ? new Map<string, string>() : undefined; // override key → request key, for an error
  for (const [key, value] of Object.entries(parameters)) {
    if (typeof value !== 'number' || !Number.isFinite(value)) throw badParameter(key, 'must be a finite number');
    const dot = key.lastIndexOf('.');
    let target: string;
    if (key.startsWith('$')) target = key;
    else if (dot > 0 && owners.has(key.slice(0, dot))) target = key;
    else if (Object.hasOwn(globals, key)) target = `$${key}`;
    else {
      const known = Object.keys(globals);
      throw badParameter(key, `the model has no such parameter${known.length > 0 ? ` (global parameters: ${known.join(', ')})` : ''}`);
    }
    mapped[target] = value;
    origin?.set(target, key);
  }
  if (!origin) return mapped;
  try {
    resolveNetlist(netlist, mapped);
  } catch (error) {
    const e = error as Error & { details?: { field: string }[] };
    const field = e.details?.[0]?.field ?? '';
    throw badParameter(origin.get(field) ?? field, e.message);
  }
  return mapped;
}

interface Channels {
  /** Channel key → key, label → key, scope input signal → key. */
  byName: Map<string, string>;
  keys: string[];
}

function scopeChannels(netlist: Netlist): Channels {
  const byName = new Map<string, string>();
  const keys: string[] = [];
  for (const block of netlist.blocks ?? []) {
    if (block.type !== 'SCOPE') continue;
    for (const { key, label, input, mean } of channelsOf(block)) {
      keys.push(key);
      byName.set(key, key);
      if (label !== '' && !byName.has(label)) byName.set(label, key);
      const signal = block.inputs![input];
      if (!mean && !byName.has(signal)) byName.set(signal, key);
    }
  }
  return { byName, keys };
}

/** Resolves output_variables; adds probe blocks for variables no scope records. */
export function mapOutputs(netlist: Netlist, variables: string[] | undefined): { netlist: Netlist; signals?: string[]; outputs: Record<string, string> } {
  const channels = scopeChannels(netlist);
  if (variables === undefined) return { netlist, outputs: Object.fromEntries(channels.keys.map((k) => [k, k])) };
  const signals = new Set((netlist.blocks ?? []).flatMap((b) => b.outputs ?? []));
  const nodes = new Set(netlist.elements.flatMap((e) => e.nodes).filter((n) => n !== '0'));
  const elements = new Set(netlist.elements.map((e) => e.name));
  const outputs: Record<string, string> = {};
  const probes: ControlBlock[] = [];
  // One scope per probed variable, named after it, so the recorded channel keys (which enter the
  // cache key) differ whenever the variables do.
  const probe = (name: string, signal: string): string => {
    const scope = probeScope(name);
    probes.push({ name: scope, type: 'SCOPE', inputs: [signal] });
    return `${scope}.ch1`;
  };
  variables.forEach((name, index) => {
    if (Object.hasOwn(outputs, name)) return;
    const recorded = channels.byName.get(name);
    if (recorded) outputs[name] = recorded;
    else if (signals.has(name)) outputs[name] = probe(name, name);
    else if (nodes.has(name) || elements.has(name)) {
      const signal = `jobq.probe(${name})`;
      probes.push(
        nodes.has(name)
          ? { name: `VOLT.probe(${name})`, type: 'VOLT', outputs: [signal], params: { nodes: [name, '0'] } }
          : { name: `AMP.probe(${name})`, type: 'AMP', outputs: [signal], params: { element: name } },
      );
      outputs[name] = probe(name, signal);
    } else {
      throw new JobqError(400, 'VALIDATION_ERROR', `output_variables[${index}]: the model has no variable ${JSON.stringify(name)}`, {
        field: `output_variables[${index}]`,
        suggestion: `Use a scope channel (${channels.keys.slice(0, 4).join(', ') || 'none in this model'}), a node name or an element name`,
      });
    }
  });
  const kept = [...new Set(Object.values(outputs))];
  if (probes.length === 0) return { netlist, signals: kept, outputs };
  return { netlist: { ...netlist, blocks: [...(netlist.blocks ?? []), ...probes] }, signals: kept, outputs };
}

/**
 * A circuit problem in the job queue's shapes: a bad parameter is a 400 naming it; a model that does
 * not read or cannot be simulated is a 422 at `model_file`, as the simulation service answers 422
 * CIRCUIT_INVALID for the same circuit.
 */
export function circuitRejection(problem: CircuitProblem, modelFile: string): JobqError | RequestValidationError {
  if (problem.kind === 'parameter') return badParameter(problem.details[0]?.field ?? '', problem.message);
  const where = problem.details.map((d) => (d.line !== undefined ? `line ${d.line}` : d.component)).find((w) => w !== undefined);
  return new RequestValidationError([
    { loc: ['body', 'model_file'], msg: `Model file ${modelFile} ${where ? `(${where}) ` : ''}cannot be simulated: ${problem.message}`, type: 'circuit_invalid' },
  ]);
}

/** The engine's steady-state options of a request's `steady` field (undefined: a transient task). */
export function steadyOptions(value: boolean | SteadyStateOptions | undefined): SteadyOptions | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return {};
  const bad = (name: string, expected: string): never => {
    throw new JobqError(400, 'VALIDATION_ERROR', `steady.${name} must be ${expected}`, { field: `steady.${name}`, suggestion: 'See docs/steady-state.md, "Options and report"' });
  };
  const { period, tolerance, max_iterations: maxIterations, max_periods: maxPeriods, temperatures, init_periods: initPeriods, perturbation, jacobian } = value;
  const options: SteadyOptions = {};
  if (period !== undefined) options.period = Number.isFinite(period) && period > 0 ? period : bad('period', 'a positive number of seconds');
  if (tolerance !== undefined) options.tolerance = Number.isFinite(tolerance) && tolerance > 0 ? tolerance : bad('tolerance', 'a positive number');
  if (maxIterations !== undefined) options.maxIterations = Number.isInteger(maxIterations) && maxIterations >= 0 ? maxIterations : bad('max_iterations', 'a whole number ≥ 0');
  if (maxPeriods !== undefined) options.maxPeriods = Number.isInteger(maxPeriods) && maxPeriods >= 0 ? maxPeriods : bad('max_periods', 'a whole number ≥ 0');
  if (temperatures !== undefined) options.temperatures = temperatures;
  if (initPeriods !== undefined) options.initPeriods = Number.isInteger(initPeriods) && initPeriods >= 0 ? initPeriods : bad('init_periods', 'a whole number ≥ 0');
  if (perturbation !== undefined) options.perturbation = Number.isFinite(perturbation) && perturbation > 0 && perturbation <= 0.1 ? perturbation : bad('perturbation', 'a number in (0, 0.1]');
  if (jacobian !== undefined) options.jacobian = jacobian === 'fast' || jacobian === 'full' ? jacobian : bad('jacobian', '"fast" or "full"');
  return options;
}

/**
 * The netlist a model's tasks run with the given output variables (its probes added, named after
 * the model file), one object per model and variables: the tasks of a batch share it, so that the
 * store writes its text once per batch, the cache hashes it once and a group of runs carries it to
 * a thread once. Read only, as every task's netlist.
 */
const taskNetlists = new WeakMap<LoadedModel, Map<string, ReturnType<typeof mapOutputs>>>();

function taskNetlist(model: LoadedModel, outputVariables: string[] | undefined): ReturnType<typeof mapOutputs> {
  let byVariables = taskNetlists.get(model);
  if (!byVariables) taskNetlists.set(model, (byVariables = new Map()));
  const key = outputVariables === undefined ? '' : JSON.stringify(outputVariables);
  let mapped = byVariables.get(key);
  if (!mapped) {
    const { netlist, signals, outputs } = mapOutputs(model.netlist, outputVariables);
    mapped = { netlist: { ...netlist, name: model.modelFile }, signals, outputs };
    byVariables.set(key, mapped);
  }
  return mapped;
}

/** The job queue's answer to a circuit the engine refuses with a request's overrides. */
export function rejectCircuit(error: unknown, spec: TaskSpec, parameters: Record<string, number>, modelFile: string): unknown {
  const problem = circuitProblemOf(error, { netlist: spec.netlist, overrides: spec.parameters });
  // A global given as `Vin` is checked as `$Vin`: the error names the key the request used.
  for (const detail of problem?.kind === 'parameter' ? problem.details : []) {
    if (detail.field.startsWith('$') && !Object.hasOwn(parameters, detail.field) && Object.hasOwn(parameters, detail.field.slice(1))) detail.field = detail.field.slice(1);
  }
  return problem ? circuitRejection(problem, modelFile) : error;
}

/**
 * What the runtime runs for one request; the engine has validated the circuit with its overrides,
 * unless `check` is false (the caller then checks spec.netlist with spec.parameters itself).
 */
export function prepareTask(model: LoadedModel, parameters: Record<string, number>, outputVariables: string[] | undefined, hashFile: boolean, maxSteps: number, steady?: SteadyOptions, check = true): PreparedTask {
  // The simulation service's rule and message (its 422 SIMULATION_TOO_LARGE): the model file sets both times.
  // A steady-state task does not simulate the end time (its length is periods of the analysis).
  const tooLarge = steady ? undefined : checkStepLimit(model.netlist.settings, maxSteps, { ratio: 'simulated time / time step of the model', setting: 'orchestration.max_steps' });
  if (tooLarge) {
    throw new RequestValidationError([{ loc: ['body', 'model_file'], msg: `Model file ${model.modelFile}: ${tooLarge.message}`, type: 'simulation_too_large' }]);
  }
  const overrides = mapParameters(model.netlist, parameters, check);
  // The cache index describes entries by the netlist's name: the model file as the client gave it.
  const { netlist, signals, outputs } = taskNetlist(model, outputVariables);
  const spec: TaskSpec = { netlist, parameters: overrides };
  if (signals) spec.signals = signals;
  if (hashFile) spec.fileDigest = model.digest;
  if (steady) spec.steady = steady;
  if (check) {
    try {
      checkSubmittedCircuit(spec.netlist, spec.parameters);
    } catch (error) {
      throw rejectCircuit(error, spec, parameters, model.modelFile);
    }
  }
  return { spec, outputs };
}

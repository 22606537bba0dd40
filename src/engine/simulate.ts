// The engine's typed Node API: simulate() runs off the main thread (the addon's async entry on the
// libuv pool) with progress, abort and pause/resume; simulateSync() runs on the calling thread, for
// worker threads that own their run.
import { NetlistError } from '../formats/errors.js';
import { assertNetlistShape, resolveNetlistSharing, type Netlist, type ParameterOverrides } from '../formats/netlist.js';
import { OverrideResolver, type ParameterAssignment, type PlannedAssignment } from '../formats/overrides.js';
import { assignmentArrays, type AssignmentArrays } from './assignment-arrays.js';
import { RunController, type Progress } from './controller.js';
import { CancelledError, toEngineError } from './errors.js';
import { loadBinding } from './binding.js';
import { namedMeasurements } from './measurement-names.js';
import type { DeviceLossSummary, NativeResult, ReceiverSpectrum, RunStats, SteadyReport } from './types.js';

export interface ChannelInfo {
  /** `<scope>.ch<n>`: the key in `signals`. */
  key: string;
  scope: string;
  /** 1-based channel number of the scope (its inputs in order, each followed by its mean-value channel if any). */
  index: number;
  /** The channel's saved name, if any. */
  label: string;
}

export interface SimulationResult {
  time: Float64Array;
  signals: Record<string, Float64Array>;
  channels: ChannelInfo[];
  /** `<scope>.ch<n>_avg|_rms|_min|_max` over the measurement window (measurement-names.ts). */
  measurements: Record<string, number>;
  stats: RunStats;
  warnings: string[];
  /** Per device with a loss model (thermal network or LOSS blocks present): window losses. */
  losses: DeviceLossSummary[];
  /** Per CISPR16 test receiver block: its spectrum (docs/netlist.md). Absent in results rebuilt from stored files. */
  receivers?: ReceiverSpectrum[];
  /** Set by the steady-state analysis (steadyState): how the settled period was found. */
  steady?: SteadyReport;
}

export interface SimulateOptions {
  /** Parameter overrides: `<component>.<parameter>` or `$<global>`. */
  parameters?: ParameterOverrides;
  /** Called with progress at most every `progressIntervalMs` while the run goes on, and once at the end. */
  onProgress?: (progress: Progress) => void;
  progressIntervalMs?: number;
  /** Aborting cancels the run; the promise rejects with CancelledError. */
  signal?: AbortSignal;
  /** Pause/resume/cancel handle; one is created when not given. */
  controller?: RunController;
}

export function toResult(raw: NativeResult): SimulationResult {
  const signals: Record<string, Float64Array> = {};
  const channels: ChannelInfo[] = [];
  for (const c of raw.channels) {
    signals[c.key] = c.values;
    channels.push({ key: c.key, scope: c.scope, index: c.index, label: c.label });
  }
  const result: SimulationResult = { time: raw.time, signals, channels, measurements: namedMeasurements(raw.measurements), stats: raw.stats, warnings: raw.warnings, losses: raw.losses, receivers: raw.receivers };
  if (raw.steady) result.steady = raw.steady;
  return result;
}

/**
 * Checks shape, applies overrides and resolves `$name` references. The result shares the parts it
 * does not change with `netlist` (see resolveNetlistSharing): read it, do not modify it.
 */
export function prepareNetlist(netlist: unknown, parameters?: ParameterOverrides, shapeChecked = false): Netlist {
  if (!shapeChecked) assertNetlistShape(netlist);
  return resolveNetlistSharing(netlist as Netlist, parameters);
}

export async function simulate(netlist: Netlist, options: SimulateOptions = {}): Promise<SimulationResult> {
  const prepared = prepareNetlist(netlist, options.parameters);
  const binding = loadBinding();
  const controller = options.controller ?? new RunController();
  const { signal, onProgress } = options;
  if (signal?.aborted) throw new CancelledError('CANCELLED', 'the run was cancelled before it started');
  const onAbort = (): void => controller.cancel();
  signal?.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  if (onProgress) {
    let last = '';
    timer = setInterval(() => {
      const progress = controller.progress();
      const stamp = `${progress.phase}:${progress.step}:${progress.paused}`;
      if (stamp !== last) {
        last = stamp;
        onProgress(progress);
      }
    }, options.progressIntervalMs ?? 100);
  }
  try {
    const raw = await binding.simulateAsync(prepared, controller.native);
    onProgress?.(controller.progress());
    return toResult(raw);
  } catch (error) {
    throw toEngineError(error);
  } finally {
    if (timer) clearInterval(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

export interface SimulateSyncOptions {
  parameters?: ParameterOverrides;
  controller?: RunController;
  /**
   * Arrays of an earlier result that the caller will not read again: the run records into their
   * memory where it is large enough (overwriting it) instead of allocating fresh arrays. Saves a
   * thread that runs simulation after simulation the page faults of new memory and the garbage
   * collections it provokes.
   */
  reuse?: Float64Array[];
  /**
   * The caller has checked the netlist's shape (assertNetlistShape) and not changed it since: a
   * thread that runs one netlist with many parameter sets (a sweep) checks it once, not per run
   * (the schema check costs about as much as the rest of the preparation).
   */
  shapeChecked?: boolean;
}

/** Runs on the calling thread (blocks it): meant for worker threads. */
export function simulateSync(netlist: Netlist, options: SimulateSyncOptions = {}): SimulationResult {
  const prepared = prepareNetlist(netlist, options.parameters, options.shapeChecked);
  try {
    return toResult(loadBinding().simulateSync(prepared, options.controller?.native, options.reuse));
  } catch (error) {
    throw toEngineError(error);
  }
}

/**
 * validateNetlist of one netlist with each of many override sets (a sweep's or a batch's checks),
 * without its errors: the position of the first set it would throw for, -1 if none. The netlist's
 * shape is checked and it is converted for the engine once; each set goes to the engine as the
 * parameter assignments it makes (OverrideResolver), not as a whole netlist.
 */
export function firstInvalidParameters(netlist: Netlist, parameterSets: ParameterOverrides[]): number {
  if (parameterSets.length === 0) return -1;
  let base: Netlist;
  try {
    base = prepareNetlist(netlist);
  } catch {
    // Without overrides it does not prepare (a reference an override may yet replace): set by set.
    return parameterSets.findIndex((parameters) => !validates(netlist, parameters));
  }
  const resolver = new OverrideResolver(netlist);
  const sets: ParameterAssignment[][] = [];
  let refusedHere = parameterSets.length; // the first set the resolver refuses (unknown key …)
  for (const [k, parameters] of parameterSets.entries()) {
    try {
      sets.push(resolver.assignments(parameters).assignments);
    } catch {
      refusedHere = k;
      break;
    }
  }
  const a = assignmentArrays(sets);
  let refused: number;
  try {
    refused = loadBinding().checkMany(base, a.names, a.counts, a.lists, a.items, a.nameIds, a.values);
  } catch {
    return parameterSets.findIndex((parameters) => !validates(netlist, parameters)); // the engine refused the base itself
  }
  if (refused >= 0) return refused;
  return refusedHere < parameterSets.length ? refusedHere : -1;
}

/**
 * firstInvalidParameters of a sweep's sets that share their keys: set k has the value
 * `values[k · keys.length + j]` for key j (the check threads' form, src/jobs/check-payload.ts).
 * The keys are resolved to the parameters they set once for all the sets (assignmentPlan), not
 * set by set: the same assignments, the same first failing set. Keys the plan leaves open, and a
 * netlist that does not prepare without overrides, take firstInvalidParameters' own path.
 */
export function firstInvalidParameterRun(netlist: Netlist, keys: string[], values: Float64Array): number {
  const width = keys.length;
  const count = width === 0 ? 0 : Math.floor(values.length / width);
  if (count === 0 || count * width !== values.length) return firstInvalidParameters(netlist, parameterSetsOf(keys, values));
  let base: Netlist;
  let plan: PlannedAssignment[] | undefined;
  try {
    base = prepareNetlist(netlist);
  } catch {
    return firstInvalidParameters(netlist, parameterSetsOf(keys, values));
  }
  try {
    plan = new OverrideResolver(netlist).assignmentPlan(keys);
  } catch {
    return 0; // every set names what the netlist has not: the first is refused (as resolver.assignments refuses it)
  }
  if (!plan) return firstInvalidParameters(netlist, parameterSetsOf(keys, values));
  // The first set with a value that is not a finite number is refused here; the sets before it go to the engine.
  let refusedHere = count;
  for (let v = 0; v < values.length; v++) {
    if (!Number.isFinite(values[v])) {
      refusedHere = Math.floor(v / width);
      break;
    }
  }
  const a = plannedArrays(plan, keys, values, refusedHere);
  let refused: number;
  try {
    refused = loadBinding().checkMany(base, a.names, a.counts, a.lists, a.items, a.nameIds, a.values);
  } catch {
    return firstInvalidParameters(netlist, parameterSetsOf(keys, values)); // the engine refused the base itself
  }
  if (refused >= 0) return refused;
  return refusedHere < count ? refusedHere : -1;
}

/** The override objects of a run of values, as the check thread's decodeChecks makes them. */
function parameterSetsOf(keys: string[], values: Float64Array): ParameterOverrides[] {
  const width = keys.length;
  const count = width === 0 ? 0 : values.length / width;
  const sets: ParameterOverrides[] = [];
  // fromEntries makes own properties of every key (also "__proto__").
  for (let k = 0; k < count; k++) sets.push(Object.fromEntries(keys.map((key, j) => [key, values[k * width + j]])));
  return sets;
}

/** assignmentArrays of the first `sets` sets of a run, each making the plan's assignments with its values. */
function plannedArrays(plan: PlannedAssignment[], keys: string[], values: Float64Array, sets: number): AssignmentArrays {
  const names: string[] = [];
  const ids = new Map<string, number>();
  const nameIds = plan.map(({ param }) => {
    let id = ids.get(param);
    if (id === undefined) ids.set(param, (id = names.push(param) - 1));
    return id;
  });
  const n = plan.length;
  const width = keys.length;
  const arrays: AssignmentArrays = {
    names,
    counts: new Int32Array(sets).fill(n),
    lists: new Int32Array(n * sets),
    items: new Int32Array(n * sets),
    nameIds: new Int32Array(n * sets),
    values: new Float64Array(n * sets),
  };
  for (let k = 0, i = 0; k < sets; k++) {
    for (let p = 0; p < n; p++, i++) {
      const { list, index, key, value } = plan[p];
      arrays.lists[i] = list;
      arrays.items[i] = index;
      arrays.nameIds[i] = nameIds[p];
      arrays.values[i] = key < 0 ? value : values[k * width + key];
    }
  }
  return arrays;
}

function validates(netlist: Netlist, parameters: ParameterOverrides): boolean {
  try {
    validateNetlist(netlist, parameters);
    return true;
  } catch {
    return false;
  }
}

/** Checks a netlist without running it; returns the engine's warnings, throws CircuitError. */
export function validateNetlist(netlist: Netlist, parameters?: ParameterOverrides): string[] {
  const prepared = prepareNetlist(netlist, parameters);
  try {
    return loadBinding().validate(prepared);
  } catch (error) {
    throw toEngineError(error);
  }
}

/**
 * Refuses parameters that no part of the engine reads (a misspelt `"dutty": 0.2` would otherwise
 * run with the default duty cycle): a NetlistError (NETLIST_INVALID) naming each such parameter and
 * the parameters its element reads. For netlists written by hand (JSON netlists); the .ipes and
 * SPICE readers carry keys of their own. A circuit the engine cannot build is left to
 * validateNetlist / simulate, which report why.
 */
export function checkParameterNames(netlist: Netlist): void {
  let unused: ReturnType<ReturnType<typeof loadBinding>['unusedParameters']>;
  try {
    unused = loadBinding().unusedParameters(prepareNetlist(netlist));
  } catch {
    return;
  }
  const items = new Map([...netlist.elements, ...(netlist.blocks ?? []), ...(netlist.thermal ?? [])].map((item) => [item.name, item]));
  // Only what the netlist itself holds: preparing it may add keys of its own.
  const written = unused.filter((u) => Object.hasOwn(items.get(u.owner)?.params ?? {}, u.key));
  if (written.length === 0) return;
  const details = written.map((u) => ({
    field: `${u.owner}.${u.key}`,
    component: u.owner,
    message: `unknown parameter '${u.key}': ${u.owner} (${u.type}) reads ${u.asked.length > 0 ? u.asked.join(', ') : 'no parameters'}`,
  }));
  throw new NetlistError('NETLIST_INVALID', `${details[0].field}: ${details[0].message}`, details);
}

/** checkParameterNames for a circuit file that is a JSON netlist; other formats pass as they are. */
export function checkJsonParameterNames(read: { format: string; netlist: Netlist }): void {
  if (read.format === 'json') checkParameterNames(read.netlist);
}

export function engineInfo(): { version: string; eigen: string } {
  const binding = loadBinding();
  return { version: binding.version, eigen: binding.eigenVersion };
}

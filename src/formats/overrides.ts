// Parameter overrides of a netlist (`<component>.<parameter>` or `$<global>`) and the `$name`
// references to its global parameters: which numbers each override set gives which parameters.
// resolveNetlistSharing applies them to a copy of the netlist for a run; the engine's batch check
// (firstInvalidParameters in src/engine/simulate.ts) hands the same assignments to the addon,
// which applies them to a netlist it converted once. One rule for both.
import { NetlistError } from './errors.js';
import type { Netlist, ParameterOverrides, ParamValue } from './netlist.js';

/** The lists of a netlist whose items carry parameters, in the order the engine numbers them. */
export const PARAMETER_LISTS = ['elements', 'blocks', 'thermal'] as const;

/** One parameter set to a number: item `index` of list PARAMETER_LISTS[list]. */
export interface ParameterAssignment {
  list: number;
  index: number;
  param: string;
  value: number;
}

/** An assignment of assignmentPlan: its value from the set's key at `key`, or `value` when `key` is -1. */
export interface PlannedAssignment extends ParameterAssignment {
  key: number;
}

type Item = { name: string; params?: Record<string, ParamValue> };

/** `"$name"`: the whole string is one name (so text parameters such as a JAVA block's code are not). */
function isReference(value: ParamValue): value is string {
  return typeof value === 'string' && /^\$[A-Za-z_][\w.]*$/.test(value);
}

function splitOverrideKey(key: string): { owner: string; param: string } | undefined {
  const dot = key.lastIndexOf('.');
  if (dot <= 0 || dot === key.length - 1) return undefined;
  return { owner: key.slice(0, dot), param: key.slice(dot + 1) };
}

/**
 * The assignments of override sets of one netlist. What does not depend on the overrides (the
 * items by name, every `$name` reference) is found once, so many sets cost little each.
 */
export class OverrideResolver {
  private readonly owners = new Map<string, { list: number; index: number; item: Item }>();
  private readonly references: { list: number; index: number; item: Item; param: string; name: string }[] = [];

  constructor(private readonly netlist: Netlist) {
    PARAMETER_LISTS.forEach((listName, list) => {
      (netlist[listName] ?? []).forEach((item: Item, index) => {
        this.owners.set(item.name, { list, index, item });
        for (const [param, value] of Object.entries(item.params ?? {})) {
          if (isReference(value)) this.references.push({ list, index, item, param, name: value.slice(1) });
        }
      });
    });
  }

  /**
   * The parameters the overrides set, then every reference not overridden with its global's
   * number (the overrides' `$name` values over the netlist's), and the globals. Unknown keys,
   * non-numeric parameters and undefined references throw a NetlistError naming them.
   */
  assignments(overrides: ParameterOverrides = {}): { assignments: ParameterAssignment[]; globals: Record<string, number> } {
    const globals: Record<string, number> = { ...(this.netlist.parameters ?? {}) };
    const assignments: ParameterAssignment[] = [];
    const direct = new Set<string>();
    for (const [key, value] of Object.entries(overrides)) {
      if (!Number.isFinite(value)) {
        throw new NetlistError('PARAMETER_OUT_OF_RANGE', `Override ${key} must be a finite number`, [{ field: key, message: 'must be a finite number' }]);
      }
      if (key.startsWith('$')) {
        const name = key.slice(1);
        if (!(name in globals)) {
          throw new NetlistError('UNKNOWN_PARAMETER', `Unknown global parameter ${key}`, [{ field: key, message: 'no such global parameter' }]);
        }
        globals[name] = value;
        continue;
      }
      const parts = splitOverrideKey(key);
      const owner = parts && this.owners.get(parts.owner);
      if (!parts || !owner) {
        throw new NetlistError('UNKNOWN_PARAMETER', `Unknown parameter key ${key}: expected <component>.<parameter> or $<name>`, [
          { field: key, message: 'no such component' },
        ]);
      }
      const current = owner.item.params?.[parts.param];
      if (current === undefined) {
        // A misspelt name would otherwise run silently with the default value.
        const known = Object.keys(owner.item.params ?? {});
        const listing = known.length > 0 ? known.join(', ') : 'none';
        throw new NetlistError('UNKNOWN_PARAMETER', `Unknown parameter ${key}: ${parts.owner} has the parameters ${listing}`, [
          { field: key, message: `no parameter '${parts.param}' on ${parts.owner}; its parameters: ${listing}` },
        ]);
      }
      if (typeof current !== 'number' && !isReference(current)) {
        throw new NetlistError('UNKNOWN_PARAMETER', `Parameter ${key} is not numeric`, [{ field: key, message: 'not a numeric parameter' }]);
      }
      assignments.push({ list: owner.list, index: owner.index, param: parts.param, value });
      direct.add(`${owner.list}:${owner.index}.${parts.param}`);
    }
    for (const { list, index, item, param, name } of this.references) {
      if (direct.size > 0 && direct.has(`${list}:${index}.${param}`)) continue;
      const resolved = globals[name];
      if (resolved === undefined) {
        throw new NetlistError('UNKNOWN_PARAMETER', `${item.name}.${param} refers to undefined global parameter $${name}`, [
          { field: `${item.name}.${param}`, message: `undefined global parameter $${name}` },
        ]);
      }
      assignments.push({ list, index, param, value: resolved });
    }
    return { assignments, globals };
  }

  /**
   * What `assignments` makes of every override set with exactly these keys in this order, the
   * values left open: each assignment takes its value from the key at position `key` of a set,
   * or (`key` -1) is the netlist's global `value`. The keys alone decide which assignments a set
   * makes and whether it names something the netlist has not (a NetlistError here, where
   * `assignments` throws one for every such set); only a value that is not a finite number is left for each set. A sweep's sets share
   * their keys: its checks resolve them once (firstInvalidParameterRun). Undefined for a `$name`
   * key whose global is not a property of the netlist's own (`$toString`): `assignments` then
   * reads an inherited value, which each set is left to resolve with it.
   */
  assignmentPlan(keys: string[]): PlannedAssignment[] | undefined {
    const globals: Record<string, number> = { ...(this.netlist.parameters ?? {}) };
    const overridden = new Map<string, number>(); // global name → position of its `$name` key
    const plan: PlannedAssignment[] = [];
    const direct = new Set<string>();
    for (const [position, key] of keys.entries()) {
      if (key.startsWith('$')) {
        const name = key.slice(1);
        if (!(name in globals)) {
          throw new NetlistError('UNKNOWN_PARAMETER', `Unknown global parameter ${key}`, [{ field: key, message: 'no such global parameter' }]);
        }
        if (!Object.hasOwn(globals, name)) return undefined;
        overridden.set(name, position);
        continue;
      }
      const parts = splitOverrideKey(key);
      const owner = parts && this.owners.get(parts.owner);
      if (!parts || !owner) {
        throw new NetlistError('UNKNOWN_PARAMETER', `Unknown parameter key ${key}: expected <component>.<parameter> or $<name>`, [{ field: key, message: 'no such component' }]);
      }
      const current = owner.item.params?.[parts.param];
      if (current === undefined || (typeof current !== 'number' && !isReference(current))) {
        throw new NetlistError('UNKNOWN_PARAMETER', `Unknown or non-numeric parameter ${key}`, [{ field: key, message: 'no such numeric parameter' }]);
      }
      plan.push({ list: owner.list, index: owner.index, param: parts.param, key: position, value: 0 });
      direct.add(`${owner.list}:${owner.index}.${parts.param}`);
    }
    for (const { list, index, item, param, name } of this.references) {
      if (direct.size > 0 && direct.has(`${list}:${index}.${param}`)) continue;
      const position = overridden.get(name);
      if (position !== undefined) {
        plan.push({ list, index, param, key: position, value: 0 });
        continue;
      }
      const resolved = globals[name];
      if (resolved === undefined) {
        throw new NetlistError('UNKNOWN_PARAMETER', `${item.name}.${param} refers to undefined global parameter $${name}`, [
          { field: `${item.name}.${param}`, message: `undefined global parameter $${name}` },
        ]);
      }
      plan.push({ list, index, param, key: -1, value: resolved });
    }
    return plan;
  }
}

/**
 * Returns a copy of the netlist with overrides applied and every `$name` reference replaced by the
 * global parameter's number. Unknown keys and undefined references throw a NetlistError naming them.
 */
export function resolveNetlist(netlist: Netlist, overrides: ParameterOverrides = {}): Netlist {
  return resolveNetlistSharing(structuredClone(netlist), overrides);
}

/**
 * resolveNetlist for a netlist about to be handed to the engine: the result is new down to the
 * parameter objects it changes and shares every other part (nodes, settings, layout) with
 * `netlist`, which is left unchanged: a deep copy per run cost more than the rest of the
 * preparation.
 */
export function resolveNetlistSharing(netlist: Netlist, overrides: ParameterOverrides = {}): Netlist {
  const { assignments, globals } = new OverrideResolver(netlist).assignments(overrides);
  const own = <T extends { params?: Record<string, ParamValue> }>(item: T): T => (item.params ? { ...item, params: { ...item.params } } : { ...item });
  const copy: Netlist = { ...netlist, elements: netlist.elements.map(own) };
  if (netlist.blocks) copy.blocks = netlist.blocks.map(own);
  if (netlist.thermal) copy.thermal = netlist.thermal.map(own);
  for (const { list, index, param, value } of assignments) {
    const item: Item = copy[PARAMETER_LISTS[list]]![index];
    item.params![param] = value;
  }
  copy.parameters = globals;
  return copy;
}

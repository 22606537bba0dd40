// Shared state of one SPICE write: names, the plan of every element (sense sources, current
// carriers), resolved parameter values, the control blocks by signal and by gated element, and the
// deck's card and model lists being built.
import type { ControlBlock, NetlistElement } from '../netlist.js';
import { NetlistError } from '../errors.js';
import { type SpiceNames, formatNumber } from './naming.js';

export type DiodeMode = 'switch' | 'model';

/** How an element is written: its ports and the V source (or branch) that carries its current. */
export interface ElementPlan {
  spice: string;
  /** Node written as the element's second terminal (a sense node when sensed). */
  second: string;
  sense?: { name: string; node: string };
  /** V source carrying the element's current, usable as an F/H/W control. */
  carrier?: string;
  /** ngspice vector of the element's current (first terminal → second): i(...) or @dev[param]. */
  current?: string;
}

export interface WriteContext {
  names: SpiceNames;
  lines: string[];
  models: string[];
  plans: Map<string, ElementPlan>;
  /** Elements with every `$name` replaced by its number, by element name. */
  resolved: Map<string, NetlistElement>;
  /** Control block producing each signal. */
  producers: Map<string, ControlBlock>;
  /** GATE block driving each element. */
  gates: Map<string, ControlBlock>;
  /** Global parameters written as `.param` (so `{name}` may be used). */
  writtenParameters: Set<string>;
  dt: number;
  /** Delay of gate sources [s] (SpiceWriteOptions.gateTiming). */
  gateShift: number;
  diodeMode: DiodeMode;
  /** SIGNAL source nodes written for B-source expressions, by `<block>@<shift>`. */
  signalNodes: Map<string, string>;
}

/** Runs `exact` (an independent-source form); when it reports SPICE_UNSUPPORTED, returns undefined. */
export function unlessUnsupported<T>(exact: () => T): T | undefined {
  try {
    return exact();
  } catch (error) {
    if (error instanceof NetlistError && error.code === 'SPICE_UNSUPPORTED') return undefined;
    throw error;
  }
}

/** The SPICE V source (or branch element) carrying the current of `owner`'s control element. */
export function carrierOf(ctx: WriteContext, owner: NetlistElement): string {
  const control = String(owner.params?.control);
  const carrier = ctx.plans.get(control)?.carrier;
  if (!carrier) {
    throw new NetlistError('UNKNOWN_REFERENCE', `${owner.name}: control element '${control}' does not exist`, [
      { field: `${owner.name}.control`, component: owner.name, message: 'no such element' },
    ]);
  }
  return carrier;
}

/** ngspice expression of the voltage between two SPICE nodes. */
export function voltageBetween(a: string, b: string): string {
  if (b === '0') return `v(${a})`;
  if (a === '0') return `(-v(${b}))`;
  return `v(${a},${b})`;
}

/** `{name}` for a reference to a declared global parameter, else the resolved number. */
export function value(ctx: WriteContext, element: NetlistElement, key: string, fallback?: number): string {
  const original = element.params?.[key];
  if (typeof original === 'string' && original.startsWith('$') && ctx.writtenParameters.has(original.slice(1))) {
    return `{${original.slice(1)}}`;
  }
  return formatNumber(numeric(ctx, element, key, fallback));
}

export function numeric(ctx: WriteContext, element: NetlistElement, key: string, fallback?: number): number {
  const resolved = ctx.resolved.get(element.name)?.params?.[key];
  if (typeof resolved === 'number') return resolved;
  if (resolved === undefined && fallback !== undefined) return fallback;
  throw new NetlistError('SPICE_UNSUPPORTED', `${element.name}: parameter ${key} must be a number to be written to SPICE`, [
    { field: `${element.name}.${key}`, component: element.name, message: resolved === undefined ? 'missing' : 'not a number' },
  ]);
}


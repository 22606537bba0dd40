// Parameter resolution of GeckoCIRCUITS (`AbstractBlockInterface.importASCII`, `UserParameter`):
// for each parameter, first the `parameter[]` slot, then the `nameOpt[]` slot (a binding to a
// global parameter `$name`), then the named line `key value`, which overrides the slot, with its
// binding `key$ParameterName $name`. A bound parameter takes the global's value; in the netlist it
// becomes the reference "$name" (when the netlist parameter equals the GeckoCIRCUITS one).
// Also the shared read context: warnings, and the problems collected while mapping.
import type { ErrorDetail } from '../errors.js';
import type { ParamValue } from '../netlist.js';
import type { ComponentRecord } from './components.js';
import type { CompanionReader, DataFile } from './datafiles.js';

export interface ReadContext {
  fileName?: string;
  /** Global parameters by name (without `$`). */
  globals: Record<string, number>;
  warnings: string[];
  /** Components the engine cannot simulate (reported together as UNSUPPORTED_COMPONENTS). */
  unsupported: ErrorDetail[];
  /** Dangling references and other model errors (reported together after the unsupported list). */
  issues: ErrorDetail[];
  /** Simulation step, for diagnostics that depend on it (DELAY). */
  dt: number;
  /** Data files of the model's `<GeckoFileManager>` by hash value (imported signals). */
  dataFiles?: Map<number, DataFile>;
  /** Reads a file beside the .ipes file by name (imported signals not stored in the model). */
  companion?: CompanionReader;
}

export interface ParamLookup {
  key: string;
  slot: number;
  def: number;
}

export interface ResolvedParam {
  /** The numeric value GeckoCIRCUITS uses (the global's value when bound). */
  value: number;
  /** Global parameter name (without `$`) the parameter is bound to. */
  binding?: string;
}

export function unsupported(ctx: ReadContext, c: ComponentRecord, what: string): void {
  ctx.unsupported.push({ field: c.name, message: `${c.name} (${c.block} typ ${c.typ}): ${what}`, component: c.name, line: c.line });
}

export function issue(ctx: ReadContext, c: ComponentRecord, message: string): void {
  ctx.issues.push({ field: c.name, message: `${c.name}: ${message}`, component: c.name, line: c.line });
}

function bindingName(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const name = text.startsWith('$') ? text.slice(1) : text;
  return name.length > 0 ? name : undefined;
}

/** Reads one parameter with the GeckoCIRCUITS resolution order. */
export function resolveParam(ctx: ReadContext, c: ComponentRecord, p: ParamLookup): ResolvedParam {
  let value = p.def;
  let binding: string | undefined;
  if (p.slot >= 0 && p.slot < c.slots.length) value = c.slots[p.slot];
  if (p.slot >= 0 && p.slot < c.nameOpt.length) binding = bindingName(c.nameOpt[p.slot]) ?? binding;
  if (c.tokens.has(p.key)) {
    const named = c.tokens.number(p.key);
    if (named !== undefined) value = named;
    const bound = bindingName(c.tokens.label(`${p.key}$ParameterName`));
    if (bound) binding = bound;
  }
  if (binding !== undefined) {
    if (binding in ctx.globals) value = ctx.globals[binding];
    else {
      issue(ctx, c, `parameter ${p.key} refers to the undefined global parameter $${binding}`);
      binding = undefined;
    }
  }
  return { value, binding };
}

/** Netlist value of a parameter mapped one to one: "$name" when bound, else the number. */
export function netParam(ctx: ReadContext, c: ComponentRecord, p: ParamLookup): ParamValue {
  const r = resolveParam(ctx, c, p);
  return r.binding ? `$${r.binding}` : r.value;
}

/**
 * Netlist value of a parameter that GeckoCIRCUITS raises to `floor` when it is smaller (LKMatrices:
 * R < 1e-9 Ω is stamped as 1e-9 Ω, FAST_NULL_R; L < 1e-12 H as 1e-12 H, FAST_NULL_L): such a value
 * becomes `floor`, with a warning (a binding to a global parameter is then not kept).
 */
export function flooredParam(ctx: ReadContext, c: ComponentRecord, p: ParamLookup, floor: number, unit: string): ParamValue {
  const r = resolveParam(ctx, c, p);
  if (!(r.value < floor)) return r.binding ? `$${r.binding}` : r.value;
  const bound = r.binding ? ` (from $${r.binding}, which no longer reaches it)` : '';
  ctx.warnings.push(`${c.name}: ${p.key} ${r.value} ${unit}${bound} is below GeckoCIRCUITS' smallest ${p.key} of ${floor} ${unit}: simulated as ${floor} ${unit}, as GeckoCIRCUITS does`);
  return floor;
}

/**
 * Numeric value of a parameter that the mapping transforms (a phase that changes sign, ...). A
 * binding cannot be kept through the transformation: the value is used, with a warning.
 */
export function numericParam(ctx: ReadContext, c: ComponentRecord, p: ParamLookup): number {
  const r = resolveParam(ctx, c, p);
  if (r.binding) {
    ctx.warnings.push(`${c.name}: ${p.key} is bound to $${r.binding} but is converted for the netlist; the value ${r.value} is used and later changes of $${r.binding} do not reach it`);
  }
  return r.value;
}

/** A boolean parameter (slot > 0.5 is true; the named line `true`/`false` overrides). */
export function boolParam(c: ComponentRecord, key: string, slot: number, def: boolean): boolean {
  let value = def;
  if (slot >= 0 && slot < c.slots.length) value = c.slots[slot] > 0.5;
  return c.tokens.boolean(key) ?? value;
}

/** Negation without producing -0 (keeps deep equality of netlists simple). */
export function negate(x: number): number {
  return x === 0 ? 0 : -x;
}

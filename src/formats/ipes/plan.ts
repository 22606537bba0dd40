// Writer side: netlist elements and blocks → GeckoCIRCUITS component plans (typ, terminals as
// node/signal names, `parameter[]` slots, bindings, named lines, coupled components), the inverse
// of elements.ts / controls.ts / signals.ts. Netlist content GeckoCIRCUITS cannot express (pulse
// and PWL sources, F/H/VSW/CSW, sawtooth signals, ...) is collected and reported in one error.
import type { Netlist, NetlistElement, ParamValue } from '../netlist.js';
import type { ErrorDetail } from '../errors.js';
import { ELEMENT_KINDS, TYP_OF_ELEMENT, type ParamSpec } from './catalog.js';
import { javaDouble } from './emit.js';
import type { IpesLayout } from './layout.js';
import { putLosses } from './thermal-write.js';
import { pmsmPlan } from './pmsm.js';
import { GECKO_THYRISTOR_FIRING_R } from './elements.js';

/** A parameterString entry: literal text, or the file label of a node / signal. */
export type StringRef = string | { node: string } | { signal: string } | { thermal: string };

export interface Plan {
  name: string;
  block: 'e' | 'c' | 'eTH';
  typ: number;
  orientation: number;
  /** Node names (power circuit) or signal names (control) at the terminals; undefined = open. */
  ins: Array<string | undefined>;
  outs: Array<string | undefined>;
  /** Number of leading inputs placed in the normal column (the rest are external inputs). */
  baseInputs: number;
  slots: Array<number | undefined>;
  nameOpt: string[];
  named: Array<[string, string]>;
  strings: StringRef[];
  /** Names of coupled components (`coupledReferenceID[]`), or undefined for uncoupled kinds. */
  coupled?: Array<string | undefined>;
  losses?: boolean;
  /** `<GeckoFile>` entries (lines) this component adds to the `<GeckoFileManager>` block. */
  files?: string[];
  /** Key of the netlist's loss model written as the element's loss file (verlustTyp 2). */
  lossModel?: string;
  /** Lines written at the end of the component (a Java block's code sections). */
  extra?: string[];
}

export interface PlanContext {
  netlist: Netlist;
  layout?: IpesLayout;
  problems: ErrorDetail[];
}

/** Enumeration parameters GeckoCIRCUITS reads as integers. */
const INTEGER_KEYS = new Set(['sourceType', 'typQuelle']);

export function problem(ctx: PlanContext, name: string, message: string): void {
  ctx.problems.push({ field: name, message: `${name}: ${message}`, component: name });
}

export function newPlan(name: string, block: 'e' | 'c' | 'eTH', typ: number): Plan {
  return { name, block, typ, orientation: 503, ins: [], outs: [], baseInputs: 0, slots: [], nameOpt: [], named: [], strings: ['', '', '0'] };
}

/** Writes one numeric parameter (slot, binding, named line). */
export function putParam(ctx: PlanContext, plan: Plan, spec: Omit<ParamSpec, 'net'>, value: ParamValue | undefined): void {
  let number = spec.def;
  let binding: string | undefined;
  if (typeof value === 'number') number = value;
  else if (typeof value === 'string' && value.startsWith('$')) {
    binding = value.slice(1);
    const global = ctx.netlist.parameters?.[binding];
    if (global === undefined) problem(ctx, plan.name, `${spec.key} refers to the undefined global parameter ${value}`);
    else number = global;
  } else if (value !== undefined) {
    problem(ctx, plan.name, `${spec.key} must be a number or a $reference, got ${JSON.stringify(value)}`);
  }
  if (spec.slot >= 0) {
    plan.slots[spec.slot] = number;
    plan.nameOpt[spec.slot] = binding ? `$${binding}` : '';
  }
  if (binding) plan.named.push([`${spec.key}$ParameterName`, `$${binding}`]);
  plan.named.push([spec.key, INTEGER_KEYS.has(spec.key) ? String(Math.round(number)) : javaDouble(number)]);
}

export function putFlag(plan: Plan, key: string, slot: number, value: boolean): void {
  if (slot >= 0) {
    plan.slots[slot] = value ? 1 : 0;
    plan.nameOpt[slot] = '';
  }
  plan.named.push([key, String(value)]);
}

const num = (v: ParamValue | undefined, def: number): number => (typeof v === 'number' ? v : def);
const negateNumber = (x: number): number => (x === 0 ? 0 : -x);

function sourcePlan(ctx: PlanContext, e: NetlistElement, plan: Plan): void {
  const p = e.params ?? {};
  const put = (key: string, slot: number, value: ParamValue | undefined, def: number): void => putParam(ctx, plan, { key, slot, def }, value);
  const waveform = p.waveform ?? 'dc';
  if (e.type === 'E' || e.type === 'G') {
    const control = controlElement(ctx, e);
    if (!control) return;
    plan.coupled = [control];
    plan.strings = ['', control, '0'];
    put('sourceType', 0, 399, 399);
    put('directPotentialGain', 11, e.type === 'E' ? p.gain : p.gm, 1);
    return;
  }
  plan.coupled = [undefined];
  if (waveform === 'dc') {
    put('sourceType', 0, 401, 401);
    put('dcValue', 1, p.value, 0);
  } else if (waveform === 'sine') {
    if (num(p.delay, 0) !== 0) problem(ctx, e.name, 'a delayed sine has no GeckoCIRCUITS equivalent');
    put('sourceType', 0, 402, 402);
    put('dcValue', 1, p.amplitude, 0);
    put('frequency', 2, p.frequency, 50);
    // GeckoCIRCUITS' sine current source adds its offset against its direction (elements.ts).
    const offset = p.offset ?? 0;
    if (e.type === 'I' && typeof offset === 'string') problem(ctx, e.name, 'the offset of a sine current source bound to a global parameter cannot be negated for GeckoCIRCUITS');
    put('offset', 3, e.type === 'I' && typeof offset === 'number' ? negateNumber(offset) : offset, 0);
    const phase = p.phase ?? 0;
    put('phaseDegrees', 4, typeof phase === 'number' ? (phase === 0 ? 0 : -phase) : phase, 0);
    if (typeof phase === 'string') problem(ctx, e.name, 'a phase bound to a global parameter cannot be negated for GeckoCIRCUITS');
    // A sine read from a file up to 1.62 keeps that form: no `amplitude`, parameter[1] is the peak
    // (elements.ts; GeckoSCRIPT's uDC/iMAX then still set it, as for that file).
    if (ctx.layout?.components[e.name]?.extra?.amplitudeInDcValue !== 1) put('amplitude', 20, p.amplitude, 0);
  } else if (waveform === 'signal') {
    if (num(p.gain, 1) !== 1 || num(p.offset, 0) !== 0) problem(ctx, e.name, 'a signal-controlled source with gain or offset has no GeckoCIRCUITS equivalent');
    put('sourceType', 0, 400, 400);
    plan.strings = [{ signal: String(p.signal) }, '', '0'];
  } else {
    problem(ctx, e.name, `${String(waveform)} waveform has no GeckoCIRCUITS source equivalent`);
  }
}

/** isNonlinear with the nonlinX[]/nonlinY[] table of a nonlinear L(i) or C(u) (elements.ts). */
function nonlinearPlan(plan: Plan, p: Record<string, ParamValue>, type: 'L' | 'C'): void {
  const x = type === 'L' ? p.nonlinI : p.nonlinU;
  const y = type === 'L' ? p.nonlinL : p.nonlinC;
  const table = Array.isArray(x) && Array.isArray(y) ? [x.map(Number), y.map(Number)] : undefined;
  putFlag(plan, 'isNonlinear', -1, table !== undefined);
  if (!table) return;
  plan.named.push(['nonlinX[]', table[0].map(javaDouble).join(' ') + ' '], ['nonlinY[]', table[1].map(javaDouble).join(' ') + ' ']);
}

/** The two-terminal element across which an E/G source senses (kept in the layout, or found by nodes). */
function controlElement(ctx: PlanContext, e: NetlistElement): string | undefined {
  const [c, d] = e.nodes.slice(2);
  const across = (x: NetlistElement): boolean => x.nodes.length === 2 && x.nodes[0] === c && x.nodes[1] === d;
  const kept = ctx.layout?.components[e.name]?.extra?.control;
  const candidate = ctx.netlist.elements.find((x) => x.name === kept && across(x)) ?? ctx.netlist.elements.find((x) => x !== e && across(x));
  if (!candidate) problem(ctx, e.name, `GeckoCIRCUITS senses the voltage across a component; no component lies between ${c} and ${d}`);
  return candidate?.name;
}

function elementTyp(ctx: PlanContext, e: NetlistElement, coupledInductors: Set<string>): number | undefined {
  const kept = ctx.layout?.components[e.name];
  if (kept?.block === 'e') {
    const kind = ELEMENT_KINDS[kept.typ];
    if (kind?.type === e.type || ((e.type === 'E' || e.type === 'G') && kept.extra?.sourceType === 399 && kept.typ === (e.type === 'E' ? 4 : 5))) {
      return e.type === 'L' && coupledInductors.has(e.name) ? 12 : kept.typ;
    }
  }
  if (e.type === 'L') return coupledInductors.has(e.name) ? 12 : 2;
  if (e.type === 'E') return 4;
  if (e.type === 'G') return 5;
  return TYP_OF_ELEMENT[e.type];
}

export function elementPlan(ctx: PlanContext, e: NetlistElement, coupledInductors: Set<string>): Plan | undefined {
  const typ = elementTyp(ctx, e, coupledInductors);
  if (typ === undefined) {
    problem(ctx, e.name, `GeckoCIRCUITS has no ${e.type} element`);
    return undefined;
  }
  const kind = ELEMENT_KINDS[typ];
  const plan = newPlan(e.name, 'e', typ);
  plan.orientation = ctx.layout?.components[e.name]?.orientation ?? 503;
  const p = e.params ?? {};
  plan.ins = [e.nodes[0]];
  plan.outs = [e.nodes[1]];
  plan.losses = kind.semiconductor;
  if (kind.type === 'V' || kind.type === 'I') sourcePlan(ctx, e, plan);
  else if (kind.type === 'PMSM') pmsmPlan(ctx, e, plan, kind);
  else for (const spec of kind.params) putParam(ctx, plan, spec, p[spec.net]);
  if (kind.semiconductor && kind.type !== 'MOSFET') plan.slots[0] = plan.slots[kind.type === 'S' ? 2 : 3];
  if (kind.type === 'K') {
    const inductors = Array.isArray(p.inductors) ? p.inductors.map(String) : [];
    plan.ins = [];
    plan.outs = [];
    plan.coupled = [inductors[0], inductors[1]];
    plan.strings = [inductors[0] ?? '', inductors[1] ?? '', '1'];
  } else if (kind.type === 'TRANS') {
    const reversed = ctx.layout?.components[e.name]?.extra?.reversed === 1;
    plan.ins = [e.nodes[0], e.nodes[1]];
    plan.outs = reversed ? [e.nodes[3], e.nodes[2]] : [e.nodes[2], e.nodes[3]];
    putParam(ctx, plan, { key: 'reversed', slot: 2, def: -1 }, reversed ? 1 : -1);
  } else if (kind.type === 'OPV') {
    plan.ins = [e.nodes[0], e.nodes[1]];
    plan.outs = [e.nodes[2], e.nodes[3]];
    plan.named.push(['newFormat160', 'true']);
  } else if (kind.type === 'MOSFET' && num(p.antiparallel, 0) !== 1) {
    problem(ctx, e.name, 'a GeckoCIRCUITS MOSFET always has an anti-parallel diode (set antiparallel: 1)');
  } else if (kind.type === 'IGBT' && num(p.antiparallel, 0) !== 0) {
    problem(ctx, e.name, 'a GeckoCIRCUITS IGBT has no anti-parallel diode; add a D element');
  } else if (kind.type === 'THYR' && typeof (p.roff ?? 0) === 'number' && (num(p.roff, 1e7) !== GECKO_THYRISTOR_FIRING_R) !== (num(p.fireOnce, 0) === 1)) {
    problem(ctx, e.name, 'GeckoCIRCUITS fires a thyristor whose roff is not 1e7 Ω only once (set roff: 1e7, or fireOnce: 1 to simulate that in pesim too)');
  } else if (kind.type === 'S' && num(p.vf, 0) !== 0) {
    problem(ctx, e.name, 'the GeckoCIRCUITS ideal switch has no forward voltage');
  }
  if (kind.type === 'L' || kind.type === 'C') nonlinearPlan(plan, p, kind.type);
  if (kind.type === 'IGBT') putFlag(plan, 'satCurEnabled', 10, false);
  if (kind.semiconductor) putLosses(ctx, e, plan);
  return plan;
}

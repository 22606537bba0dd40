// Writer side of control blocks: netlist block → GeckoCIRCUITS control block plan. Inverse of the
// reader's mapping: SIGNAL phase back to GeckoCIRCUITS' convention (−phase; triangle 180°·duty −
// phase),
// SUB-like ADD (signs 1, −1, ...) → SUB, LT/LE → GT/GE with swapped inputs, HYS only with outputs
// ±1. Blocks that took parameters from input terminals in the file (kept in the layout) are written
// with those terminals again as long as the netlist parameters still equal the folded values; a
// SIGNAL that the reader expanded into a carrier comparison is written back as one SIGNAL.
import type { BlockType, ControlBlock, ParamValue } from '../netlist.js';
import { BLOCK_KINDS, TYP_OF_BLOCK, type BlockKind } from './catalog.js';
import { negate } from './params.js';
import { newPlan, problem, putFlag, putParam, type Plan, type PlanContext } from './plan.js';
import { signalParams, DUTY_RANGE } from './signals.js';
import { javaDouble, stringArray } from './emit.js';
import { triangleOfSawtooth } from './sawtooth.js';
import { pwlPlan, randomPlan } from './plan-data.js';
import { javaPlan } from './java-blocks.js';
import { machinePlan, MACHINE_METER_TYP } from './machine-meter.js';
import { JAVA_BLOCK_TYP } from './footprints.js';
import { cispr16Plan } from './cispr16.js';
import { transferFunctionPlan } from './transfer-function.js';

const DOUBLE_MAX = 1.7976931348623157e308;
const WAVEFORM_TYP: Record<string, number> = { sine: 402, triangle: 403, rectangle: 404 };

const sameParams = (a: Record<string, ParamValue> | undefined, b: Record<string, ParamValue>): boolean =>
  JSON.stringify(Object.entries(a ?? {}).sort()) === JSON.stringify(Object.entries(b).sort());

function signalPlan(ctx: PlanContext, b: ControlBlock, plan: Plan): void {
  const kept = ctx.layout?.components[b.name]?.extra;
  const values = kept?.values as Record<string, number> | undefined;
  const inputs = Array.isArray(kept?.externalInputs) ? (kept.externalInputs as string[]) : undefined;
  let waveform: string;
  let v: Record<string, ParamValue>;
  let phaseDeg: ParamValue;
  let external = false;
  if (values && inputs && b.type !== 'SIGNAL') {
    waveform = 'rectangle';
    v = { ...values, duty: Math.min(DUTY_RANGE[1], Math.max(DUTY_RANGE[0], values.duty)) };
    phaseDeg = values.phase;
    external = true;
  } else {
    const p = b.params ?? {};
    waveform = String(p.waveform ?? 'sine');
    v = { amplitude: p.amplitude ?? 1, frequency: p.frequency, offset: p.offset ?? 0, duty: waveform === 'rectangle' || waveform === 'triangle' ? p.duty ?? 0.5 : 0.5 };
    const phase = p.phase ?? 0;
    const ramp = waveform === 'sawtooth' ? triangleOfSawtooth(p) : undefined;
    if (ramp) {
      // A rising or falling ramp is a GeckoCIRCUITS triangle with duty 1 or 0 (sawtooth.ts).
      waveform = 'triangle';
      v = { ...v, ...ramp };
      phaseDeg = 0;
    } else if (typeof phase !== 'number') {
      problem(ctx, b.name, 'a SIGNAL phase bound to a global parameter cannot be converted for GeckoCIRCUITS');
      phaseDeg = 0;
    } else if (waveform === 'triangle') {
      if (typeof v.duty !== 'number') problem(ctx, b.name, 'a triangle duty bound to a global parameter cannot be converted for GeckoCIRCUITS');
      const peak = 180 * (typeof v.duty === 'number' ? v.duty : 0.5);
      const keptPhase = kept?.phaseDegrees;
      phaseDeg = typeof keptPhase === 'number' && peak - keptPhase === phase ? keptPhase : peak - phase;
    } else {
      phaseDeg = negate(phase);
    }
    const { restartAtSecondStep: _restart, ...compared } = p;  // implied by the external inputs
    if (values && inputs && WAVEFORM_TYP[waveform] && sameParams(compared, signalParams(waveform as 'sine', { ...values }, values.phase))) external = true;
  }
  const typ = WAVEFORM_TYP[waveform];
  if (!typ) problem(ctx, b.name, `GeckoCIRCUITS has no ${waveform} signal`);
  if (typeof v.amplitude === 'number' && v.amplitude < 0 && typeof phaseDeg === 'number') {
    // GeckoCIRCUITS requires amplitude ≥ 0: a sine shifted by half a period is negated; so is a
    // triangle once its duty d becomes 1 − d (−tri_d(w) = tri_(1−d)(w − 1/2), w = position in the period).
    if (waveform === 'rectangle') problem(ctx, b.name, 'GeckoCIRCUITS requires a rectangle amplitude ≥ 0');
    if (waveform === 'triangle' && typeof v.duty === 'number') v = { ...v, duty: 1 - v.duty };
    phaseDeg = phaseDeg >= 180 ? phaseDeg - 180 : phaseDeg + 180;
    v = { ...v, amplitude: -v.amplitude };
  }
  putParam(ctx, plan, { key: 'typQuelle', slot: 0, def: 404 }, typ ?? 404);
  putParam(ctx, plan, { key: 'amplitudeAC', slot: 1, def: 1 }, v.amplitude);
  putParam(ctx, plan, { key: 'frequenz', slot: 2, def: 50 }, v.frequency);
  putParam(ctx, plan, { key: 'anteilDC', slot: 3, def: 0 }, v.offset);
  putParam(ctx, plan, { key: 'phase', slot: 4, def: 0 }, phaseDeg);
  putParam(ctx, plan, { key: 'tastverhaeltnis', slot: 5, def: 0.5 }, v.duty);
  putFlag(plan, 'useExternal', 6, external);
  putFlag(plan, 'displayDetails', 7, false);
  plan.named.push(['datnamXY', 'not_defined'], ['externalDataFileHashValue', '0'], ['version170', '1']);
  plan.ins = external && inputs ? inputs.map((s) => s || undefined) : [];
  plan.baseInputs = 0;
}

/** Writes HYS/LIMIT parameters, with their external input terminals when the layout kept them. */
function externalInputs(ctx: PlanContext, b: ControlBlock, plan: Plan, slot: number): void {
  const kept = ctx.layout?.components[b.name]?.extra;
  const values = kept?.values as Record<string, number> | undefined;
  const inputs = kept?.externalInputs as string[] | undefined;
  const p = b.params ?? {};
  const external = !!values && Array.isArray(inputs) && Object.entries(values).every(([k, x]) => p[k] === x);
  putFlag(plan, 'useExternal', slot, external);
  if (external) plan.ins = [...plan.ins, ...inputs!.map((s) => s || undefined)];
}

function blockTyp(ctx: PlanContext, b: ControlBlock, plan: { inputs: string[] }): number | undefined {
  if (b.type === 'PWL' || b.type === 'RANDOM') return 4;
  if (b.type === 'LT' || b.type === 'LE') {
    plan.inputs = [...plan.inputs].reverse();
    return b.type === 'LT' ? 46 : 45;
  }
  if (b.type === 'ADD' && Array.isArray(b.params?.signs)) {
    const signs = b.params.signs as number[];
    if (signs.every((s) => s === 1)) return 12;
    if (signs[0] === 1 && signs.slice(1).every((s) => s === -1)) return 13;
    problem(ctx, b.name, `ADD with signs ${signs.join(', ')} has no GeckoCIRCUITS equivalent`);
    return undefined;
  }
  return TYP_OF_BLOCK[b.type];
}

/** What the writer of one block type gets: the block, its GeckoCIRCUITS kind and its plan so far. */
interface BlockWriting {
  ctx: PlanContext;
  b: ControlBlock;
  kind: BlockKind;
  plan: Plan;
  p: Record<string, ParamValue>;
}

type BlockWriter = (w: BlockWriting) => void;

const num = (v: ParamValue | undefined, def: number): number => (typeof v === 'number' ? v : def);

/** The parameters of the catalog (slot and key), from the netlist's parameters. */
function writeParams({ ctx, kind, plan, p }: BlockWriting): void {
  for (const spec of kind.params) putParam(ctx, plan, spec, p[spec.net]);
}

function writeSignal({ ctx, b, plan }: BlockWriting): void {
  if (b.type === 'PWL') pwlPlan(ctx, b, plan);
  else if (b.type === 'RANDOM') randomPlan(ctx, b, plan);
  else signalPlan(ctx, b, plan);
}

function writeVoltmeter({ plan, p }: BlockWriting): void {
  if (Array.isArray(p.nodes)) {
    plan.strings = [{ node: String(p.nodes[0]) }, { node: String(p.nodes[1]) }, ''];
    plan.coupled = [undefined];
  } else {
    plan.strings = ['', '', String(p.element)];
    plan.coupled = [String(p.element)];
  }
}

/** AMP and GATE: the coupled element or switch. */
function writeCoupled({ kind, plan, p }: BlockWriting): void {
  const target = String(kind.type === 'AMP' ? p.element : p.target);
  plan.strings = [target, '', '0'];
  plan.coupled = [target];
}

function writeScope({ plan, p }: BlockWriting): void {
  // ReglerOSZI's terminal count `tn`: without it GeckoCIRCUITS gives the scope 3 inputs and fails
  // at the start of a run on a scope with more.
  plan.named.push(['tn', String(plan.ins.length)]);
  if (Array.isArray(p.channelNames)) plan.named.push(['savedSignalNames[]', stringArray(p.channelNames.map(String))]);
  if (Array.isArray(p.meanInputs) && Array.isArray(p.meanSpans)) {
    // GeckoCIRCUITS' mean-value signals: 0-based inputs and averaging times (DefinedMeanSignals).
    plan.named.push(['avgIndices[]', p.meanInputs.map((i) => `${Number(i) - 1} `).join('')],
      ['avgValues[]', p.meanSpans.map((t) => `${javaDouble(Number(t))} `).join('')]);
  }
}

function writeHysteresis({ ctx, b, kind, plan, p }: BlockWriting): void {
  if (num(p.high, 1) !== 1 || num(p.low, 0) !== -1 || num(p.initial, num(p.low, 0)) !== 0) {
    problem(ctx, b.name, 'GeckoCIRCUITS hysteresis outputs +1/−1, starting at 0 (set high: 1, low: -1, initial: 0)');
  }
  if (plan.ins.length === 2) {
    // The width is the live second input: GeckoCIRCUITS' external h terminal.
    putParam(ctx, plan, kind.params[0], 0);
    putFlag(plan, 'useExternal', 1, true);
    plan.baseInputs = 1;
    return;
  }
  putParam(ctx, plan, kind.params[0], p.h);
  externalInputs(ctx, b, plan, 1);
}

function writeIntegrator({ ctx, b, kind, plan, p }: BlockWriting): void {
  // The reset input: the block's second input (netlists of earlier versions kept it in the layout).
  const reset = plan.ins[1] ?? ctx.layout?.components[b.name]?.extra?.resetInput;
  plan.ins = [plan.ins[0], typeof reset === 'string' && reset ? reset : undefined];
  plan.baseInputs = 2;
  for (const spec of kind.params) {
    const def = spec.net === 'min' ? -DOUBLE_MAX : spec.net === 'max' ? DOUBLE_MAX : spec.def;
    putParam(ctx, plan, { ...spec, def }, p[spec.net]);
  }
}

/** PI, PT1: GeckoCIRCUITS' blocks start from 0. */
function writeLag(w: BlockWriting): void {
  if (num(w.p.y0, 0) !== 0) problem(w.ctx, w.b.name, `the GeckoCIRCUITS ${w.kind.type} block has no initial value y0`);
  writeParams(w);
}

/** The GeckoCIRCUITS kinds with more to write than their inputs and catalog parameters. */
const WRITERS: Partial<Record<BlockType, BlockWriter>> = {
  SIGNAL: writeSignal,
  VOLT: writeVoltmeter,
  AMP: writeCoupled,
  GATE: writeCoupled,
  SCOPE: writeScope,
  HYS: writeHysteresis,
  LIMIT: (w) => {
    writeParams(w);
    externalInputs(w.ctx, w.b, w.plan, 2);
  },
  CISPR16: ({ ctx, b, plan }) => cispr16Plan(ctx, b, plan),
  TF: ({ ctx, b, plan }) => transferFunctionPlan(ctx, b, plan),
  COUNTER: ({ plan }) => {
    plan.ins = [plan.ins[0], plan.ins[1]];
    plan.baseInputs = 2;
  },
  INT: writeIntegrator,
  PI: writeLag,
  PT1: writeLag,
};

/** Blocks written as GeckoCIRCUITS blocks of their own kind (terminals from their code or machine). */
const OWN_PLANS: Partial<Record<BlockType, (ctx: PlanContext, b: ControlBlock) => Plan>> = {
  JAVA: (ctx, b) => {
    const java = newPlan(b.name, 'c', JAVA_BLOCK_TYP);
    java.ins = [...(b.inputs ?? [])];
    java.outs = [...(b.outputs ?? [])];
    java.baseInputs = java.ins.length;
    javaPlan(ctx, b, java);
    return java;
  },
  MACHINE: (ctx, b) => {
    const meter = newPlan(b.name, 'c', MACHINE_METER_TYP);
    meter.outs = [...(b.outputs ?? [])];
    machinePlan(ctx, b, meter);
    return meter;
  },
};

export function blockPlan(ctx: PlanContext, b: ControlBlock): Plan | undefined {
  const own = OWN_PLANS[b.type];
  if (own) return own(ctx, b);
  const kept = ctx.layout?.components[b.name];
  const expanded = kept?.block === 'c' && kept.typ === 4 && !!kept.extra?.values && b.type !== 'SIGNAL';
  const io = { inputs: b.inputs ?? [] };
  const typ = expanded ? 4 : blockTyp(ctx, b, io);
  if (typ === undefined) {
    if (!ctx.problems.some((p) => p.component === b.name)) problem(ctx, b.name, `GeckoCIRCUITS has no ${b.type} block`);
    return undefined;
  }
  const kind = BLOCK_KINDS[typ];
  const plan = newPlan(b.name, 'c', typ);
  plan.ins = [...io.inputs];
  plan.outs = [...(b.outputs ?? [])];
  plan.baseInputs = plan.ins.length;
  const write = WRITERS[kind.type] ?? writeParams;
  write({ ctx, b, kind, plan, p: b.params ?? {} });
  return plan;
}

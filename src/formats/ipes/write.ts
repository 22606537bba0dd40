// pesim netlist → GeckoCIRCUITS .ipes (gzip). Three ways to lay the schematic out, tried in order,
// each checked by reading the written text back and comparing its connectivity with the netlist:
// 1. 'layout': positions, wires and terminal labels as kept by the reader (netlist.layout.ipes);
//    an unchanged circuit is written as it was read;
// 2. 'labels': kept positions, no wires, every terminal labelled with its node / signal name (after
//    the netlist's connections changed);
// 3. 'grid': components on a simple grid, connected by labels only (netlists without a layout).
// Parameters always come from the netlist (new-format named lines plus `parameter[]` slots).
// Not written: settings GeckoCIRCUITS has no field for (maxPoints, measurement window,
// maxSwitchIterations, dampAfterSwitch), GUI details the layout does not keep (scope settings,
// text offsets), and the blocks and hidden elements the reader added. The thermal network, its
// meters and loss data: thermal-write.ts.
import { NetlistError } from '../errors.js';
import type { Netlist } from '../netlist.js';
import { isThermalBlock, type ThermalNetlist } from '../thermal-netlist.js';
import { encodeIpes } from './container.js';
import { IpesWriter, type ComponentText } from './emit.js';
import { layoutOf, type IpesLayout } from './layout.js';
import { elementPlan, type Plan, type PlanContext } from './plan.js';
import { blockPlan } from './plan-blocks.js';
import { lisnPlans } from './lisn.js';
import { readIpesText } from './read.js';
import { hiddenResistors, lossFileBlocks, lossFileHash, referencePlan, thermalBlockPlan, thermalPlan } from './thermal-write.js';

type Mode = 'layout' | 'labels' | 'grid';
const SOLVER_TYPES: Record<string, number> = { 'backward-euler': 0, trapezoidal: 1, 'gear-shichman': 2 };

const REFERENCE = new Set(['0', 'gnd', 'GND']);
/** The engine's reference names are one node: written as the label 0. */
const unifyReference = (node: string): string => (REFERENCE.has(node) ? '0' : node);

function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h | 0;
}

function planAll(ctx: PlanContext): Plan[] {
  const coupled = new Set<string>();
  for (const e of ctx.netlist.elements) {
    if (e.type === 'K' && Array.isArray(e.params?.inductors)) for (const n of e.params.inductors) coupled.add(String(n));
  }
  const synthetic = new Set(ctx.layout?.synthetic ?? []);
  const syntheticSignals = new Set((ctx.netlist.blocks ?? []).filter((b) => synthetic.has(b.name)).flatMap((b) => b.outputs ?? []));
  const lisns = lisnPlans(ctx, ctx.layout);  // each at the place of its first element
  const plans: Plan[] = [];
  for (const e of ctx.netlist.elements) {
    const lisn = lisns.get(e.name);
    if (lisn) {
      if (!plans.includes(lisn)) plans.push(lisn);
      continue;
    }
    const plan = elementPlan(ctx, e, coupled);
    if (plan) plans.push(plan);
  }
  const thermal = (ctx.netlist as ThermalNetlist).thermal ?? [];
  const hidden = hiddenResistors(thermal);
  for (const t of thermal) {
    if (synthetic.has(t.name) || hidden.has(t.name)) continue;
    const plan = thermalPlan(ctx, t);
    if (plan) plans.push(plan);
  }
  for (const b of ctx.netlist.blocks ?? []) {
    if (synthetic.has(b.name)) continue;
    const plan = isThermalBlock(b) ? thermalBlockPlan(ctx, b) : blockPlan(ctx, b);
    if (!plan) continue;
    plan.ins = plan.ins.map((s) => (s !== undefined && syntheticSignals.has(s) ? undefined : s));
    plans.push(plan);
  }
  const produced = new Set((ctx.netlist.blocks ?? []).flatMap((b) => b.outputs ?? []));
  const nodes = new Set(ctx.netlist.elements.flatMap((e) => e.nodes).map(unifyReference));
  const thermalNodes = new Set(((ctx.netlist as ThermalNetlist).thermal ?? []).flatMap((t) => t.nodes));
  for (const plan of plans) {
    if (plan.block === 'e') {
      plan.ins = plan.ins.map((n) => n && unifyReference(n));
      plan.outs = plan.outs.map((n) => n && unifyReference(n));
    }
    plan.strings = plan.strings.map((s) => (typeof s === 'object' && 'node' in s ? { node: unifyReference(s.node) } : s));
    for (const s of plan.strings) {
      if (typeof s === 'object' && 'thermal' in s && !thermalNodes.has(s.thermal)) {
        ctx.problems.push({ field: plan.name, component: plan.name, message: `${plan.name}: ${s.thermal} is not a node of any thermal element` });
      }
      if (typeof s === 'object' && 'node' in s && !nodes.has(s.node)) {
        ctx.problems.push({ field: plan.name, component: plan.name, message: `${plan.name}: node ${s.node} is not a node of any element` });
      }
    }
    if (plan.block === 'c') {
      for (const s of plan.ins) {
        if (s !== undefined && !produced.has(s)) ctx.problems.push({ field: plan.name, component: plan.name, message: `${plan.name}: input signal ${s} is not the output of any block` });
      }
    }
    // The name is a line of its own (idStringDialog), so GeckoCIRCUITS names such as `R.LISN1/3`
    // are written as they are; node and signal labels go into '/'-separated lists.
    if (/\n/.test(plan.name) || plan.name.trim() !== plan.name || plan.name === '') {
      ctx.problems.push({ field: plan.name, component: plan.name, message: `${plan.name}: the name '${plan.name}' cannot be written to .ipes (no line breaks or surrounding spaces)` });
    }
    for (const text of [...plan.ins, ...plan.outs]) {
      if (text !== undefined && (/[/\n]/.test(text) || text.trim() !== text || text === '')) {
        ctx.problems.push({ field: plan.name, component: plan.name, message: `${plan.name}: the label '${text}' cannot be written to .ipes (no '/', line breaks or surrounding spaces)` });
      }
    }
  }
  return plans;
}

/** Grid positions for plans without kept positions, below `top`. */
function gridPositions(plans: Plan[], top: number): Map<string, { x: number; y: number }> {
  const at = new Map<string, { x: number; y: number }>();
  const elements = plans.filter((p) => p.block !== 'c');
  elements.forEach((p, k) => at.set(p.name, { x: 4 + 6 * (k % 10), y: top + 4 + 6 * Math.floor(k / 10) }));
  let y = top + 6 * Math.ceil(elements.length / 10) + 6;
  let rowHeight = 0;
  plans.filter((p) => p.block === 'c').forEach((p, k) => {
    if (k % 6 === 0 && k > 0) {
      y += rowHeight;
      rowHeight = 0;
    }
    at.set(p.name, { x: 6 + 12 * (k % 6), y });
    const external = p.ins.length - p.baseInputs;
    rowHeight = Math.max(rowHeight, Math.max(p.baseInputs, p.outs.length, external > 0 ? external + 3 : 0, 1) + 3);
  });
  return at;
}

function extent(layout: IpesLayout | undefined): number {
  let bottom = 0;
  for (const c of Object.values(layout?.components ?? {})) bottom = Math.max(bottom, c.y + 8);
  for (const w of layout?.wires ?? []) bottom = Math.max(bottom, ...w.y);
  return bottom;
}

function render(netlist: Netlist, layout: IpesLayout | undefined, allPlans: Plan[], mode: Mode): string {
  const hasThermal = ((netlist as ThermalNetlist).thermal ?? []).length > 0;
  // Layout mode writes the file's own TREF elements (kept raw); the others tie node 0 with a new one.
  const plans = hasThermal && mode !== 'layout' ? [...allPlans, referencePlan()] : allPlans;
  const kept = mode === 'grid' ? {} : layout?.components ?? {};
  const grid = gridPositions(plans.filter((p) => !kept[p.name]), mode === 'grid' ? 0 : extent(layout));
  const uids = new Map<string, number>();
  const used = new Set<number>();
  for (const p of plans) {
    let uid = kept[p.name]?.uid ?? layout?.components[p.name]?.uid ?? hash(p.name);
    while (uid === 0 || used.has(uid)) uid = hash(`${uid}`);
    uids.set(p.name, uid);
    used.add(uid);
  }
  const nodeLabel = (node: string): string => (mode === 'layout' ? layout?.nodeLabels[node] ?? node : node);
  const thermalLabel = (node: string): string => (mode === 'layout' ? layout?.thermalLabels?.[node] ?? node : node);
  const w = new IpesWriter();
  let width = 60;
  let height = 60;
  if (mode === 'layout') for (const wire of layout?.wires ?? []) w.wire(wire.domain, wire.label, wire.x, wire.y, wire.enabled ?? 1);
  for (const p of plans) {
    const k = kept[p.name];
    const pos = k ?? grid.get(p.name)!;
    const label = (ref: string | undefined, saved: string | undefined): string =>
      k && mode === 'layout' ? saved ?? '' : ref === undefined ? '' : p.block === 'e' ? nodeLabel(ref) : p.block === 'eTH' ? thermalLabel(ref) : ref;
    const last = p.slots.findIndex((s) => s === undefined);
    const count = last < 0 ? p.slots.length : last;
    const text: ComponentText = {
      block: p.block, typ: p.typ, name: p.name, uid: uids.get(p.name)!, x: pos.x, y: pos.y,
      orientation: p.block !== 'c' ? (k?.orientation ?? p.orientation) : 503,
      inLabels: p.ins.map((s, i) => label(s, k?.inLabels[i])),
      outLabels: p.outs.map((s, i) => label(s, k?.outLabels[i])),
      slots: p.slots.slice(0, count) as number[],
      nameOpt: p.nameOpt.slice(0, count).map((s) => s ?? ''),
      strings: p.strings.map((s) => (typeof s === 'string' ? s : 'node' in s ? nodeLabel(s.node) : 'thermal' in s ? thermalLabel(s.thermal) : s.signal)),
      coupled: p.coupled?.map((n) => (n ? uids.get(n) ?? 0 : 0)),
      named: p.named,
      losses: p.losses,
      lossFile: p.lossModel ? { hash: lossFileHash(p.lossModel), path: `${p.lossModel}.scl` } : undefined,
      extra: p.extra,
    };
    w.component(text);
    width = Math.max(width, pos.x + 10);
    height = Math.max(height, pos.y + 10);
  }
  if (mode === 'layout') for (const lines of layout?.inactive ?? []) w.raw(lines);
  const s = netlist.settings;
  const names = Object.keys(netlist.parameters ?? {});
  w.trailer({
    files: [...lossFileBlocks((netlist as ThermalNetlist).lossModels, plans, uids), ...plans.flatMap((p) => p.files ?? [])],
    names: names.map((n) => `$${n}`), values: names.map((n) => netlist.parameters![n]),
    tEnd: s.tEnd, dt: s.dt, tPause: layout?.trailer.tPause ?? -1,
    tPre: s.tPre && s.tPre > 0 ? s.tPre : -1, dtPre: s.dtPre ?? s.dt,
    solverType: SOLVER_TYPES[s.solver ?? 'backward-euler'], width, height, fileId: hash(netlist.name ?? names.join()),
  });
  return w.text();
}

/** Thermal elements without the hidden Pv resistors (GeckoCIRCUITS adds those itself). */
function thermalOf(n: Netlist): ThermalNetlist['thermal'] & object {
  const thermal = (n as ThermalNetlist).thermal ?? [];
  const hidden = hiddenResistors(thermal);
  return thermal.filter((t) => !hidden.has(t.name));
}

/**
 * Connectivity and references of each component, reference node names unified. A netlist without
 * a reference node gets one when read back (the reader names the first node `0`): `alias` is it.
 */
function connectivity(n: Netlist, alias?: string): string[] {
  const node = (x: string): string => (x === alias ? '0' : unifyReference(x));
  const refs = (p: Record<string, unknown> | undefined): unknown[] =>
    ['nodes', 'element', 'target', 'signal', 'inductors', 'waveform', 'device', 'part'].map((k) => (k === 'nodes' && Array.isArray(p?.[k]) ? (p![k] as string[]).map(node) : p?.[k] ?? null));
  return [
    ...n.elements.map((e) => JSON.stringify([e.name, e.type, e.nodes.map(node), refs(e.params)])),
    ...thermalOf(n).map((t) => JSON.stringify([t.name, t.type, t.nodes, t.params?.device ?? null])),
    ...(n.blocks ?? []).map((b) => JSON.stringify([b.name, b.type, b.inputs ?? [], b.outputs ?? [], refs(b.params)])),
  ];
}

/** The first component whose connections differ, or undefined when all agree. */
function difference(expected: string[], actual: string[]): string | undefined {
  for (let i = 0; i < Math.max(expected.length, actual.length); i++) {
    if (expected[i] !== actual[i]) return `expected ${expected[i] ?? '(nothing)'}, wrote ${actual[i] ?? '(nothing)'}`;
  }
  return undefined;
}

/** Writes a netlist as .ipes text. */
export function writeIpesText(netlist: Netlist): string {
  const layout = layoutOf(netlist);
  const ctx: PlanContext = { netlist, layout, problems: [] };
  const plans = planAll(ctx);
  if (ctx.problems.length > 0) {
    throw new NetlistError('UNSUPPORTED_COMPONENTS', `GeckoCIRCUITS cannot represent: ${ctx.problems.map((p) => p.message).join('; ')}`, ctx.problems);
  }
  const grounded = netlist.elements.some((e) => e.nodes.some((x) => REFERENCE.has(x)));
  const expected = connectivity(netlist, grounded ? undefined : netlist.elements.find((e) => e.nodes.length > 0)?.nodes[0]);
  const modes: Mode[] = layout ? ['layout', 'labels', 'grid'] : ['grid'];
  let failure = '';
  for (const mode of modes) {
    const text = render(netlist, layout, plans, mode);
    try {
      const differs = difference(expected, connectivity(readIpesText(text).netlist));
      if (!differs) return text;
      failure = `the written connections differ from the netlist: ${differs}`;
    } catch (error) {
      failure = (error as Error).message;
    }
  }
  throw new NetlistError('IPES_WRITE', `the netlist could not be written as .ipes: ${failure}`, [{ field: '(netlist)', message: failure }]);
}

/** Writes a netlist as a gzip-compressed GeckoCIRCUITS .ipes file. */
export function writeIpes(netlist: Netlist): Uint8Array {
  return encodeIpes(writeIpesText(netlist));
}

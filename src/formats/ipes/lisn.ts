// GeckoCIRCUITS' line impedance stabilisation network (LISN, power-circuit typ 13, class `LISN`):
// a hidden subcircuit of fixed elements, which the reader adds to the netlist as they are and the
// writer folds back into the one component. Per phase k = 1, 2, 3 (GeckoCIRCUITS' `intern` terminals
// name the inner nodes):
//   Lin_k 50 µH   XIN[k−1] (line R, S, T) → intern_k
//   Lout_k 300 nH intern_k → intern_(k+6)
//   Rout_k 20 mΩ  intern_(k+6) → YOUT[k−1] (equipment U, V, W)
//   Cgnd_k 250 nF intern_k → YOUT[k+3] (measuring terminal a, b, c)
//   Rgnd_k 50 Ω   YOUT[k+3] → YOUT[3] (n)
// Terminals (`TerminalRelativeFixedDirection`; the LISN is always drawn north–south): XIN at
// (x − 3, y − 1), (x − 3, y), (x − 3, y + 1); YOUT U, V, W at (x + 2, y − 1 … y + 1), n at
// (x − 2, y + 3), a at (x + 1, y + 3), b at (x, y + 3), c at (x − 1, y + 3).
import type { NetlistElement } from '../netlist.js';
import type { ComponentRecord } from './components.js';
import type { TerminalGeometry } from './geometry.js';
import type { IpesLayout } from './layout.js';
import { newPlan, problem, type Plan, type PlanContext } from './plan.js';

export const LISN_TYP = 13;

const L_IN = 50e-6;
const L_OUT = 300e-9;
const R_OUT = 20e-3;
const C_GND = 250e-9;
const R_GND = 50;

/** Terminal positions of a LISN record. */
export function lisnTerminals(c: ComponentRecord): TerminalGeometry {
  const { x, y } = c;
  return {
    domain: 'LK',
    ins: [{ x: x - 3, y: y - 1 }, { x: x - 3, y }, { x: x - 3, y: y + 1 }],
    outs: [
      { x: x + 2, y: y - 1 }, { x: x + 2, y }, { x: x + 2, y: y + 1 },
      { x: x - 2, y: y + 3 }, { x: x + 1, y: y + 3 }, { x, y: y + 3 }, { x: x - 1, y: y + 3 },
    ],
  };
}

/** The elements of LISN `name` between its terminal nodes (line[3], equipment[3], n, measuring[3]), with inner nodes `inner(k)`. */
function lisnElements(name: string, line: string[], equipment: string[], n: string, measuring: string[], inner: (k: number) => string): NetlistElement[] {
  const out: NetlistElement[] = [];
  const phases = [1, 2, 3];
  for (const k of phases) out.push({ name: `${name}.Lin${k}`, type: 'L', nodes: [line[k - 1], inner(k)], params: { L: L_IN, i0: 0 } });
  for (const k of phases) out.push({ name: `${name}.Lout${k}`, type: 'L', nodes: [inner(k), inner(k + 6)], params: { L: L_OUT, i0: 0 } });
  for (const k of phases) out.push({ name: `${name}.Rout${k}`, type: 'R', nodes: [inner(k + 6), equipment[k - 1]], params: { R: R_OUT } });
  for (const k of phases) out.push({ name: `${name}.Rgnd${k}`, type: 'R', nodes: [measuring[k - 1], n], params: { R: R_GND } });
  for (const k of phases) out.push({ name: `${name}.Cgnd${k}`, type: 'C', nodes: [inner(k), measuring[k - 1]], params: { C: C_GND, v0: 0 } });
  return out;
}

/**
 * Reader: the 15 elements of a LISN whose terminal nodes are `ins` (R, S, T) and `outs` (U, V, W,
 * n, a, b, c). Inner nodes are `<name>.intern<k>`, made unique against `taken` (the circuit's node
 * names, extended with them).
 */
export function mapLisn(c: ComponentRecord, ins: string[], outs: string[], taken: Set<string>): NetlistElement[] {
  const inner = (k: number): string => {
    let node = `${c.name}.intern${k}`;
    while (taken.has(node)) node = `${node}_`;
    taken.add(node);
    return node;
  };
  const nodes = new Map<number, string>();
  return lisnElements(c.name, ins, outs.slice(0, 3), outs[3], outs.slice(4, 7), (k) => {
    if (!nodes.has(k)) nodes.set(k, inner(k));
    return nodes.get(k)!;
  });
}

/** Marks the inner nodes of the expected elements the writer compares with (any netlist names). */
const INNER = '\u0000';

function sameParams(a: NetlistElement['params'], b: NetlistElement['params']): boolean {
  const ka = Object.keys(a ?? {});
  return ka.length === Object.keys(b ?? {}).length && ka.every((k) => a![k] === b?.[k]);
}

/**
 * Whether the netlist's elements are the expected LISN elements: same types, values and terminal
 * nodes, and six distinct inner nodes that nothing else touches (`others`: the other elements' nodes).
 */
function intact(byName: Map<string, NetlistElement>, expected: NetlistElement[], others: Set<string>): boolean {
  const inner = new Map<string, string>();
  const terminals = new Set(expected.flatMap((e) => e.nodes).filter((node) => !node.startsWith(INNER)));
  for (const want of expected) {
    const e = byName.get(want.name);
    if (!e || e.type !== want.type || e.nodes.length !== 2 || !sameParams(e.params, want.params)) return false;
    for (let i = 0; i < 2; i++) {
      const node = want.nodes[i];
      if (!node.startsWith(INNER)) {
        if (e.nodes[i] !== node) return false;
      } else if ((inner.get(node) ?? e.nodes[i]) !== e.nodes[i] || terminals.has(e.nodes[i]) || others.has(e.nodes[i])) {
        return false;
      } else {
        inner.set(node, e.nodes[i]);
      }
    }
  }
  return new Set(inner.values()).size === 6;
}

/**
 * Writer: a plan for each LISN kept in the layout, made from its 15 elements, by the names of those
 * elements (they are written as the LISN, not on their own). Elements that no longer form
 * GeckoCIRCUITS' fixed LISN (changed values or connections, missing ones) are a problem:
 * GeckoCIRCUITS' LISN cannot be edited.
 */
export function lisnPlans(ctx: PlanContext, layout: IpesLayout | undefined): Map<string, Plan> {
  const plans = new Map<string, Plan>();
  const byName = new Map(ctx.netlist.elements.map((e) => [e.name, e]));
  for (const [name, kept] of Object.entries(layout?.components ?? {})) {
    if (kept.block !== 'e' || kept.typ !== LISN_TYP) continue;
    const nodesOf = (prefix: string, k: number): string[] => byName.get(`${name}.${prefix}${k}`)?.nodes ?? [];
    const line = [1, 2, 3].map((k) => nodesOf('Lin', k)[0] ?? '');
    const equipment = [1, 2, 3].map((k) => nodesOf('Rout', k)[1] ?? '');
    const measuring = [1, 2, 3].map((k) => nodesOf('Rgnd', k)[0] ?? '');
    const n = nodesOf('Rgnd', 1)[1] ?? '';
    const expected = lisnElements(name, line, equipment, n, measuring, (k) => `${INNER}${k}`);
    const own = new Set(expected.map((e) => e.name));
    const others = new Set(ctx.netlist.elements.filter((e) => !own.has(e.name)).flatMap((e) => e.nodes));
    if (!intact(byName, expected, others)) {
      problem(ctx, name, `GeckoCIRCUITS' LISN has fixed elements (per phase Lin 50 µH, Lout 300 nH, Rout 20 mΩ, Cgnd 250 nF, Rgnd 50 Ω); ${name}.Lin1 … ${name}.Cgnd3 no longer form it`);
      continue;
    }
    const plan = newPlan(name, 'e', LISN_TYP);
    plan.ins = line;
    plan.outs = [...equipment, n, ...measuring];
    for (const e of own) plans.set(e, plan);
  }
  return plans;
}

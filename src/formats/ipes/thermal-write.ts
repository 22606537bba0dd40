// Writer side of the thermal domain, the inverse of thermal.ts / thermal-blocks.ts / losses.ts:
// thermal elements → `eTH` plans (RTH → Rth 46, CTH → Cth 47, TSRC → DT 45, QSRC → HEAT-SOURCE 44
// with XIN = b, PV → Pv 41 coupled to its device, XIN on the thermal zero), TEMP / FLOW / LOSS →
// control typ 16 / 17 (LOSS = a FLOW meter on the device's Pv, `losscomp` = part), and the loss
// parameters of semiconductors (`kON`, `kOFF`, `uSWnorm`, `numberParalleled`, `<Verluste>` with
// `verlustTyp` 2 and an embedded loss file for `lossModel`). The hidden Pv resistors the reader
// adds are not written (GeckoCIRCUITS adds them itself).
import type { ControlBlock, NetlistElement } from '../netlist.js';
import type { LossModel, ThermalElement, ThermalNetlist } from '../thermal-netlist.js';
import { geckoFileLines, lossFileText } from './loss-files.js';
import { PARALLELED, SIMPLE_LOSS_PARAMS } from './losses.js';
import { newPlan, problem, putFlag, putParam, type Plan, type PlanContext } from './plan.js';
import { PV_PARALLEL_RESISTANCE, PV_TYP, TREF_TYP } from './thermal.js';
import { FLOW_TYP, TEMP_TYP } from './thermal-blocks.js';

const THERMAL_TYP: Record<string, number> = { RTH: 46, CTH: 47, TSRC: 45, QSRC: 44, PV: PV_TYP };

const thermalOf = (ctx: PlanContext): ThermalNetlist => ctx.netlist as ThermalNetlist;

/** Plan of one thermal element. */
export function thermalPlan(ctx: PlanContext, t: ThermalElement): Plan | undefined {
  const typ = THERMAL_TYP[t.type];
  if (typ === undefined || t.nodes.length !== 2) {
    problem(ctx, t.name, `GeckoCIRCUITS has no thermal ${t.type} element with ${t.nodes.length} nodes`);
    return undefined;
  }
  const plan = newPlan(t.name, 'eTH', typ);
  plan.orientation = ctx.layout?.components[t.name]?.orientation ?? 503;
  const p = t.params ?? {};
  const [a, b] = t.nodes;
  plan.ins = [a];
  plan.outs = [b];
  switch (t.type) {
    case 'RTH':
      putParam(ctx, plan, { key: 'resistance', slot: 0, def: 1 }, p.R);
      break;
    case 'CTH':
      putParam(ctx, plan, { key: 'capacitance', slot: 0, def: 1 }, p.C);
      putParam(ctx, plan, { key: 'initVoltage', slot: 1, def: 0 }, p.T0 ?? 0);
      putFlag(plan, 'isNonlinear', -1, false);
      break;
    case 'TSRC':
    case 'QSRC':
      if (t.type === 'QSRC') [plan.ins, plan.outs] = [[b], [a]];
      putParam(ctx, plan, { key: 'sourceType', slot: 0, def: 401 }, 401);
      putParam(ctx, plan, { key: 'dcValue', slot: 1, def: 0 }, t.type === 'TSRC' ? p.T : p.P);
      plan.coupled = [undefined];
      break;
    case 'PV': {
      const device = String(p.device ?? '');
      if (b !== '0') problem(ctx, t.name, `a GeckoCIRCUITS loss source takes its heat from the thermal reference: its second node must be 0, got ${b}`);
      if (p.part !== undefined && p.part !== 'total') problem(ctx, t.name, 'a GeckoCIRCUITS loss source injects the total losses (part: total)');
      if (!ctx.netlist.elements.some((e) => e.name === device)) problem(ctx, t.name, `device ${device} is not an element of the netlist`);
      [plan.ins, plan.outs] = [[b], [a]];
      plan.orientation = 503;
      plan.coupled = [device];
      plan.strings = [device, '', '0'];
      break;
    }
  }
  return plan;
}

/** The hidden resistors of PV elements (`<pv>.Rpar`, 10 kK/W across the PV), which are not written. */
export function hiddenResistors(thermal: ThermalElement[]): Set<string> {
  const pvs = new Map(thermal.filter((t) => t.type === 'PV').map((t) => [`${t.name}.Rpar`, t]));
  const hidden = new Set<string>();
  for (const t of thermal) {
    const pv = pvs.get(t.name);
    if (pv && t.type === 'RTH' && t.params?.R === PV_PARALLEL_RESISTANCE && t.nodes.join('|') === pv.nodes.join('|')) hidden.add(t.name);
  }
  return hidden;
}

/** A TREF tying node 0 to the thermal zero (written when the layout's own ones are not). */
export function referencePlan(): Plan {
  const plan = newPlan('TREF.1', 'eTH', TREF_TYP);
  plan.ins = ['0'];
  plan.outs = [undefined];
  plan.slots[0] = 1e-9;
  plan.nameOpt[0] = '';
  plan.named.push(['tRef', '1.0E-9']);
  return plan;
}

/** Plan of a TEMP, FLOW or LOSS block. */
export function thermalBlockPlan(ctx: PlanContext, b: ControlBlock): Plan {
  const type = b.type as string;
  const plan = newPlan(b.name, 'c', type === 'TEMP' ? TEMP_TYP : FLOW_TYP);
  plan.outs = [...(b.outputs ?? [])];
  const p = b.params ?? {};
  plan.coupled = [undefined];
  if (type === 'TEMP') {
    const nodes = Array.isArray(p.nodes) ? p.nodes.map(String) : [];
    if (nodes.length !== 2) problem(ctx, b.name, 'TEMP needs params.nodes [a, b]');
    plan.strings = [{ thermal: nodes[0] ?? '' }, { thermal: nodes[1] ?? '' }, ''];
    return plan;
  }
  let target = String(p.element ?? '');
  if (type === 'LOSS') {
    const pv = (thermalOf(ctx).thermal ?? []).find((t) => t.type === 'PV' && t.params?.device === p.device);
    if (!pv) problem(ctx, b.name, `GeckoCIRCUITS measures losses through the loss source (Pv) of the device; no PV element has device ${String(p.device)}`);
    target = pv?.name ?? '';
    plan.named.push(['losscomp', String(p.part ?? 'total')]);
  } else {
    plan.named.push(['losscomp', 'total']);
  }
  plan.coupled = [target];
  plan.strings = [target, '', '0'];
  return plan;
}

/** Writes the loss parameters of a semiconductor plan. */
export function putLosses(ctx: PlanContext, e: NetlistElement, plan: Plan): void {
  const p = e.params ?? {};
  for (const spec of SIMPLE_LOSS_PARAMS) if (p[spec.net] !== undefined) putParam(ctx, plan, spec, p[spec.net]);
  if (p.paralleled !== undefined) putParam(ctx, plan, PARALLELED, p.paralleled);
  if (p.lossModel === undefined) return;
  const key = String(p.lossModel);
  const model = thermalOf(ctx).lossModels?.[key];
  if (!model) {
    problem(ctx, e.name, `lossModel ${key} is not in the netlist's lossModels`);
    return;
  }
  const { problem: why } = lossFileText(model);
  if (why) problem(ctx, e.name, `loss model ${key} cannot be saved as a GeckoCIRCUITS loss file: ${why}`);
  plan.lossModel = key;
}

/** Hash value of the embedded loss file of a model (non-zero, stable). */
export function lossFileHash(key: string): number {
  let h = 0x811c9dc5;
  for (const ch of `loss:${key}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193);
  return h === 0 ? 1 : h | 0;
}

/** `<GeckoFile>` lines of every loss model a plan uses. */
export function lossFileBlocks(models: Record<string, LossModel> | undefined, plans: Plan[], uids: Map<string, number>): string[] {
  const users = new Map<string, number[]>();
  for (const plan of plans) {
    if (!plan.lossModel) continue;
    users.set(plan.lossModel, [...(users.get(plan.lossModel) ?? []), uids.get(plan.name)!]);
  }
  return [...users].flatMap(([key, ids]) => geckoFileLines(lossFileHash(key), `${key}.scl`, ids, lossFileText(models![key]).text!));
}

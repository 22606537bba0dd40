// The reader's thermal pass: names the thermal nodes (reference "0" = the thermal zero shared by Pv
// and TREF elements), maps the thermal elements (thermal.ts), gives TEMP / FLOW meters their
// environment (thermal-blocks.ts), and adds the loss parameters of the semiconductors (losses.ts):
// for every device a Pv element or LOSS block uses, and the measured curves of every detailed
// model whose file is at hand.
import type { ControlBlock, NetlistElement } from '../netlist.js';
import type { LossModel, ThermalElement } from '../thermal-netlist.js';
import type { Classified } from './classify.js';
import type { ComponentRecord } from './components.js';
import type { Connectivity, TerminalRef } from './geometry.js';
import type { LayoutComponent } from './layout.js';
import type { GeckoFileEntry } from './loss-files.js';
import { lossParams, type LossSources } from './losses.js';
import { nameNodes, type DomainNames } from './naming.js';
import type { ReadContext } from './params.js';
import type { ThermalBlockEnv } from './thermal-blocks.js';
import { hasLosses, mapThermalElement, PV_TYP, TREF_TYP } from './thermal.js';

type Coupled = (uid: number | undefined, name: string | undefined) => { index: number; record: ComponentRecord } | undefined;

export interface ThermalPart {
  names: DomainNames;
  thermal: ThermalElement[];
  /** Mapped element by component name (a Pv's PV or QSRC). */
  byComponent: Map<string, ThermalElement>;
  /** Layout entries of the mapped thermal components. */
  layout: Record<string, LayoutComponent>;
  /** Raw text of TREF elements (kept in the file, not in the netlist). */
  ties: string[][];
  /** Names of the hidden elements added behind Pv elements. */
  hidden: string[];
}

function thermalOrder(records: ComponentRecord[], cls: Classified): TerminalRef[] {
  const order: TerminalRef[] = [];
  records.forEach((r, component) => {
    const g = cls.placed[component];
    if (r.block !== 'eTH' || cls.status[component] !== 'active' || !g) return;
    g.geometry.ins.forEach((_, index) => order.push({ component, side: 'in', index }));
    g.geometry.outs.forEach((_, index) => order.push({ component, side: 'out', index }));
  });
  return order;
}

/** Names thermal nodes and maps the thermal elements. */
export function readThermal(ctx: ReadContext, records: ComponentRecord[], cls: Classified, conn: Connectivity, coupled: Coupled, elements: NetlistElement[]): ThermalPart {
  const references = new Set<number>();
  records.forEach((r, i) => {
    if (r.block !== 'eTH' || cls.status[i] !== 'active') return;
    if (r.typ === PV_TYP) references.add(conn.nodeOf(i, 'in', 0)!);
    if (r.typ === TREF_TYP) [conn.nodeOf(i, 'in', 0)!, conn.nodeOf(i, 'out', 0)!].forEach((n) => references.add(n));
  });
  const names = nameNodes(conn, 'THERMAL', thermalOrder(records, cls), ctx.warnings, references);
  const types = new Map(elements.map((e) => [e.name, e.type]));
  const part: ThermalPart = { names, thermal: [], byComponent: new Map(), layout: {}, ties: [], hidden: [] };
  const env = {
    ctx,
    node: (i: number, side: 'in' | 'out') => names.names.get(conn.nodeOf(i, side, 0)!)!,
    coupled,
    elementType: (name: string) => types.get(name),
  };
  records.forEach((r, i) => {
    if (r.block !== 'eTH' || cls.status[i] !== 'active') return;
    if (r.typ === TREF_TYP) {
      part.ties.push(r.raw.lines);
      return;
    }
    const mapped = mapThermalElement(env, i, r);
    if (!mapped) return;
    part.thermal.push(mapped.element, ...(mapped.hidden ?? []));
    part.hidden.push(...(mapped.hidden ?? []).map((h) => h.name));
    part.byComponent.set(r.name, mapped.element);
    part.layout[r.name] = { block: 'eTH', typ: r.typ, x: r.x, y: r.y, orientation: r.orientation, uid: r.uid, inLabels: r.inLabels, outLabels: r.outLabels };
  });
  return part;
}

/** The environment of TEMP / FLOW meters. */
export function meterEnv(ctx: ReadContext, part: ThermalPart, coupled: Coupled, output: (index: number) => string): ThermalBlockEnv {
  return {
    ctx,
    output,
    nodeOfLabel: (label) => part.names.byLabel.get(label),
    coupled,
    thermalElement: (name) => part.byComponent.get(name),
  };
}

/** Adds loss parameters to the semiconductors; returns the loss models read. */
export function addLossParams(
  ctx: ReadContext, records: ComponentRecord[], elements: NetlistElement[], thermal: ThermalElement[], blocks: ControlBlock[],
  files: Map<number, GeckoFileEntry>, readBeside?: (name: string) => Uint8Array | undefined,
): Record<string, LossModel> {
  const users = new Set<string>();
  for (const t of thermal) if (t.type === 'PV') users.add(String(t.params?.device));
  for (const b of blocks) if ((b.type as string) === 'LOSS') users.add(String(b.params?.device));
  const sources: LossSources = { files, readBeside, models: {}, keys: new Map() };
  const byName = new Map(records.filter((r) => r.block === 'e').map((r) => [r.name, r]));
  for (const e of elements) {
    const r = byName.get(e.name);
    if (!r || !hasLosses(r.typ)) continue;
    const params = lossParams(ctx, r, sources, users.has(e.name));
    if (Object.keys(params).length > 0) e.params = { ...(e.params ?? {}), ...params };
  }
  return sources.models;
}

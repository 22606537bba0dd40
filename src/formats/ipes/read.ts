// GeckoCIRCUITS .ipes → pesim netlist (the reader's entry point). Steps: container → blocks
// (tokens.ts) → records (components.ts) → classification (simulated / dropped with a warning /
// unsupported) → connectivity (geometry.ts) → node and signal names (naming.ts) → elements and
// blocks (elements.ts, lisn.ts, controls.ts, signals.ts) → thermal network, meters and loss data
// (read-thermal.ts) → settings, global parameters and layout.
// Everything the engine cannot simulate is collected and reported in one UNSUPPORTED_COMPONENTS
// error; dangling references in one UNKNOWN_REFERENCE error; syntax errors name the line.
import { NetlistError } from '../errors.js';
import { assertNetlistShape, NETLIST_FORMAT, type ControlBlock, type NetlistElement, type NetlistSettings, type SolverMethod } from '../netlist.js';
import type { ThermalNetlist } from '../thermal-netlist.js';
import { decodeIpes } from './container.js';
import { scanIpes, syntaxError, type ScannedIpes } from './tokens.js';
import { readComponent, readWire, uniqueNames, type ComponentRecord, type WireRecord } from './components.js';
import { classify, type Classified } from './classify.js';
import { connect, type TerminalRef } from './geometry.js';
import { checkWires } from './wire-check.js';
import { dropUnusedObservers } from './observers.js';
import { nameNodes } from './naming.js';
import { mapElement, type ElementEnv } from './elements.js';
import { LISN_TYP, mapLisn } from './lisn.js';
import { mapBlock, type ControlEnv, type PendingBlock } from './controls.js';
import { JAVA_BLOCK_TYP } from './footprints.js';
import { mapJavaBlock } from './java-blocks.js';
import { mapMachineMeter, MACHINE_METER_TYP } from './machine-meter.js';
import { mapSignal, resolvePending } from './signals.js';
import type { ReadContext } from './params.js';
import { readFileManager, type CompanionReader } from './datafiles.js';
import type { IpesLayout, LayoutComponent } from './layout.js';
import { readGeckoFiles } from './loss-files.js';
import { addLossParams, meterEnv, readThermal } from './read-thermal.js';
import { isThermalMeter, mapThermalMeter } from './thermal-blocks.js';

export interface IpesReadResult {
  netlist: ThermalNetlist;
  warnings: string[];
}

export interface IpesReadOptions {
  /**
   * Reads a file beside the .ipes file by plain name: data files of imported signals and loss
   * files that are not embedded; undefined when there is none.
   */
  companion?: CompanionReader;
}

const SOLVERS: Record<number, SolverMethod> = { 0: 'backward-euler', 1: 'trapezoidal', 2: 'gear-shichman' };

function positive(scanned: ScannedIpes, key: string, def: number, fileName?: string): number {
  const value = scanned.trailer.number(key) ?? def;
  if (!(value > 0)) throw syntaxError(scanned.trailer.line(key) ?? 1, `${key} must be greater than 0, got ${value}`, fileName);
  return value;
}

function readSettings(scanned: ScannedIpes, fileName?: string): NetlistSettings {
  const t = scanned.trailer;
  const settings: NetlistSettings = { tEnd: positive(scanned, 'tDURATION', 20e-3, fileName), dt: positive(scanned, 'dt', 1e-7, fileName) };
  const solverType = t.integer('solverType') ?? 0;
  const solver = SOLVERS[solverType];
  if (!solver) throw syntaxError(t.line('solverType')!, `solverType must be 0, 1 or 2, got ${solverType}`, fileName);
  settings.solver = solver;
  // GeckoCIRCUITS keeps its integration method on switching steps.
  if (solver !== 'backward-euler') settings.dampAfterSwitch = false;
  // Signal sources stepped as GeckoCIRCUITS steps them (docs/ipes.md, "Timing").
  settings.timing = 'gecko';
  const tPre = t.number('T_pre') ?? -1;
  if (tPre > 0) {
    const dtPre = t.number('dt_pre') ?? -1;
    settings.tPre = tPre;
    settings.dtPre = dtPre > 0 ? dtPre : settings.dt;
  }
  return settings;
}

function readGlobals(scanned: ScannedIpes, fileName?: string): Record<string, number> {
  const names = scanned.trailer.strings('optimizerName') ?? [];
  const values = scanned.trailer.numbers('optimizerValue') ?? [];
  if (names.length !== values.length) {
    throw syntaxError(scanned.trailer.line('optimizerValue[]') ?? 1, `${names.length} global parameter names but ${values.length} values`, fileName);
  }
  const globals: Record<string, number> = {};
  names.forEach((name, i) => {
    const key = name.startsWith('$') ? name.slice(1) : name;
    if (key) globals[key] = values[i];
  });
  return globals;
}

function terminalOrder(records: ComponentRecord[], cls: Classified, block: 'e' | 'c'): TerminalRef[] {
  const order: TerminalRef[] = [];
  records.forEach((r, component) => {
    const g = cls.placed[component];
    if (r.block !== block || cls.status[component] !== 'active' || !g) return;
    g.geometry.ins.forEach((_, index) => order.push({ component, side: 'in', index }));
    g.geometry.outs.forEach((_, index) => order.push({ component, side: 'out', index }));
  });
  return order;
}

function layoutComponent(r: ComponentRecord, extra?: Record<string, unknown>): LayoutComponent {
  const c: LayoutComponent = { block: r.block as 'e' | 'c' | 'eTH', typ: r.typ, x: r.x, y: r.y, orientation: r.block === 'c' ? 503 : r.orientation, uid: r.uid, inLabels: r.inLabels, outLabels: r.outLabels };
  if (extra && Object.keys(extra).length > 0) c.extra = extra;
  return c;
}

function throwCollected(ctx: ReadContext, fileName?: string): void {
  const where = fileName ? `${fileName}: ` : '';
  if (ctx.unsupported.length > 0) {
    const list = ctx.unsupported.map((d) => d.message).join('; ');
    throw new NetlistError('UNSUPPORTED_COMPONENTS', `${where}the circuit uses ${ctx.unsupported.length} component(s) the engine cannot simulate: ${list}`, ctx.unsupported);
  }
  if (ctx.issues.length > 0) {
    throw new NetlistError('UNKNOWN_REFERENCE', `${where}${ctx.issues.map((d) => d.message).join('; ')}`, ctx.issues);
  }
}

/** Raw lines of a kept component without the running index of its header (`c (12)` → `c`): the writer renumbers. */
const unnumbered = (lines: string[]): string[] => [lines[0].split(' ', 1)[0], ...lines.slice(1)];

/** Reads .ipes text (already decompressed). */
export function readIpesText(text: string, fileName?: string, options: IpesReadOptions = {}): IpesReadResult {
  const scanned = scanIpes(text, fileName);
  const hasContent = scanned.blocks.some((b) => b.key !== 'GeckoFileManager') || scanned.trailer.has('tDURATION');
  if (!hasContent) throw syntaxError(1, 'not a GeckoCIRCUITS .ipes file: no components, wires or simulation settings found', fileName);
  const settings = readSettings(scanned, fileName);
  const globals = readGlobals(scanned, fileName);
  const ctx: ReadContext = { fileName, globals, warnings: [], unsupported: [], issues: [], dt: settings.dt,
    dataFiles: readFileManager(scanned.blocks.find((b) => b.key === 'GeckoFileManager')), companion: options.companion };
  if ((scanned.sections.get('scripterCode') ?? []).some((line) => line.trim().length > 0)) {
    ctx.warnings.push('the file contains GeckoSCRIPT code; it is not run');
  }

  const wires: WireRecord[] = [];
  const records: ComponentRecord[] = [];
  for (const raw of scanned.blocks) {
    if (raw.key.startsWith('verbindung')) wires.push(readWire(raw, fileName));
    else if (raw.key !== 'GeckoFileManager') records.push(readComponent(raw, fileName));
  }
  uniqueNames(records, fileName);
  const cls = classify(ctx, records);
  const liveWires = wires.filter((w) => w.enabled !== 0 && w.sheet === 0);
  const conn = connect(records, cls.placed, liveWires);
  dropUnusedObservers(ctx, records, cls, checkWires(records, cls, liveWires, conn, fileName));

  // Drivers of control nodes: exactly one block output per signal.
  const driver = new Map<number, number>();
  records.forEach((r, i) => {
    if (r.block !== 'c' || cls.status[i] !== 'active') return;
    cls.placed[i]!.geometry.outs.forEach((_, j) => {
      const node = conn.nodeOf(i, 'out', j)!;
      const other = driver.get(node);
      if (other === undefined) driver.set(node, i);
      else ctx.issues.push({ field: r.name, component: r.name, line: r.line, message: `${r.name}: its output is connected to the output of ${records[other].name}` });
    });
  });

  const lk = nameNodes(conn, 'LK', terminalOrder(records, cls, 'e'), ctx.warnings);
  const control = nameNodes(conn, 'CONTROL', terminalOrder(records, cls, 'c'), ctx.warnings);
  const byUid = new Map<number, number>();
  const byName = new Map<string, number>();
  records.forEach((r, i) => {
    if (r.uid !== 0 && !byUid.has(r.uid)) byUid.set(r.uid, i);
    byName.set(r.name, i);
  });
  const coupled = (uid: number | undefined, name: string | undefined): { index: number; record: ComponentRecord } | undefined => {
    const index = uid ? byUid.get(uid) : name ? byName.get(name) : undefined;
    return index === undefined ? undefined : { index, record: records[index] };
  };
  const names = new Set([...records.map((r) => r.name), ...control.names.values()]);
  let zero: string | undefined;
  const unconnected: Array<{ component: string; text: string }> = [];
  const zeroSignal = (component: string, text: string): string => {
    unconnected.push({ component, text });
    if (!zero) {
      zero = '_zero';
      while (names.has(zero)) zero = `_${zero}`;
    }
    return zero;
  };
  const signalOfNode = (node: number | undefined): string | undefined =>
    node !== undefined && driver.has(node) ? control.names.get(node) : undefined;

  const elementEnv: ElementEnv = {
    ctx,
    node: (i, side, t) => lk.names.get(conn.nodeOf(i, side, t)!)!,
    signalOfLabel: (label) => {
      const name = control.byLabel.get(label);
      if (name === undefined) return undefined;
      const node = [...control.names].find(([, n]) => n === name)?.[0];
      return signalOfNode(node) ?? zeroSignal('', `signal '${label}'`);
    },
    coupled,
  };
  const elements: NetlistElement[] = [];
  const layout: IpesLayout = { version: 1, components: {}, wires: [], inactive: [], synthetic: [], nodeLabels: lk.fileLabels, trailer: { tPause: scanned.trailer.number('tPAUSE') ?? -1 } };
  const nodeNames = new Set(lk.names.values());
  records.forEach((r, i) => {
    if (r.block !== 'e' || cls.status[i] !== 'active') return;
    if (r.typ === LISN_TYP) {
      const terminals = (side: 'in' | 'out', count: number): string[] => Array.from({ length: count }, (_, t) => elementEnv.node(i, side, t));
      const network = mapLisn(r, terminals('in', 3), terminals('out', 7), nodeNames);
      elements.push(...network);
      layout.components[r.name] = layoutComponent(r);
      layout.synthetic.push(...network.map((e) => e.name));
      return;
    }
    const mapped = mapElement(elementEnv, i, r);
    if (!mapped) return;
    elements.push(mapped.element);
    layout.components[r.name] = layoutComponent(r, mapped.extra);
  });
  const elementNames = new Set(elements.map((e) => e.name));
  const thermalPart = readThermal(ctx, records, cls, conn, coupled, elements);
  Object.assign(layout.components, thermalPart.layout);
  const meters = meterEnv(ctx, thermalPart, coupled, (i) => control.names.get(conn.nodeOf(i, 'out', 0)!)!);

  const controlEnv: ControlEnv = {
    ctx,
    input: (i, t) => signalOfNode(conn.nodeOf(i, 'in', t)),
    zero: zeroSignal,
    output: (i, j) => control.names.get(conn.nodeOf(i, 'out', j)!)!,
    nodeOfLabel: (label) => lk.byLabel.get(label),
    coupled,
    isElement: (name) => elementNames.has(name),
  };
  const slots: Array<{ index: number; blocks: ControlBlock[] }> = [];
  const pendings: PendingBlock[] = [];
  records.forEach((r, i) => {
    if (r.block !== 'c' || cls.status[i] !== 'active') return;
    const inputs = cls.placed[i]!.geometry.ins.length;
    if (r.typ === 4) {
      const external = inputs > 0 ? Array.from({ length: inputs }, (_, t) => controlEnv.input(i, t)) : undefined;
      const result = mapSignal(ctx, r, [controlEnv.output(i, 0)], external);
      if (result?.mapped) {
        slots.push({ index: i, blocks: result.mapped.blocks });
        layout.components[r.name] = layoutComponent(r, result.mapped.extra);
      } else if (result?.pending) {
        pendings.push({ ...result.pending, index: i });
        slots.push({ index: i, blocks: [] });
      }
      return;
    }
    if (isThermalMeter(r)) {
      const meter = mapThermalMeter(meters, i, r);
      if (meter) {
        slots.push({ index: i, blocks: [meter] });
        layout.components[r.name] = layoutComponent(r);
      }
      return;
    }
    if (r.typ === JAVA_BLOCK_TYP) {
      const geometry = cls.placed[i]!.geometry;
      const java = mapJavaBlock(controlEnv, i, r, geometry.ins.length, geometry.outs.length, cls.observers.has(i));
      if (java) {
        slots.push({ index: i, blocks: [java] });
        layout.components[r.name] = layoutComponent(r);
      }
      return;
    }
    if (r.typ === MACHINE_METER_TYP) {
      const meter = mapMachineMeter(controlEnv, i, r);
      if (meter) {
        slots.push({ index: i, blocks: [meter] });
        layout.components[r.name] = layoutComponent(r);
      }
      return;
    }
    const mapped = mapBlock(controlEnv, i, r);
    if (!mapped) {
      if (!ctx.unsupported.some((u) => u.component === r.name) && !ctx.issues.some((u) => u.component === r.name)) layout.inactive.push(unnumbered(r.raw.lines));
      return;
    }
    slots.push({ index: i, blocks: [mapped.block] });
    layout.components[r.name] = layoutComponent(r);
    if (mapped.pending) {
      pendings.push(mapped.pending);
      slots[slots.length - 1].blocks = [];
    }
  });
  // External parameters fold over the other blocks, in file order (resolved ones included).
  const producers = new Map<string, ControlBlock>();
  for (const slot of slots) for (const b of slot.blocks) for (const out of b.outputs ?? []) producers.set(out, b);
  for (const pending of pendings) {
    const resolved = resolvePending(ctx, pending, producers);
    if (!resolved) continue;
    for (const b of resolved.blocks) for (const out of b.outputs ?? []) producers.set(out, b);
    slots.find((s) => s.index === pending.index)!.blocks = resolved.blocks;
    layout.components[pending.record.name] = layoutComponent(pending.record, resolved.extra);
    layout.synthetic.push(...(resolved.synthetic ?? []));
  }
  const blocks = slots.flatMap((s) => s.blocks);
  const geckoFiles = readGeckoFiles(scanned.blocks.find((b) => b.key === 'GeckoFileManager'), fileName);
  const lossModels = addLossParams(ctx, records, elements, thermalPart.thermal, blocks, geckoFiles, options.companion);
  throwCollected(ctx, fileName);

  // The zero source only when a mapped block or source reads it (dropped blocks asked for it too).
  const kept = new Set([...blocks.map((b) => b.name), '']);
  const readers = unconnected.filter((u) => kept.has(u.component));
  if (zero && (blocks.some((b) => b.inputs?.includes(zero!)) || elements.some((e) => e.params?.signal === zero))) {
    blocks.push({ name: zero, type: 'CONST', outputs: [zero], params: { value: 0 } });
    layout.synthetic.push(zero);
    ctx.warnings.push(`unconnected control inputs read 0, as in GeckoCIRCUITS (fed by the added block ${zero}): ${readers.map((u) => u.text).join(', ')}`);
  }
  records.forEach((r, i) => {
    if (cls.status[i] === 'inactive') layout.inactive.push(unnumbered(r.raw.lines));
  });
  for (const w of wires) {
    layout.wires.push({ domain: w.domain, label: w.label, x: w.x, y: w.y, ...(w.enabled !== 1 ? { enabled: w.enabled } : {}) });
  }
  layout.inactive.push(...thermalPart.ties);
  layout.synthetic.push(...thermalPart.hidden);
  if (Object.keys(thermalPart.names.fileLabels).length > 0) layout.thermalLabels = thermalPart.names.fileLabels;
  const netlist: ThermalNetlist = { format: NETLIST_FORMAT, settings, elements };
  if (fileName) netlist.name = fileName.replace(/^.*[\\/]/, '').replace(/\.ipes$/i, '');
  if (Object.keys(globals).length > 0) netlist.parameters = globals;
  if (blocks.length > 0) netlist.blocks = blocks;
  if (thermalPart.thermal.length > 0) netlist.thermal = thermalPart.thermal;
  if (Object.keys(lossModels).length > 0) netlist.lossModels = lossModels;
  netlist.layout = { ipes: layout };
  assertNetlistShape(netlist);
  return { netlist, warnings: ctx.warnings };
}

/** Reads a GeckoCIRCUITS .ipes file (gzip, raw zlib or plain text) into a pesim netlist. */
export function readIpes(bytes: Uint8Array, fileName?: string, options: IpesReadOptions = {}): IpesReadResult {
  const { text } = decodeIpes(bytes, fileName);
  return readIpesText(text, fileName, options);
}

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

/** The parsed file, connected and named: what the phases after the connectivity work on. */
interface Reading {
  ctx: ReadContext;
  records: ComponentRecord[];
  cls: Classified;
  conn: ReturnType<typeof connect>;
  /** Node names of the power circuit and of the control signals. */
  lk: ReturnType<typeof nameNodes>;
  control: ReturnType<typeof nameNodes>;
  /** Control node → the block whose output drives it. */
  driver: Map<number, number>;
  coupled: (uid: number | undefined, name: string | undefined) => { index: number; record: ComponentRecord } | undefined;
  zero: ZeroSource;
  layout: IpesLayout;
}

/** The shared zero source of unconnected control inputs, named once a reader asks for it. */
interface ZeroSource {
  name?: string;
  readers: Array<{ component: string; text: string }>;
  signal(component: string, text: string): string;
}

function zeroSource(taken: Set<string>): ZeroSource {
  const zero: ZeroSource = {
    readers: [],
    signal: (component, text) => {
      zero.readers.push({ component, text });
      if (!zero.name) {
        zero.name = '_zero';
        while (taken.has(zero.name)) zero.name = `_${zero.name}`;
      }
      return zero.name;
    },
  };
  return zero;
}

/** Splits the scanned blocks into wires and component records (names made unique). */
function readRecords(scanned: ScannedIpes, fileName?: string): { wires: WireRecord[]; records: ComponentRecord[] } {
  const wires: WireRecord[] = [];
  const records: ComponentRecord[] = [];
  for (const raw of scanned.blocks) {
    if (raw.key.startsWith('verbindung')) wires.push(readWire(raw, fileName));
    else if (raw.key !== 'GeckoFileManager') records.push(readComponent(raw, fileName));
  }
  uniqueNames(records, fileName);
  return { wires, records };
}

/** Drivers of control nodes: exactly one block output per signal (two outputs on one node: an issue). */
function controlDrivers(ctx: ReadContext, records: ComponentRecord[], cls: Classified, conn: Reading['conn']): Map<number, number> {
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
  return driver;
}

/** Classification, connectivity and naming of the records: everything the mapping phases read. */
function connectRecords(ctx: ReadContext, scanned: ScannedIpes, records: ComponentRecord[], wires: WireRecord[], fileName?: string): Reading {
  const cls = classify(ctx, records);
  const liveWires = wires.filter((w) => w.enabled !== 0 && w.sheet === 0);
  const conn = connect(records, cls.placed, liveWires);
  dropUnusedObservers(ctx, records, cls, checkWires(records, cls, liveWires, conn, fileName));
  const driver = controlDrivers(ctx, records, cls, conn);
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
  const zero = zeroSource(new Set([...records.map((r) => r.name), ...control.names.values()]));
  const layout: IpesLayout = { version: 1, components: {}, wires: [], inactive: [], synthetic: [], nodeLabels: lk.fileLabels, trailer: { tPause: scanned.trailer.number('tPAUSE') ?? -1 } };
  return { ctx, records, cls, conn, lk, control, driver, coupled, zero, layout };
}

const signalOfNode = (rd: Reading, node: number | undefined): string | undefined =>
  node !== undefined && rd.driver.has(node) ? rd.control.names.get(node) : undefined;

/** The power-circuit elements (LISNs expand into their networks). */
function readElements(rd: Reading): NetlistElement[] {
  const { ctx, records, cls, conn, lk, control, layout } = rd;
  const elementEnv: ElementEnv = {
    ctx,
    node: (i, side, t) => lk.names.get(conn.nodeOf(i, side, t)!)!,
    signalOfLabel: (label) => {
      const name = control.byLabel.get(label);
      if (name === undefined) return undefined;
      const node = [...control.names].find(([, n]) => n === name)?.[0];
      return signalOfNode(rd, node) ?? rd.zero.signal('', `signal '${label}'`);
    },
    coupled: rd.coupled,
  };
  const elements: NetlistElement[] = [];
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
  return elements;
}

/** One control record read: its blocks (none yet when pending), the layout extra, or dropped. */
interface BlockSlot {
  blocks: ControlBlock[];
  extra?: Record<string, unknown>;
  pending?: PendingBlock;
  /** Into the layout only once its pending parameters resolve (a signal source). */
  deferLayout?: boolean;
}

type ControlRecordReader = (env: ControlEnv, i: number, r: ComponentRecord, rd: Reading, meters: ReturnType<typeof meterEnv>) => BlockSlot | undefined;

const single = (block: ControlBlock | undefined): BlockSlot | undefined => (block ? { blocks: [block] } : undefined);

/** Control records with a reader of their own, by what identifies them; the others go to mapBlock. */
const CONTROL_READERS: Array<{ matches: (r: ComponentRecord) => boolean; read: ControlRecordReader }> = [
  { matches: (r) => r.typ === 4, read: (env, i, r, rd) => {
    const inputs = rd.cls.placed[i]!.geometry.ins.length;
    const external = inputs > 0 ? Array.from({ length: inputs }, (_, t) => env.input(i, t)) : undefined;
    const result = mapSignal(rd.ctx, r, [env.output(i, 0)], external);
    if (result?.mapped) return { blocks: result.mapped.blocks, extra: result.mapped.extra };
    return result?.pending ? { blocks: [], pending: { ...result.pending, index: i }, deferLayout: true } : undefined;
  } },
  { matches: isThermalMeter, read: (_env, i, r, _rd, meters) => single(mapThermalMeter(meters, i, r)) },
  { matches: (r) => r.typ === JAVA_BLOCK_TYP, read: (env, i, r, rd) => {
    const geometry = rd.cls.placed[i]!.geometry;
    return single(mapJavaBlock(env, i, r, geometry.ins.length, geometry.outs.length, rd.cls.observers.has(i)));
  } },
  { matches: (r) => r.typ === MACHINE_METER_TYP, read: (env, i, r) => single(mapMachineMeter(env, i, r)) },
];

/** Any other control record: a block of the catalog. A dropped one is kept in the layout. */
function readCatalogBlock(env: ControlEnv, i: number, r: ComponentRecord, rd: Reading): BlockSlot | undefined {
  const { ctx } = rd;
  const mapped = mapBlock(env, i, r);
  if (!mapped) {
    if (!ctx.unsupported.some((u) => u.component === r.name) && !ctx.issues.some((u) => u.component === r.name)) rd.layout.inactive.push(unnumbered(r.raw.lines));
    return undefined;
  }
  return mapped.pending ? { blocks: [], pending: mapped.pending } : { blocks: [mapped.block] };
}

/** The control blocks in file order, external parameters folded in once every block is known. */
function readBlocks(rd: Reading, elements: NetlistElement[], meters: ReturnType<typeof meterEnv>): ControlBlock[] {
  const { ctx, records, cls, conn, lk, control, layout } = rd;
  const elementNames = new Set(elements.map((e) => e.name));
  const controlEnv: ControlEnv = {
    ctx,
    input: (i, t) => signalOfNode(rd, conn.nodeOf(i, 'in', t)),
    zero: (component, text) => rd.zero.signal(component, text),
    output: (i, j) => control.names.get(conn.nodeOf(i, 'out', j)!)!,
    nodeOfLabel: (label) => lk.byLabel.get(label),
    coupled: rd.coupled,
    isElement: (name) => elementNames.has(name),
  };
  const slots: Array<{ index: number; blocks: ControlBlock[] }> = [];
  const pendings: PendingBlock[] = [];
  records.forEach((r, i) => {
    if (r.block !== 'c' || cls.status[i] !== 'active') return;
    const read = CONTROL_READERS.find((reader) => reader.matches(r))?.read ?? readCatalogBlock;
    const slot = read(controlEnv, i, r, rd, meters);
    if (!slot) return;
    slots.push({ index: i, blocks: slot.blocks });
    if (!slot.deferLayout) layout.components[r.name] = layoutComponent(r, slot.extra);
    if (slot.pending) pendings.push(slot.pending);
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
  return slots.flatMap((s) => s.blocks);
}

/** The zero source, only when a mapped block or source reads it (dropped blocks asked for it too). */
function addZeroSource(rd: Reading, blocks: ControlBlock[], elements: NetlistElement[]): void {
  const zero = rd.zero.name;
  const kept = new Set([...blocks.map((b) => b.name), '']);
  const readers = rd.zero.readers.filter((u) => kept.has(u.component));
  if (zero && (blocks.some((b) => b.inputs?.includes(zero)) || elements.some((e) => e.params?.signal === zero))) {
    blocks.push({ name: zero, type: 'CONST', outputs: [zero], params: { value: 0 } });
    rd.layout.synthetic.push(zero);
    rd.ctx.warnings.push(`unconnected control inputs read 0, as in GeckoCIRCUITS (fed by the added block ${zero}): ${readers.map((u) => u.text).join(', ')}`);
  }
}

/** What the writer needs to reproduce the file: inactive components, wires, thermal ties and labels. */
function finishLayout(rd: Reading, wires: WireRecord[], thermalPart: ReturnType<typeof readThermal>): void {
  const { layout } = rd;
  rd.records.forEach((r, i) => {
    if (rd.cls.status[i] === 'inactive') layout.inactive.push(unnumbered(r.raw.lines));
  });
  for (const w of wires) {
    layout.wires.push({ domain: w.domain, label: w.label, x: w.x, y: w.y, ...(w.enabled !== 1 ? { enabled: w.enabled } : {}) });
  }
  layout.inactive.push(...thermalPart.ties);
  layout.synthetic.push(...thermalPart.hidden);
  if (Object.keys(thermalPart.names.fileLabels).length > 0) layout.thermalLabels = thermalPart.names.fileLabels;
}

/** The scan, its settings and global parameters, and the read context every phase reports into. */
function startReading(text: string, fileName: string | undefined, options: IpesReadOptions) {
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
  return { scanned, settings, globals, ctx };
}

/** Reads .ipes text (already decompressed). */
export function readIpesText(text: string, fileName?: string, options: IpesReadOptions = {}): IpesReadResult {
  const { scanned, settings, globals, ctx } = startReading(text, fileName, options);
  const { wires, records } = readRecords(scanned, fileName);
  const rd = connectRecords(ctx, scanned, records, wires, fileName);
  const elements = readElements(rd);
  const thermalPart = readThermal(ctx, records, rd.cls, rd.conn, rd.coupled, elements);
  Object.assign(rd.layout.components, thermalPart.layout);
  const meters = meterEnv(ctx, thermalPart, rd.coupled, (i) => rd.control.names.get(rd.conn.nodeOf(i, 'out', 0)!)!);
  const blocks = readBlocks(rd, elements, meters);
  const geckoFiles = readGeckoFiles(scanned.blocks.find((b) => b.key === 'GeckoFileManager'), fileName);
  const lossModels = addLossParams(ctx, records, elements, thermalPart.thermal, blocks, geckoFiles, options.companion);
  throwCollected(ctx, fileName);
  addZeroSource(rd, blocks, elements);
  finishLayout(rd, wires, thermalPart);

  const netlist: ThermalNetlist = { format: NETLIST_FORMAT, settings, elements };
  if (fileName) netlist.name = fileName.replace(/^.*[\\/]/, '').replace(/\.ipes$/i, '');
  if (Object.keys(globals).length > 0) netlist.parameters = globals;
  if (blocks.length > 0) netlist.blocks = blocks;
  if (thermalPart.thermal.length > 0) netlist.thermal = thermalPart.thermal;
  if (Object.keys(lossModels).length > 0) netlist.lossModels = lossModels;
  netlist.layout = { ipes: rd.layout };
  assertNetlistShape(netlist);
  return { netlist, warnings: ctx.warnings };
}

/** Reads a GeckoCIRCUITS .ipes file (gzip, raw zlib or plain text) into a pesim netlist. */
export function readIpes(bytes: Uint8Array, fileName?: string, options: IpesReadOptions = {}): IpesReadResult {
  const { text } = decodeIpes(bytes, fileName);
  return readIpesText(text, fileName, options);
}

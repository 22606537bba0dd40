// pesim netlist → SPICE deck that `ngspice -b` runs (the writer's entry point). The deck holds the
// circuit (write-elements.ts, write-devices.ts), `.tran dt tEnd 0 dt uic` (the step as TMAX so that
// ngspice never steps over pesim's grid, UIC because pesim starts from the initial conditions),
// `.options method=trap|gear` (backward Euler: gear with maxord=1), a 1 Ω tie to ground for every
// sub-network without one (ties.ts, as pesim does), and a `.control` block that runs
// and writes the recorded signals with `wrdata` into one file (one time column, a header of names).
// Recorded signals (`SpiceSignal`, in wrdata column order): V(node) for every node, I(name) for every
// inductor and V/I source (the reader's scope SPICE), and every scope channel fed by a VOLT or AMP
// block, each with the scope channel keys `<scope>.ch<i>` that record it in a pesim result.
import { type ControlBlock, type Netlist, type NetlistElement, resolveNetlist, scopeChannels } from '../netlist.js';
import { NetlistError } from '../errors.js';
import { SpiceNames, formatNumber as n } from './naming.js';
import { currentLabel, nodesInOrder, RECORDED_CURRENT_TYPES, voltageLabel } from './outputs.js';
import { planElements, writeElement } from './write-elements.js';
import { floatingNetworkRoots } from './ties.js';
import { type DiodeMode, type WriteContext, voltageBetween } from './write-context.js';

export interface SpiceWriteOptions {
  /** Diodes as switch + forward-voltage source (`switch`, default) or as a SPICE diode model. */
  diode?: DiodeMode;
  /** File the `.control` block writes with wrdata (default `pesim-ngspice.dat`, relative to ngspice's cwd). */
  outputFile?: string;
  /**
   * Edges of gate sources: `continuous` (default) at the exact switching instants, for ngspice;
   * `step` one time step later (less 1e-3·dt), so that pesim reading the deck back — where a
   * voltage-controlled switch follows its control at the end of each step, while a GATE applies the
   * value of the step's start — switches on the same steps as the original netlist.
   */
  gateTiming?: 'continuous' | 'step';
}

/** A signal the deck records. */
export interface SpiceSignal {
  /** pesim label, in the netlist's names: `V(node)`, `V(a,b)` or `I(element)`. */
  name: string;
  /** ngspice vector written to the output file, e.g. `v(out)`, `i(vl1_i)`. */
  vector: string;
  /** Scope channels (`<scope>.ch<i>`) of the netlist that record the same quantity. */
  channels: string[];
}

export interface SpiceDeck {
  deck: string;
  /** In the output file's column order (after the time column). */
  signals: SpiceSignal[];
  outputFile: string;
  /** Netlist name → SPICE name, for elements and nodes. */
  elementNames: Record<string, string>;
  nodeNames: Record<string, string>;
}

export const DEFAULT_OUTPUT_FILE = 'pesim-ngspice.dat';

const SOLVER_OPTIONS = {
  'backward-euler': 'method=gear maxord=1',
  trapezoidal: 'method=trap',
  'gear-shichman': 'method=gear maxord=2',
} as const;

function isIdentifier(name: string): boolean {
  return /^[a-z_][a-z0-9_]*$/i.test(name);
}

/** Builds the deck and the list of signals it records. */
export function buildSpiceDeck(netlist: Netlist, options: SpiceWriteOptions = {}): SpiceDeck {
  const { settings } = netlist;
  if ((settings.tPre ?? 0) > 0) {
    throw new NetlistError('SPICE_UNSUPPORTED', 'settings.tPre: a pre-simulation cannot be written to SPICE', [
      { field: 'settings.tPre', message: 'pre-simulation has no SPICE equivalent' },
    ]);
  }
  const diodeMode = options.diode ?? 'switch';
  const outputFile = options.outputFile ?? DEFAULT_OUTPUT_FILE;
  const resolvedNetlist = resolveNetlist(netlist);
  const names = new SpiceNames(netlist);
  const blocks = resolvedNetlist.blocks ?? [];
  const producers = new Map<string, ControlBlock>();
  const gates = new Map<string, ControlBlock>();
  for (const block of blocks) {
    for (const output of block.outputs ?? []) producers.set(output, block);
    if (block.type === 'GATE' && typeof block.params?.target === 'string') gates.set(block.params.target, block);
  }
  const writtenParameters = new Set(Object.keys(netlist.parameters ?? {}).filter(isIdentifier));
  const ctx: WriteContext = {
    names,
    lines: [],
    models: [],
    plans: planElements(netlist, names, diodeMode),
    resolved: new Map(resolvedNetlist.elements.map((e) => [e.name, e])),
    producers,
    gates,
    writtenParameters,
    dt: settings.dt,
    gateShift: options.gateTiming === 'step' ? settings.dt * (1 - 1e-3) : 0,
    diodeMode,
    signalNodes: new Map(),
  };
  for (const e of netlist.elements) writeElement(ctx, e);
  for (const node of floatingNetworkRoots(netlist)) {
    ctx.lines.push(`* ${node}: sub-network without a path to ground, tied to it as pesim does`);
    ctx.lines.push(`${names.helper('R', `tie_${names.node(node)}`)} ${names.node(node)} 0 1`);
  }

  const signals = recordedSignals(netlist, ctx, blocks);
  const title = (netlist.name ?? 'pesim netlist').replace(/[\r\n]+/g, ' ').trim() || 'pesim netlist';
  const lets: string[] = [];
  const vectors = signals.map((s, i) => {
    if (/^[a-z]\([^()]*\)$/.test(s.vector) || /^@[^\s[\]]+\[[a-z]+\]$/.test(s.vector)) return s.vector;
    lets.push(`let sig${i + 1} = ${s.vector}`);
    return (s.vector = `sig${i + 1}`);
  });
  const deviceVectors = vectors.filter((v) => v.startsWith('@'));
  const lines = [
    title,
    `* written by pesim (SPICE writer): ${netlist.elements.length} elements, diodes as ${diodeMode === 'switch' ? 'switch + vf source' : 'diode models'}`,
    ...[...writtenParameters].map((p) => `.param ${p}=${n(netlist.parameters![p])}`),
    ...ctx.lines,
    ...ctx.models,
    `.tran ${n(settings.dt)} ${n(settings.tEnd)} 0 ${n(settings.dt)} uic`,
    `.options ${SOLVER_OPTIONS[settings.solver ?? 'backward-euler']}`,
    '.control',
    'set wr_singlescale',
    'set wr_vecnames',
    'option numdgt=12',
    ...(deviceVectors.length > 0 ? [`save all ${deviceVectors.join(' ')}`] : []),
    'run',
    ...lets,
    ...(vectors.length > 0 ? [`wrdata ${outputFile} ${vectors.join(' ')}`] : []),
    'quit',
    '.endc',
    '.end',
    '',
  ];
  return {
    deck: lines.join('\n'),
    signals,
    outputFile,
    elementNames: Object.fromEntries(names.elements),
    nodeNames: Object.fromEntries(names.nodes),
  };
}

function recordedSignals(netlist: Netlist, ctx: WriteContext, blocks: ControlBlock[]): SpiceSignal[] {
  const byName = new Map<string, SpiceSignal>();
  const add = (name: string, vector: string | undefined, channel?: string) => {
    if (vector === undefined) return;
    let signal = byName.get(name);
    if (!signal) byName.set(name, (signal = { name, vector, channels: [] }));
    if (channel) signal.channels.push(channel);
  };
  const elements = new Map<string, NetlistElement>(netlist.elements.map((e) => [e.name, e]));
  const current = (element: string) => ctx.plans.get(element)?.current;
  const voltage = (a: string, b: string): [string, string] => {
    const label = b === '0' || b === 'gnd' ? voltageLabel(a) : `V(${a},${b})`;
    return [label, voltageBetween(ctx.names.node(a), ctx.names.node(b))];
  };
  for (const node of nodesInOrder(netlist.elements)) add(...voltage(node, '0'));
  for (const e of netlist.elements) if (RECORDED_CURRENT_TYPES.includes(e.type)) add(currentLabel(e.name), current(e.name));
  const producers = new Map<string, ControlBlock>();
  for (const block of blocks) for (const output of block.outputs ?? []) producers.set(output, block);
  for (const scope of blocks.filter((b) => b.type === 'SCOPE')) {
    // A mean-value channel is not the signal itself: no SPICE vector records it.
    for (const { key: channel, input: i } of scopeChannels(scope).filter((c) => !c.mean)) {
      const block = producers.get(scope.inputs![i]);
      if (block?.type === 'AMP' && typeof block.params?.element === 'string') {
        add(currentLabel(block.params.element), current(block.params.element), channel);
      } else if (block?.type === 'VOLT') {
        const nodes = block.params?.nodes;
        const element = typeof block.params?.element === 'string' ? elements.get(block.params.element) : undefined;
        const pair = Array.isArray(nodes) && nodes.length === 2 ? nodes.map(String) : element?.nodes.slice(0, 2);
        if (pair && pair.every((node) => ctx.names.nodes.has(node) || node === '0' || node === 'gnd')) {
          const [a, b] = pair.map((node) => (node === 'gnd' ? '0' : node));
          if (a !== '0' || b !== '0') add(...voltage(a, b), channel);
        }
      }
    }
  }
  return [...byName.values()];
}

/** The SPICE deck of a netlist (see buildSpiceDeck for the signals it records). */
export function writeSpice(netlist: Netlist, options: SpiceWriteOptions = {}): string {
  return buildSpiceDeck(netlist, options).deck;
}

/** The signals a deck written with these options records, in output column order. */
export function spiceSignals(netlist: Netlist, options: SpiceWriteOptions = {}): SpiceSignal[] {
  return buildSpiceDeck(netlist, options).signals;
}

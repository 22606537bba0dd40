// Control blocks (block `c`) → netlist control blocks. Inputs and outputs are the signal names of
// the control nodes at the block's terminals; an input without a driver reads 0 as in
// GeckoCIRCUITS (read.ts feeds it from one CONST 0 block). VOLT: node labels in
// parameterString[0..1] (→ node names), else the coupled component; AMP: the coupled component;
// GATE: the coupled switch (`params.target`); SCOPE: `channelNames` from `savedSignalNames[]`,
// mean-value signals `meanInputs`/`meanSpans` from `avgIndices[]`/`avgValues[]` (scopeBlock).
// HYS outputs +1/−1 from 0 (GeckoCIRCUITS `HysteresisCalculatorInternal`); SUB with more than two inputs
// is in1 − in2 − ... (→ ADD with signs). Parameters given by external terminals (HYS, LIMIT,
// SIGNAL) are resolved later (signals.ts) once all blocks are known. The reset inputs of INT and
// COUNTER become the blocks' second input when connected (unconnected, they read 0: no reset).
import type { BlockType, ControlBlock, ParamValue } from '../netlist.js';
import type { ComponentRecord } from './components.js';
import { BLOCK_KINDS, ELEMENT_KINDS, inputCount, type BlockKind } from './catalog.js';
import { issue, netParam, resolveParam, unsupported, type ReadContext } from './params.js';
import { inputLabelCount } from './geometry.js';
import { cispr16Block } from './cispr16.js';
import { transferFunctionBlock } from './transfer-function.js';

export interface ControlEnv {
  ctx: ReadContext;
  /** Signal at input terminal `i`, or undefined when no block drives it. */
  input(index: number, i: number): string | undefined;
  /** The signal of the shared zero source for an unconnected input of `component`. */
  zero(component: string, text: string): string;
  output(index: number, j: number): string;
  /** Node name of a power-circuit label. */
  nodeOfLabel(label: string): string | undefined;
  coupled(uid: number | undefined, name: string | undefined): { index: number; record: ComponentRecord } | undefined;
  /** Whether the named power-circuit component is part of the netlist. */
  isElement(name: string): boolean;
}

/** A parameter that GeckoCIRCUITS takes from an input terminal (`useExternal`). */
export interface ExternalInput {
  param: string;
  /** Driving signal; undefined = unconnected (reads 0). */
  signal: string | undefined;
}

export interface PendingBlock {
  index: number;
  record: ComponentRecord;
  block: ControlBlock;
  external: ExternalInput[];
}

export interface MappedBlock {
  block: ControlBlock;
  pending?: PendingBlock;
}

const SWITCH_TYPS = new Set([7, 8, 10, 28]);
const MIN_INPUTS: Partial<Record<string, number>> = { ADD: 1, SUB: 1, MUL: 2, AND: 2, OR: 2, MIN: 1, MAX: 1, EQ: 2 };

function simpleParams(ctx: ReadContext, c: ComponentRecord, kind: BlockKind): Record<string, ParamValue> {
  const params: Record<string, ParamValue> = {};
  for (const spec of kind.params) params[spec.net] = netParam(ctx, c, spec);
  return params;
}

function meter(env: ControlEnv, c: ComponentRecord, block: ControlBlock): ControlBlock | undefined {
  if (block.type === 'VOLT') {
    const [a, b] = [c.strings[0] ?? '', c.strings[1] ?? ''];
    if (a && b) {
      const nodes = [env.nodeOfLabel(a), env.nodeOfLabel(b)];
      if (nodes[0] && nodes[1]) return { ...block, params: { nodes: nodes as string[] } };
      issue(env.ctx, c, `measures between labels '${a}' and '${b}', but ${nodes[0] ? `'${b}'` : `'${a}'`} is not a node label of the power circuit`);
      return undefined;
    }
  }
  const partner = env.coupled(c.coupled[0], block.type === 'VOLT' ? c.strings[2] : c.strings[0]);
  if (!partner || !env.isElement(partner.record.name) || ELEMENT_KINDS[partner.record.typ]?.terminals === 'none') {
    issue(env.ctx, c, block.type === 'VOLT' ? 'measures nothing: no node labels and no coupled component' : 'measures no component of the circuit');
    return undefined;
  }
  return { ...block, params: { element: partner.record.name } };
}

function delayCheck(env: ControlEnv, c: ComponentRecord): void {
  const delay = resolveParam(env.ctx, c, { key: 'tDelay', slot: 0, def: 1e-5 }).value;
  const ratio = delay / env.ctx.dt;
  const gecko = Math.trunc(ratio);
  const engine = Math.max(1, Math.round(ratio));
  if (gecko !== engine) {
    env.ctx.warnings.push(gecko === 0
      ? `${c.name}: delay ${delay} s is shorter than dt; GeckoCIRCUITS passes the input through undelayed, the engine delays it by one step`
      : `${c.name}: GeckoCIRCUITS delays by trunc(tDelay/dt) = ${gecko} steps, the engine by ${engine} steps`);
  }
}

/**
 * The mean-value signals of a scope (`avgIndices[]`: 0-based inputs, `avgValues[]`: averaging
 * times; GeckoCIRCUITS `DefinedMeanSignals`) → `meanInputs` (1-based) and `meanSpans`, in the
 * file's order (the engine places each after its input; the order sets GeckoCIRCUITS' averaging
 * interval). GeckoCIRCUITS saves them by descending input, which puts each right after its input.
 */
function scopeMeans(ctx: ReadContext, c: ComponentRecord, inputs: number): { meanInputs: number[]; meanSpans: number[] } | undefined {
  const indices = c.tokens.numbers('avgIndices') ?? [];
  const spans = c.tokens.numbers('avgValues') ?? [];
  if (indices.length === 0) return undefined;
  const valid = indices.length === spans.length && new Set(indices).size === indices.length
    && indices.every((i) => Number.isInteger(i) && i >= 0 && i < inputs) && spans.every((t) => t > 0 && Number.isFinite(t));
  if (!valid) {
    ctx.warnings.push(`${c.name}: mean-value signals ignored (avgIndices ${indices.join(' ')}, avgValues ${spans.join(' ')}: expected distinct inputs 0 to ${inputs - 1} with positive averaging times)`);
    return undefined;
  }
  if (indices.some((i, k) => k > 0 && i > indices[k - 1])) {
    ctx.warnings.push(`${c.name}: mean-value signals not in GeckoCIRCUITS' saved order (descending inputs); each follows its input here, GeckoCIRCUITS would place them differently`);
  }
  return { meanInputs: indices.map((i) => i + 1), meanSpans: spans };
}

/**
 * SCOPE: its channels are GeckoCIRCUITS' scope rows (ReglerOSZI, DataContainerScopeWrapper): every
 * input (an unconnected one reads 0), each followed by its mean-value signal when it has one;
 * `channelNames` from `savedSignalNames[]`, the names of those rows; `geckoAxis: 1`: its
 * measurements end with the last sample GeckoCIRCUITS' scope shows.
 */
function scopeBlock(ctx: ReadContext, c: ComponentRecord, block: ControlBlock, inputs: number): ControlBlock {
  const means = scopeMeans(ctx, c, inputs);
  const channels = inputs + (means?.meanInputs.length ?? 0);
  const names = c.tokens.strings('savedSignalNames');
  return { ...block, params: { ...(names ? { channelNames: names.slice(0, channels) } : {}), ...means, geckoAxis: 1 } };
}

/** What a reader of one block type gets: the block with its signals, and where it came from. */
interface BlockReading {
  env: ControlEnv;
  index: number;
  c: ComponentRecord;
  kind: BlockKind;
  /** The block with its name, type, inputs (the base inputs) and outputs. */
  block: ControlBlock;
  /** Signal at each input terminal (undefined: unconnected). */
  signals: Array<string | undefined>;
  inputs: number;
  /** The block takes parameters from input terminals (`useExternal`). */
  external: boolean;
  /** The first `count` inputs, an unconnected one fed by the zero source. */
  used(count: number): string[];
}

type BlockReader = (r: BlockReading) => MappedBlock | undefined;

function readMeter(r: BlockReading): MappedBlock | undefined {
  const mapped = meter(r.env, r.c, r.block);
  return mapped ? { block: mapped } : undefined;
}

function readGate({ env, c, block }: BlockReading): MappedBlock | undefined {
  const partner = env.coupled(c.coupled[0], c.strings[0]);
  if (!partner || !env.isElement(partner.record.name)) {
    env.ctx.warnings.push(`${c.name}: gate block drives no switch of the circuit ('${c.strings[0] ?? ''}'); dropped`);
    return undefined;
  }
  if (!SWITCH_TYPS.has(partner.record.typ) || partner.record.block !== 'e') {
    issue(env.ctx, c, `drives ${partner.record.name}, which is not a switch (S, THYR, IGBT, MOSFET)`);
    return undefined;
  }
  return { block: { ...block, params: { target: partner.record.name } } };
}

/** GeckoCIRCUITS' hysteresis outputs ±1 and starts at 0 (HysteresisCalculatorInternal). */
export const GECKO_HYSTERESIS = { high: 1, low: -1, initial: 0 } as const;

function readHysteresis({ env: { ctx }, index, c, kind, block, signals, external }: BlockReading): MappedBlock | undefined {
  const h = resolveParam(ctx, c, kind.params[0]);
  const mapped: ControlBlock = { ...block, params: { h: h.binding ? `$${h.binding}` : h.value, ...GECKO_HYSTERESIS } };
  return external ? { block: mapped, pending: { index, record: c, block: mapped, external: [{ param: 'h', signal: signals[1] }] } } : { block: mapped };
}

function readLimit({ env: { ctx }, index, c, kind, block, signals, external }: BlockReading): MappedBlock {
  const mapped: ControlBlock = { ...block, params: simpleParams(ctx, c, kind) };
  if (!external) return { block: mapped };
  return { block: mapped, pending: { index, record: c, block: mapped, external: [
    { param: 'min', signal: signals[1] }, { param: 'max', signal: signals[2] }] } };
}

/** INT, COUNTER: the reset input is the second input when connected. */
function readWithReset({ env: { ctx }, c, kind, block, signals, used }: BlockReading): MappedBlock {
  const reset = signals[1] === undefined ? [] : [signals[1]];
  const params = simpleParams(ctx, c, kind);
  return { block: { ...block, inputs: [...used(1), ...reset], ...(Object.keys(params).length > 0 ? { params } : {}) } };
}

function readDelay({ env, c, kind, block }: BlockReading): MappedBlock {
  delayCheck(env, c);
  return { block: { ...block, params: simpleParams(env.ctx, c, kind) } };
}

function readTransferFunction({ env, c, block }: BlockReading): MappedBlock | undefined {
  const mapped = transferFunctionBlock(env.ctx, c, block);
  return mapped ? { block: mapped } : undefined;
}

/** The block types with more to read than their inputs and parameters. */
const READERS: Partial<Record<BlockType, BlockReader>> = {
  VOLT: readMeter,
  AMP: readMeter,
  GATE: readGate,
  SCOPE: ({ env, c, block, inputs }) => ({ block: scopeBlock(env.ctx, c, block, inputs) }),
  HYS: readHysteresis,
  LIMIT: readLimit,
  INT: readWithReset,
  COUNTER: readWithReset,
  CISPR16: ({ env, c, block }) => ({ block: cispr16Block(env.ctx, c, block) }),
  TF: readTransferFunction,
  DELAY: readDelay,
};

/** Any other block: its inputs (checked against the engine's counts) and its parameters. */
function readPlain({ env: { ctx }, c, kind, block, inputs }: BlockReading): MappedBlock | undefined {
  const min = MIN_INPUTS[kind.type];
  if (min !== undefined && inputs < min) {
    unsupported(ctx, c, `${kind.prefix} block with ${inputs} inputs (the engine's ${kind.type} takes ${min} or more)`);
    return undefined;
  }
  if (kind.type === 'SUB' && inputs !== 2) {
    return { block: { ...block, type: 'ADD', params: { signs: block.inputs!.map((_, i) => (i === 0 ? 1 : -1)) } } };
  }
  const params = simpleParams(ctx, c, kind);
  return { block: Object.keys(params).length > 0 ? { ...block, params } : block };
}

/** Maps one enabled control block of a known kind; undefined when dropped, unsupported or invalid. */
export function mapBlock(env: ControlEnv, index: number, c: ComponentRecord): MappedBlock | undefined {
  const kind = BLOCK_KINDS[c.typ];
  const { inputs, external } = inputCount(kind, inputLabelCount(c, kind));
  const signals = Array.from({ length: inputs }, (_, i) => env.input(index, i));
  const outputs = Array.from({ length: kind.outputs }, (_, j) => env.output(index, j));
  const base = kind.inputs === 'var' ? inputs : external ? kind.inputs : inputs;
  const used = (count: number): string[] => signals.slice(0, count).map((s, i) => s ?? env.zero(c.name, `${c.name} input ${i + 1}`));
  const block: ControlBlock = { name: c.name, type: kind.type };
  if (kind.inputs !== 0 && kind.type !== 'INT' && kind.type !== 'COUNTER') block.inputs = used(base);
  if (kind.outputs > 0) block.outputs = outputs;
  const read = READERS[kind.type] ?? readPlain;
  return read({ env, index, c, kind, block, signals, inputs, external, used });
}

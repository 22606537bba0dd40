// Control chains without an independent-source form (chains.ts), written as ngspice B-source
// expressions: each SIGNAL becomes a DC/SIN/PULSE source on a node of its own, the memoryless
// blocks become arithmetic on those nodes. Logic is made continuous so that ngspice's switch time
// step control finds the crossing instants exactly (a jump in a switch control is stepped over):
//   GT/GE(a, b) = clamp(0.5 + (a − b)/δ, 0, 1), LT/LE swapped, with δ = 1e-6: exact at the crossing,
//   a 1 µ-unit ramp. NOT, AND, OR, XOR act on logic values (1 − x, min, max, |x − y|); an input
//   that is not already a logic value (comparison or logic output) is first made one with
//   bool(x) = clamp(0.5 + (x − 0.5)/δ, 0, 1). Logic of logic is not ramped again: chained ramps
//   would multiply the slope and drive ngspice's step towards zero.
// Supported: CONST SIGNAL TIME GAIN ADD SUB MUL DIV MIN MAX LIMIT, the comparisons and logic above,
// and the functions of one input with a SPICE expression in the block catalog (catalog/blocks.ts:
// ABS SQRT SQR EXP LN SIN COS ATAN ASIN ACOS TAN, ...). Blocks with memory (PI, PT1, PT2, TF, INT,
// DELAY, HYS), measurements (VOLT, AMP: closed loops run one step late in pesim), EQ/NE/SIGN/ROUND
// and POW (ngspice's pow() raises |x|, unlike Math.pow for a negative base) throw a NetlistError
// naming the block.
import type { BlockType, ControlBlock } from '../netlist.js';
import { BLOCK_CATALOG } from '../catalog/blocks.js';
import { NetlistError } from '../errors.js';
import { formatNumber as n, type SpiceNames } from './naming.js';
import { shapeOf, sourceSpec } from './chains.js';

export const LOGIC_RAMP = 1e-6;

export interface ExpressionContext {
  names: SpiceNames;
  lines: string[];
  producers: Map<string, ControlBlock>;
  dt: number;
  /** SIGNAL nodes already written, by `<block>@<shift>`. */
  signalNodes: Map<string, string>;
}

const clamp01 = (x: string) => `max(0, min(1, ${x}))`;
const bool = (x: string) => clamp01(`0.5 + ((${x}) - 0.5) / ${n(LOGIC_RAMP)}`);
const greater = (a: string, b: string) => clamp01(`0.5 + ((${a}) - (${b})) / ${n(LOGIC_RAMP)}`);

// Blocks of one input written as a function of it: the block catalog's SPICE expressions.
const UNARY: Record<string, (x: string) => string> = Object.fromEntries(
  BLOCK_CATALOG.flatMap((entry) => (entry.spice?.expression ? [[entry.type, entry.spice.expression]] : [])),
);

function unsupported(block: ControlBlock, why: string): NetlistError {
  return new NetlistError('SPICE_UNSUPPORTED', `${block.name} (${block.type}): ${why}; the SPICE writer expresses only memoryless control chains (CONST, SIGNAL, arithmetic, comparisons, logic)`, [
    { field: block.name, component: block.name, message: why },
  ]);
}

function numberParam(block: ControlBlock, key: string, fallback?: number): number {
  const v = block.params?.[key];
  if (typeof v === 'number') return v;
  if (v === undefined && fallback !== undefined) return fallback;
  throw unsupported(block, `parameter ${key} must be a number`);
}

/**
 * A B-source expression for `signal`, delayed by `shift` seconds; writes the SIGNAL sources it
 * needs. `user` names the block or element that needs it (for errors).
 */
export function expressionOf(signal: string, ctx: ExpressionContext, user: string, shift: number): string {
  return build(signal, ctx, user, shift, 0).expr;
}

interface Built {
  expr: string;
  /** A logic value: in [0, 1], true above 0.5, continuous. */
  logic: boolean;
}

const plain = (expr: string): Built => ({ expr, logic: false });
const logic = (expr: string): Built => ({ expr, logic: true });
const asLogic = (b: Built) => (b.logic ? b.expr : bool(b.expr));

/** What the expression of one block type is written from: the block and its inputs' expressions. */
interface Writing {
  block: ControlBlock;
  signal: string;
  ctx: ExpressionContext;
  user: string;
  shift: number;
  /** The inputs' expressions, checking that there are `min` to `max` of them. */
  built(min: number, max?: number): Built[];
  inputs(min: number, max?: number): string[];
}

type ExpressionWriter = (w: Writing) => Built;

function signalSource({ block, signal, ctx, user, shift }: Writing): Built {
  const key = `${block.name}@${shift}`;
  let node = ctx.signalNodes.get(key);
  if (!node) {
    node = ctx.names.helperNode(`sig_${block.name}`);
    const spec = sourceSpec(shapeOf(signal, ctx.producers, user), ctx.dt, 1, 0, shift);
    ctx.lines.push(`${ctx.names.helper('V', `sig_${block.name}`)} ${node} 0 ${spec}`);
    ctx.signalNodes.set(key, node);
  }
  return plain(`v(${node})`);
}

function sum({ block, inputs }: Writing): Built {
  const terms = inputs(1);
  const signs = block.params?.signs;
  return plain(`(${terms.map((t, i) => `${Array.isArray(signs) && Number(signs[i]) < 0 ? '-' : '+'} (${t})`).join(' ')})`);
}

const binary = (w: Writing, f: (a: string, b: string) => string): string => {
  const [a, b] = w.inputs(2, 2);
  return f(a, b);
};

/** The block types with an expression of their own (the functions of one input: UNARY). */
const EXPRESSIONS: Partial<Record<BlockType, ExpressionWriter>> = {
  CONST: ({ block }) => plain(n(numberParam(block, 'value'))),
  TIME: ({ shift }) => plain(shift === 0 ? 'time' : `(time - ${n(shift)})`),
  SIGNAL: signalSource,
  GAIN: ({ block, inputs }) => plain(`${n(numberParam(block, 'k'))} * (${inputs(1, 1)[0]})`),
  ADD: sum,
  SUB: (w) => plain(binary(w, (a, b) => `((${a}) - (${b}))`)),
  MUL: ({ inputs }) => plain(`(${inputs(2).map((t) => `(${t})`).join(' * ')})`),
  DIV: (w) => plain(binary(w, (a, b) => `((${a}) / (${b}))`)),
  MIN: ({ block, inputs }) => plain(inputs(1).reduce((acc, t) => `${block.type.toLowerCase()}(${acc}, ${t})`)),
  MAX: ({ block, inputs }) => plain(inputs(1).reduce((acc, t) => `${block.type.toLowerCase()}(${acc}, ${t})`)),
  LIMIT: ({ block, inputs }) => {
    const [x] = inputs(1, 1);
    return plain(`max(${n(numberParam(block, 'min'))}, min(${n(numberParam(block, 'max'))}, ${x}))`);
  },
  GT: (w) => logic(binary(w, greater)),
  GE: (w) => logic(binary(w, greater)),
  LT: (w) => logic(binary(w, (a, b) => greater(b, a))),
  LE: (w) => logic(binary(w, (a, b) => greater(b, a))),
  NOT: ({ built }) => logic(`(1 - ${asLogic(built(1, 1)[0])})`),
  AND: ({ built }) => logic(built(1).map(asLogic).reduce((acc, t) => `min(${acc}, ${t})`)),
  OR: ({ built }) => logic(built(1).map(asLogic).reduce((acc, t) => `max(${acc}, ${t})`)),
  XOR: ({ built }) => {
    const [a, b] = built(2, 2).map(asLogic);
    return logic(`abs(${a} - ${b})`);
  },
  POW: ({ block }) => {
    throw unsupported(block, "ngspice's pow(x, y) raises |x| to the power y, so negative bases would differ from GeckoCIRCUITS' Math.pow");
  },
};

function build(signal: string, ctx: ExpressionContext, user: string, shift: number, depth: number): Built {
  const block = ctx.producers.get(signal);
  if (!block) {
    throw new NetlistError('UNKNOWN_REFERENCE', `${user}: no control block produces signal '${signal}'`, [
      { field: user, component: user, message: `no block produces ${signal}` },
    ]);
  }
  if (depth > 100) throw unsupported(block, 'the control chain is too deep (a loop?)');
  const built = (min: number, max = Infinity): Built[] => {
    const list = block.inputs ?? [];
    if (list.length < min || list.length > max) throw unsupported(block, `expected ${min === max ? min : `${min} or more`} inputs, got ${list.length}`);
    return list.map((s) => build(s, ctx, block.name, shift, depth + 1));
  };
  const inputs = (min: number, max = Infinity): string[] => built(min, max).map((b) => b.expr);
  const write = EXPRESSIONS[block.type];
  if (write) return write({ block, signal, ctx, user, shift, built, inputs });
  const unary = UNARY[block.type];
  if (unary) return plain(unary(inputs(1, 1)[0]));
  throw unsupported(block, `a ${block.type} block cannot be written as a SPICE expression`);
}

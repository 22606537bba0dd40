// The cards of behavioural sources: `Bname n+ n- V=expr` / `I=expr` (expression braced, quoted or
// written plainly to the end of the card) and the `VALUE=` / `TABLE` forms of E and G. Each becomes
// a V (B V=, E) or I (B I=, G) source driven by the blocks of behavioural.ts; a constant expression
// becomes a DC source. An expression that is a constant times one probe (`2*v(a,b)`, `-i(V1)/4`)
// becomes the exact linear controlled source instead (E, G, H or F: no step of delay). Other B
// options (LTspice's Rpar, ic, tripdv, ...) are errors.
import type { NetlistElement, ParamValue } from '../netlist.js';
import { type Token, isIdentifier, lineError } from './lexer.js';
import type { CardCursor } from './cursor.js';
import { type BehaviouralChain, type ChainContext, behaviouralChain, isConstant, tableChain } from './behavioural.js';
import type { Expr } from './expression-parser.js';
import { evaluateTree } from './expressions.js';
import { scopedElement, scopedNode } from './scope.js';

export interface BehaviouralSource {
  element: NetlistElement;
  chain: BehaviouralChain;
  /** For an F or H element: the element whose current controls it (scoped name as written). */
  control?: { text: string; line: number };
}

type Probe = Extract<Expr, { kind: 'probe' }>;

/** `gain · probe` when the expression is a constant times one probe, else undefined. */
function linearForm(e: Expr, constant: (e: Expr) => number): { probe: Probe; gain: number } | undefined {
  if (e.kind === 'probe') return { probe: e, gain: 1 };
  if (e.kind === 'unary' && e.op === '-') {
    const inner = linearForm(e.arg, constant);
    return inner && { probe: inner.probe, gain: -inner.gain };
  }
  if (e.kind !== 'binary' || (e.op !== '*' && e.op !== '/')) return undefined;
  if (isConstant(e.right)) {
    const inner = linearForm(e.left, constant);
    const k = constant(e.right);
    return inner && { probe: inner.probe, gain: e.op === '*' ? inner.gain * k : inner.gain / k };
  }
  if (e.op === '*' && isConstant(e.left)) {
    const inner = linearForm(e.right, constant);
    return inner && { probe: inner.probe, gain: inner.gain * constant(e.left) };
  }
  return undefined;
}

/** A V (or I) source of value `text`: linear controlled source or block chain. */
function expressionSource(name: string, type: 'V' | 'I', nodes: string[], text: string, ctx: ChainContext): BehaviouralSource {
  const constant = (e: Expr) => evaluateTree(e, (n) => ctx.params.get(n), text, ctx.origin);
  const linear = linearForm(ctx.params.parse(text, ctx.origin), constant);
  const empty: BehaviouralChain = { blocks: [], probes: [], output: 0 };
  if (linear && Number.isFinite(linear.gain) && linear.probe.probe === 'v' && linear.probe.args.length <= 2) {
    const [a, b = '0'] = linear.probe.args;
    const control = [ctx.node(a), ctx.node(b)];
    const element: NetlistElement = type === 'V'
      ? { name, type: 'E', nodes: [...nodes, ...control], params: { gain: linear.gain } }
      : { name, type: 'G', nodes: [...nodes, ...control], params: { gm: linear.gain } };
    return { element, chain: empty };
  }
  if (linear && Number.isFinite(linear.gain) && linear.probe.probe === 'i' && linear.probe.args.length === 1) {
    const element: NetlistElement = type === 'V'
      ? { name, type: 'H', nodes, params: { r: linear.gain } }
      : { name, type: 'F', nodes, params: { gain: linear.gain } };
    return { element, chain: empty, control: { text: ctx.element(linear.probe.args[0]), line: ctx.origin.line } };
  }
  return source(name, type, nodes, behaviouralChain(text, ctx));
}

/** The remaining tokens of the card as expression text (commas and operators kept). */
function restAsExpression(cursor: CardCursor, what: string): { text: string; line: number } {
  const first = cursor.peek();
  if (!first) throw cursor.error(`missing expression of ${what}`);
  if (first.kind === 'expr') {
    cursor.next();
    return { text: first.text, line: first.line };
  }
  const raw = cursor.card.tokens;
  const start = raw.indexOf(first);
  for (let i = start; i + 1 < raw.length; i++) {
    const [t, eq, after] = [raw[i], raw[i + 1], raw[i + 2]];
    if (t.kind === 'word' && isIdentifier(t.text) && eq.text === '=' && after?.text !== '=') {
      throw lineError('SPICE_UNSUPPORTED', t.line, `${what}: option '${t.text}=' is not supported`, cursor.ctx.fileName, what);
    }
  }
  const text = raw.slice(start).map((t: Token) => (t.kind === 'expr' ? `(${t.text})` : t.text)).join('');
  while (!cursor.atEnd()) cursor.next();
  return { text, line: first.line };
}

function chainContext(cursor: CardCursor, owner: string, line: number): ChainContext {
  const scope = cursor.card.scope;
  return {
    owner, params: cursor.ctx.params, origin: { line, fileName: cursor.ctx.fileName },
    node: (text) => scopedNode(text, scope), element: (text) => scopedElement(text, scope),
  };
}

function source(name: string, type: 'V' | 'I', nodes: string[], chain: BehaviouralChain): BehaviouralSource {
  const params: Record<string, ParamValue> = typeof chain.output === 'number' ? { waveform: 'dc', value: chain.output } : { waveform: 'signal', signal: chain.output };
  return { element: { name, type, nodes, params }, chain };
}

/** `Bname n+ n- V=expr` or `I=expr` (nodes already read). */
export function readBSource(cursor: CardCursor, name: string, nodes: string[]): BehaviouralSource {
  const key = cursor.peek();
  if (!key || !['v', 'i'].includes(key.lower) || !cursor.isPunct('=', 1)) {
    throw cursor.error(`${name}: expected V=expression or I=expression`, 'SPICE_SYNTAX', name);
  }
  cursor.next();
  cursor.next();
  const { text, line } = restAsExpression(cursor, name);
  const type = key.lower === 'v' ? 'V' : 'I';
  return expressionSource(name, type, nodes, text, chainContext(cursor, name, line));
}

/** `E/G n+ n- VALUE={expr}` or `TABLE {expr} = (x,y) ...` (nodes read, the keyword next). */
export function readValueSource(cursor: CardCursor, name: string, letter: 'e' | 'g', nodes: string[]): BehaviouralSource {
  const keyword = cursor.next()!;
  const type = letter === 'e' ? 'V' : 'I';
  if (cursor.isPunct('=')) cursor.next();
  if (keyword.lower === 'value') {
    const { text, line } = restAsExpression(cursor, name);
    return expressionSource(name, type, nodes, text, chainContext(cursor, name, line));
  }
  const input = cursor.next();
  if (!input || input.kind === 'punct') throw cursor.error(`${name}: TABLE needs an expression`, 'SPICE_SYNTAX', name);
  if (cursor.isPunct('=')) cursor.next();
  const numbers: number[] = [];
  while (!cursor.atEnd()) {
    const t = cursor.next()!;
    if (t.kind === 'punct' && (t.text === '(' || t.text === ')')) continue;
    numbers.push(cursor.valueOf(t, `${name} TABLE value`).value);
  }
  if (numbers.length % 2 !== 0) throw lineError('SPICE_SYNTAX', keyword.line, `${name}: TABLE needs (x, y) pairs, got ${numbers.length} numbers`, cursor.ctx.fileName, name);
  const xs = numbers.filter((_, i) => i % 2 === 0);
  const ys = numbers.filter((_, i) => i % 2 === 1);
  return source(name, type, nodes, tableChain(input.text, xs, ys, chainContext(cursor, name, keyword.line)));
}

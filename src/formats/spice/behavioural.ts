// Behavioural sources: `B n+ n- V={expr}` / `I={expr}`, `E n+ n- VALUE={expr}`, `G n+ n- VALUE={expr}`
// and the TABLE forms `E/G n+ n- TABLE {expr} = (x1,y1) (x2,y2) ...` become a chain of control
// blocks that computes the expression once per step (VOLT blocks for `v(a)`/`v(a,b)`, AMP blocks for
// `i(element)`, TIME for `time`, arithmetic, comparison and logic blocks for the operators) feeding a
// V or I source with waveform `signal`; as every control signal, the value is applied to the circuit
// at the next step. Sub-expressions without circuit quantities are folded into constants (CONST).
// Truth values: comparisons and logic give 1 or 0; any other value used as a condition is compared
// with 0 first (SPICE: non-zero is true). A TABLE is linear between its points and holds the end
// values: y = y1 + Σ slope_k·(limit(x, x_k, x_k+1) − x_k), with LIMIT, GAIN, CONST and ADD blocks.
// Functions read into blocks: the SPICE forms of the block catalog (catalog/blocks.ts) and min, max,
// pow, if, u, uramp, limit; the others are errors naming the card's line.
import type { BlockType, ControlBlock, ParamValue } from '../netlist.js';
import { BLOCK_CATALOG } from '../catalog/blocks.js';
import { lineError } from './lexer.js';
import type { Expr, Origin } from './expression-parser.js';
import { evaluateTree, functionFor } from './expressions.js';
import type { ParameterTable } from './expressions.js';

/** `i(name)` inside an expression: the AMP block whose `element` read.ts resolves and checks. */
export interface CurrentProbe {
  block: ControlBlock;
  text: string;
  line: number;
}

export interface BehaviouralChain {
  blocks: ControlBlock[];
  probes: CurrentProbe[];
  /** The signal carrying the value, or a constant when the expression has no circuit quantity. */
  output: string | number;
}

export interface ChainContext {
  owner: string;
  origin: Origin;
  params: ParameterTable;
  node: (text: string) => string;
  element: (text: string) => string;
}

// Functions and operators with a block form, from the block catalog's SPICE forms.
const UNARY_BLOCKS: Record<string, BlockType> = Object.fromEntries(
  BLOCK_CATALOG.flatMap((entry) => (entry.spice?.functions ?? []).map((name) => [name, entry.type])),
);
const OPERATOR_BLOCKS: Record<string, BlockType> = Object.fromEntries(
  BLOCK_CATALOG.flatMap((entry) => (entry.spice?.operator ? [[entry.spice.operator, entry.type]] : [])),
);
const BOOLEAN_OPS = new Set(['<', '<=', '>', '>=', '==', '!=', '&&', '||']);

export function isConstant(e: Expr): boolean {
  switch (e.kind) {
    case 'num': return true;
    case 'name': return e.name !== 'time';
    case 'probe': return false;
    case 'call': return e.args.every(isConstant);
    case 'unary': return isConstant(e.arg);
    case 'binary': return isConstant(e.left) && isConstant(e.right);
    case 'ternary': return isConstant(e.cond) && isConstant(e.then) && isConstant(e.else);
  }
}

class ChainBuilder {
  readonly blocks: ControlBlock[] = [];
  readonly probes: CurrentProbe[] = [];
  private count = 0;

  constructor(private readonly ctx: ChainContext, private readonly text: string) {}

  fail(message: string): never {
    throw lineError('SPICE_UNSUPPORTED', this.ctx.origin.line, `${this.ctx.owner}: ${message} in '${this.text}'`, this.ctx.origin.fileName, this.ctx.owner);
  }

  block(type: BlockType, inputs: string[], params?: Record<string, ParamValue>): string {
    const n = ++this.count;
    const output = `${this.ctx.owner}.s${n}`;
    this.blocks.push({ name: `${this.ctx.owner}.b${n}`, type, ...(inputs.length ? { inputs } : {}), outputs: [output], ...(params ? { params } : {}) });
    return output;
  }

  constant(value: number): string {
    return this.block('CONST', [], { value });
  }

  evaluate(e: Expr): number {
    return evaluateTree(e, (n) => this.ctx.params.get(n), this.text, this.ctx.origin);
  }

  /** A 0/1 signal: true where the value is non-zero. */
  truth(e: Expr): string {
    const signal = this.compile(e);
    const boolean = (e.kind === 'binary' && BOOLEAN_OPS.has(e.op)) || (e.kind === 'unary' && e.op === '!');
    return boolean ? signal : this.block('NE', [signal, this.constant(0)]);
  }

  select(cond: Expr, then: Expr, otherwise: Expr): string {
    const c = this.truth(cond);
    const notC = this.block('NOT', [c]);
    return this.block('ADD', [this.block('MUL', [c, this.compile(then)]), this.block('MUL', [notC, this.compile(otherwise)])]);
  }

  power(base: Expr, exponent: Expr): string {
    if (isConstant(exponent)) {
      const k = this.evaluate(exponent);
      if (k === 2) return this.block('SQR', [this.compile(base)]);
      if (k === 0.5) return this.block('SQRT', [this.compile(base)]);
      if (k === 1) return this.compile(base);
      return this.block('EXP', [this.block('GAIN', [this.block('LN', [this.compile(base)])], { k })]);
    }
    return this.block('EXP', [this.block('MUL', [this.block('LN', [this.compile(base)]), this.compile(exponent)])]);
  }

  compile(e: Expr): string {
    if (isConstant(e)) return this.constant(this.evaluate(e));
    switch (e.kind) {
      case 'name': return this.block('TIME', []);
      case 'probe': return this.probe(e.probe, e.args);
      case 'unary': return e.op === '-' ? this.block('GAIN', [this.compile(e.arg)], { k: -1 }) : this.block('NOT', [this.truth(e.arg)]);
      case 'ternary': return this.select(e.cond, e.then, e.else);
      case 'binary': return this.binary(e.op, e.left, e.right);
      case 'call': return this.call(e.name, e.args);
      default: return this.fail('unexpected expression');
    }
  }

  probe(kind: 'v' | 'i', args: string[]): string {
    if (kind === 'v') {
      if (args.length > 2) this.fail('v() takes one or two nodes');
      return this.block('VOLT', [], { nodes: [this.ctx.node(args[0]), args[1] === undefined ? '0' : this.ctx.node(args[1])] });
    }
    if (args.length !== 1) this.fail('i() takes one element name');
    const signal = this.block('AMP', [], { element: this.ctx.element(args[0]) });
    this.probes.push({ block: this.blocks[this.blocks.length - 1], text: args[0], line: this.ctx.origin.line });
    return signal;
  }

  binary(op: string, left: Expr, right: Expr): string {
    if (op === '^') return this.power(left, right);
    if (op === '&&' || op === '||') return this.block(op === '&&' ? 'AND' : 'OR', [this.truth(left), this.truth(right)]);
    const type: BlockType | undefined = OPERATOR_BLOCKS[op];
    if (!type) return this.fail(`operator '${op}' has no control-block form`);
    return this.block(type, [this.compile(left), this.compile(right)]);
  }

  call(name: string, args: Expr[]): string {
    functionFor(name, args.length, this.text, this.ctx.origin);
    if (UNARY_BLOCKS[name]) return this.block(UNARY_BLOCKS[name], [this.compile(args[0])]);
    switch (name) {
      case 'min': case 'max': return this.block(name === 'min' ? 'MIN' : 'MAX', args.map((a) => this.compile(a)));
      case 'pow': return this.power(args[0], args[1]);
      case 'if': return this.select(args[0], args[1], args[2]);
      case 'u': return this.block('GT', [this.compile(args[0]), this.constant(0)]);
      case 'uramp': return this.block('MAX', [this.compile(args[0]), this.constant(0)]);
      case 'limit': {
        if (isConstant(args[1]) && isConstant(args[2])) {
          const [a, b] = [this.evaluate(args[1]), this.evaluate(args[2])];
          return this.block('LIMIT', [this.compile(args[0])], { min: Math.min(a, b), max: Math.max(a, b) });
        }
        const [lo, hi] = [this.compile(args[1]), this.compile(args[2])];
        return this.block('MAX', [this.block('MIN', [this.compile(args[0]), this.block('MAX', [lo, hi])]), this.block('MIN', [lo, hi])]);
      }
      default: return this.fail(`function ${name}() has no control-block form`);
    }
  }

  /** Piecewise-linear lookup of `input` in the table (x increasing), holding the end values. */
  table(input: string, xs: number[], ys: number[]): string {
    const terms: string[] = [];
    let offset = ys[0];
    for (let k = 0; k + 1 < xs.length; k++) {
      const slope = (ys[k + 1] - ys[k]) / (xs[k + 1] - xs[k]);
      if (slope === 0) continue;
      offset -= slope * xs[k];
      terms.push(this.block('GAIN', [this.block('LIMIT', [input], { min: xs[k], max: xs[k + 1] })], { k: slope }));
    }
    return this.block('ADD', [this.constant(offset), ...terms]);
  }
}

/** The blocks computing an expression (`text` as written, without its braces). */
export function behaviouralChain(text: string, ctx: ChainContext): BehaviouralChain {
  const tree = ctx.params.parse(text, ctx.origin);
  const builder = new ChainBuilder(ctx, text);
  if (isConstant(tree)) return { blocks: [], probes: [], output: builder.evaluate(tree) };
  const output = builder.compile(tree);
  return { blocks: builder.blocks, probes: builder.probes, output };
}

/** The blocks of `TABLE {expr} = (x1,y1) ...`: the expression, then the lookup. */
export function tableChain(text: string, xs: number[], ys: number[], ctx: ChainContext): BehaviouralChain {
  if (xs.length < 2) throw lineError('SPICE_SYNTAX', ctx.origin.line, `${ctx.owner}: TABLE needs at least two (x, y) pairs`, ctx.origin.fileName, ctx.owner);
  for (let k = 1; k < xs.length; k++) {
    if (!(xs[k] > xs[k - 1])) throw lineError('SPICE_SYNTAX', ctx.origin.line, `${ctx.owner}: TABLE x values must increase (${xs[k]} after ${xs[k - 1]})`, ctx.origin.fileName, ctx.owner);
  }
  const tree = ctx.params.parse(text, ctx.origin);
  const builder = new ChainBuilder(ctx, text);
  const input = builder.compile(tree);
  const output = builder.table(input, xs, ys);
  return { blocks: builder.blocks, probes: builder.probes, output };
}

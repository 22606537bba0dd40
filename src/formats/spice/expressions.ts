// SPICE parameter expressions (`.param`, `{...}` and `'...'` values): + − * / ^ (also **),
// parentheses, unary minus/plus, numbers with SI suffixes, parameter names (case-insensitive), the
// constant pi and the functions sqrt abs exp ln log (natural, as in ngspice) log10 sin cos tan asin
// acos atan sinh cosh tanh min max pow. `.param` definitions may refer to each other in any order;
// cycles and undefined names are errors naming the line.
import { lineError, parseSpiceNumber } from './lexer.js';

/** Where an expression comes from, for error messages. */
export interface Origin {
  line: number;
  fileName?: string;
}

type Lookup = (name: string) => number | undefined;

const FUNCTIONS: Record<string, { arity: number; fn: (...args: number[]) => number }> = {
  sqrt: { arity: 1, fn: Math.sqrt },
  abs: { arity: 1, fn: Math.abs },
  exp: { arity: 1, fn: Math.exp },
  ln: { arity: 1, fn: Math.log },
  log: { arity: 1, fn: Math.log },
  log10: { arity: 1, fn: Math.log10 },
  sin: { arity: 1, fn: Math.sin },
  cos: { arity: 1, fn: Math.cos },
  tan: { arity: 1, fn: Math.tan },
  asin: { arity: 1, fn: Math.asin },
  acos: { arity: 1, fn: Math.acos },
  atan: { arity: 1, fn: Math.atan },
  sinh: { arity: 1, fn: Math.sinh },
  cosh: { arity: 1, fn: Math.cosh },
  tanh: { arity: 1, fn: Math.tanh },
  min: { arity: 2, fn: Math.min },
  max: { arity: 2, fn: Math.max },
  pow: { arity: 2, fn: Math.pow },
};

const CONSTANTS: Record<string, number> = { pi: Math.PI };

type ExprToken = { kind: 'num'; value: number } | { kind: 'id'; name: string } | { kind: 'op'; op: string };

function tokenize(text: string, origin: Origin): ExprToken[] {
  const tokens: ExprToken[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (/\s/.test(ch)) { i++; continue; }
    if (/[0-9.]/.test(ch)) {
      const match = /^(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?[a-zµ]*/i.exec(text.slice(i));
      const value = match ? parseSpiceNumber(match[0]) : undefined;
      if (!match || value === undefined) {
        throw lineError('SPICE_SYNTAX', origin.line, `bad number in expression '${text}'`, origin.fileName);
      }
      tokens.push({ kind: 'num', value });
      i += match[0].length;
      continue;
    }
    if (/[a-z_]/i.test(ch)) {
      const match = /^[a-z_][a-z0-9_]*/i.exec(text.slice(i))!;
      tokens.push({ kind: 'id', name: match[0].toLowerCase() });
      i += match[0].length;
      continue;
    }
    if (text.startsWith('**', i)) { tokens.push({ kind: 'op', op: '^' }); i += 2; continue; }
    if ('+-*/^(),'.includes(ch)) { tokens.push({ kind: 'op', op: ch }); i++; continue; }
    throw lineError('SPICE_SYNTAX', origin.line, `unexpected '${ch}' in expression '${text}'`, origin.fileName);
  }
  return tokens;
}

/** Evaluates an expression; `lookup` gives parameter values by lower-case name. */
export function evaluateExpression(text: string, lookup: Lookup, origin: Origin): number {
  const tokens = tokenize(text, origin);
  let pos = 0;
  const fail = (message: string): never => {
    throw lineError('SPICE_SYNTAX', origin.line, `${message} in expression '${text}'`, origin.fileName);
  };
  const isOp = (op: string) => {
    const t = tokens[pos];
    return t !== undefined && t.kind === 'op' && t.op === op;
  };
  const expect = (op: string) => {
    if (!isOp(op)) fail(`expected '${op}'`);
    pos++;
  };

  const additive = (): number => {
    let value = multiplicative();
    while (isOp('+') || isOp('-')) {
      const op = (tokens[pos++] as { op: string }).op;
      const right = multiplicative();
      value = op === '+' ? value + right : value - right;
    }
    return value;
  };
  const multiplicative = (): number => {
    let value = unary();
    while (isOp('*') || isOp('/')) {
      const op = (tokens[pos++] as { op: string }).op;
      const right = unary();
      value = op === '*' ? value * right : value / right;
    }
    return value;
  };
  const unary = (): number => {
    if (isOp('-')) { pos++; return -unary(); }
    if (isOp('+')) { pos++; return unary(); }
    return power();
  };
  const power = (): number => {
    const base = primary();
    if (isOp('^')) {
      pos++;
      return Math.pow(base, unary());
    }
    return base;
  };
  const primary = (): number => {
    const t = tokens[pos];
    if (t === undefined) return fail('unexpected end');
    if (t.kind === 'num') { pos++; return t.value; }
    if (t.kind === 'op') {
      if (t.op !== '(') return fail(`unexpected '${t.op}'`);
      pos++;
      const value = additive();
      expect(')');
      return value;
    }
    pos++;
    if (isOp('(')) {
      const fn = FUNCTIONS[t.name];
      if (!fn) return fail(`unknown function '${t.name}'`);
      pos++;
      const args = [additive()];
      while (isOp(',')) { pos++; args.push(additive()); }
      expect(')');
      if (args.length !== fn.arity) fail(`${t.name}() takes ${fn.arity} argument${fn.arity > 1 ? 's' : ''}`);
      return fn.fn(...args);
    }
    const value = lookup(t.name) ?? CONSTANTS[t.name];
    if (value === undefined) {
      throw lineError('UNKNOWN_PARAMETER', origin.line, `undefined parameter '${t.name}' in expression '${text}'`, origin.fileName);
    }
    return value;
  };

  if (tokens.length === 0) fail('empty expression');
  const value = additive();
  if (pos < tokens.length) fail('unexpected text after the expression');
  if (!Number.isFinite(value)) {
    throw lineError('SPICE_SYNTAX', origin.line, `expression '${text}' does not evaluate to a finite number`, origin.fileName);
  }
  return value;
}

interface Definition {
  expression: string;
  origin: Origin;
}

/**
 * The `.param` table. Definitions are collected first and evaluated on demand, so a parameter may
 * refer to one defined later in the deck; a later definition of the same name replaces an earlier one.
 */
export class ParameterTable {
  private readonly definitions = new Map<string, Definition>();
  private readonly values = new Map<string, number>();
  private readonly evaluating = new Set<string>();

  /** `parent`: the table of the enclosing scope (a subcircuit instance sees the deck's parameters). */
  constructor(private readonly parent?: ParameterTable) {}

  define(name: string, expression: string, origin: Origin): void {
    this.definitions.set(name.toLowerCase(), { expression, origin });
    this.values.clear();
  }

  has(name: string): boolean {
    return this.definitions.has(name.toLowerCase()) || (this.parent?.has(name) ?? false);
  }

  /** True when the name is defined by the deck's own `.param` (not shadowed by a subcircuit's). */
  isDeckParameter(name: string): boolean {
    if (this.definitions.has(name.toLowerCase())) return this.parent === undefined;
    return this.parent?.isDeckParameter(name) ?? false;
  }

  /** The value of a parameter (lower-case name), or undefined when it is not defined. */
  get(name: string): number | undefined {
    const key = name.toLowerCase();
    const cached = this.values.get(key);
    if (cached !== undefined) return cached;
    const definition = this.definitions.get(key);
    if (!definition) return this.parent?.get(key);
    if (this.evaluating.has(key)) {
      throw lineError('SPICE_SYNTAX', definition.origin.line, `parameter '${key}' is defined in terms of itself`, definition.origin.fileName);
    }
    this.evaluating.add(key);
    try {
      const value = evaluateExpression(definition.expression, (n) => this.get(n), definition.origin);
      this.values.set(key, value);
      return value;
    } finally {
      this.evaluating.delete(key);
    }
  }

  /** Evaluates an expression against this table. */
  evaluate(expression: string, origin: Origin): number {
    return evaluateExpression(expression, (n) => this.get(n), origin);
  }

  /** Every parameter with its value, in definition order (evaluates all; errors name their line). */
  all(): Record<string, number> {
    const result: Record<string, number> = {};
    for (const name of this.definitions.keys()) result[name] = this.get(name)!;
    return result;
  }
}

// SPICE parameter expressions (`.param`, `{...}` and `'...'` values), parsed by expression-parser.ts
// and evaluated to numbers: + − * / ^ (also **), comparisons (< <= > >= == !=, 1 or 0), && || !,
// `c ? a : b`, numbers with SI suffixes, parameter names (case-insensitive), the constant pi and the
// functions in FUNCTIONS (sqrt abs exp ln log — natural, as in ngspice — log10, trigonometric and
// hyperbolic, min max with two or more arguments, pow pwr pwrs, if, limit, floor ceil int round sgn,
// u (step), uramp, atan2, hypot). `.param` definitions may refer to each other in any order; cycles
// and undefined names are errors naming the line.
import { lineError } from './lexer.js';
import { type Expr, type Origin, parseExpression } from './expression-parser.js';
import { type UserFunction, inlineFunctions } from './functions.js';

export type { Origin } from './expression-parser.js';

type Lookup = (name: string) => number | undefined;

interface SpiceFunction { min: number; max: number; fn: (...args: number[]) => number }

const one = (fn: (x: number) => number): SpiceFunction => ({ min: 1, max: 1, fn });
const two = (fn: (x: number, y: number) => number): SpiceFunction => ({ min: 2, max: 2, fn });

export const FUNCTIONS: Record<string, SpiceFunction> = {
  sqrt: one(Math.sqrt), abs: one(Math.abs), exp: one(Math.exp), ln: one(Math.log), log: one(Math.log), log10: one(Math.log10),
  sin: one(Math.sin), cos: one(Math.cos), tan: one(Math.tan), asin: one(Math.asin), acos: one(Math.acos), atan: one(Math.atan),
  sinh: one(Math.sinh), cosh: one(Math.cosh), tanh: one(Math.tanh),
  floor: one(Math.floor), ceil: one(Math.ceil), int: one(Math.trunc), round: one(Math.round), sgn: one(Math.sign), sign: one(Math.sign),
  u: one((x) => (x > 0 ? 1 : 0)), uramp: one((x) => (x > 0 ? x : 0)),
  min: { min: 2, max: Infinity, fn: Math.min }, max: { min: 2, max: Infinity, fn: Math.max },
  pow: two(Math.pow), pwr: two((x, y) => Math.pow(Math.abs(x), y)), pwrs: two((x, y) => Math.sign(x) * Math.pow(Math.abs(x), y)),
  atan2: two(Math.atan2), hypot: two(Math.hypot),
  if: { min: 3, max: 3, fn: (c, a, b) => (c !== 0 ? a : b) },
  limit: { min: 3, max: 3, fn: (x, lo, hi) => Math.min(Math.max(x, Math.min(lo, hi)), Math.max(lo, hi)) },
};

export const CONSTANTS: Record<string, number> = { pi: Math.PI };

const BINARY: Record<string, (a: number, b: number) => number> = {
  '+': (a, b) => a + b, '-': (a, b) => a - b, '*': (a, b) => a * b, '/': (a, b) => a / b, '^': Math.pow,
  '<': (a, b) => Number(a < b), '<=': (a, b) => Number(a <= b), '>': (a, b) => Number(a > b), '>=': (a, b) => Number(a >= b),
  '==': (a, b) => Number(a === b), '!=': (a, b) => Number(a !== b),
  '&&': (a, b) => Number(a !== 0 && b !== 0), '||': (a, b) => Number(a !== 0 || b !== 0),
};

/** Checks a call's argument count; returns the function. */
export function functionFor(name: string, count: number, text: string, origin: Origin): SpiceFunction {
  const fn = FUNCTIONS[name];
  const fail = (message: string): never => { throw lineError('SPICE_SYNTAX', origin.line, `${message} in expression '${text}'`, origin.fileName); };
  if (!fn) return fail(`unknown function '${name}'`);
  if (count < fn.min || count > fn.max) {
    const expected = fn.min === fn.max ? `${fn.min}` : fn.max === Infinity ? `at least ${fn.min}` : `${fn.min} to ${fn.max}`;
    fail(`${name}() takes ${expected} argument${fn.max > 1 ? 's' : ''}`);
  }
  return fn;
}

/** Evaluates a parsed expression; `lookup` gives parameter values by lower-case name. */
export function evaluateTree(tree: Expr, lookup: Lookup, text: string, origin: Origin): number {
  const walk = (e: Expr): number => {
    switch (e.kind) {
      case 'num': return e.value;
      case 'name': {
        const value = lookup(e.name) ?? CONSTANTS[e.name];
        if (value === undefined) throw lineError('UNKNOWN_PARAMETER', origin.line, `undefined parameter '${e.name}' in expression '${text}'`, origin.fileName);
        return value;
      }
      case 'probe': throw lineError('SPICE_SYNTAX', origin.line, `${e.probe}(${e.args.join(',')}) is a circuit quantity, not allowed in a parameter expression '${text}'`, origin.fileName);
      case 'call': {
        const fn = functionFor(e.name, e.args.length, text, origin);
        if (e.name === 'if') return walk(e.args[0]) !== 0 ? walk(e.args[1]) : walk(e.args[2]);
        return fn.fn(...e.args.map(walk));
      }
      case 'unary': return e.op === '-' ? -walk(e.arg) : Number(walk(e.arg) === 0);
      case 'binary': return BINARY[e.op](walk(e.left), walk(e.right));
      case 'ternary': return walk(e.cond) !== 0 ? walk(e.then) : walk(e.else);
    }
  };
  const value = walk(tree);
  if (!Number.isFinite(value)) {
    throw lineError('SPICE_SYNTAX', origin.line, `expression '${text}' does not evaluate to a finite number`, origin.fileName);
  }
  return value;
}

/** Evaluates an expression; `lookup` gives parameter values by lower-case name. */
export function evaluateExpression(text: string, lookup: Lookup, origin: Origin): number {
  return evaluateTree(parseExpression(text, origin), lookup, text, origin);
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
  private readonly functions = new Map<string, UserFunction>();

  /** `parent`: the table of the enclosing scope (a subcircuit instance sees the deck's parameters). */
  constructor(private readonly parent?: ParameterTable) {}

  define(name: string, expression: string, origin: Origin): void {
    this.definitions.set(name.toLowerCase(), { expression, origin });
    this.values.clear();
  }

  /** Defines a `.func` user function (deck-wide). */
  defineFunction(name: string, fn: UserFunction): void {
    this.functions.set(name, fn);
    this.values.clear();
  }

  functionNamed(name: string): UserFunction | undefined {
    return this.functions.get(name) ?? this.parent?.functionNamed(name);
  }

  /** Parses an expression with the calls of user functions inlined. */
  parse(text: string, origin: Origin): Expr {
    return inlineFunctions(parseExpression(text, origin), (n) => this.functionNamed(n));
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
      const { expression, origin } = definition;
      const value = evaluateTree(this.parse(expression, origin), (n) => this.get(n), expression, origin);
      this.values.set(key, value);
      return value;
    } finally {
      this.evaluating.delete(key);
    }
  }

  /** Evaluates an expression against this table. */
  evaluate(expression: string, origin: Origin): number {
    return evaluateTree(this.parse(expression, origin), (n) => this.get(n), expression, origin);
  }

  /** Every parameter with its value, in definition order (evaluates all; errors name their line). */
  all(): Record<string, number> {
    const result: Record<string, number> = {};
    for (const name of this.definitions.keys()) result[name] = this.get(name)!;
    return result;
  }
}

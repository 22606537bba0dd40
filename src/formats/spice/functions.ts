// User functions: `.func name(a, b) {expr}` (also `= {expr}`, `'expr'` or a plain expression). A call
// is inlined into the expression that makes it, its arguments taking the place of the parameter
// names, so functions work in `.param` values, card values and behavioural sources alike; they may
// call each other (up to MAX_DEPTH deep). Built-in function names cannot be redefined.
import { type Card, isIdentifier, lineError } from './lexer.js';
import { type Expr, type Origin, parseExpression } from './expression-parser.js';

const MAX_DEPTH = 20;

export interface UserFunction {
  params: string[];
  body: Expr;
  origin: Origin;
}

export type FunctionLookup = (name: string) => UserFunction | undefined;

/** Reads a `.func` card; `builtin` tells names that are taken. */
export function readFuncCard(card: Card, builtin: (name: string) => boolean, fileName?: string): { name: string; fn: UserFunction } {
  const t = card.tokens;
  const fail = (message: string): never => { throw lineError('SPICE_SYNTAX', card.line, `.func: ${message}`, fileName); };
  const name = t[1];
  if (!name || name.kind !== 'word' || !isIdentifier(name.text)) return fail('expected .func name(arguments) {expression}');
  if (builtin(name.lower)) fail(`${name.text} is a built-in function`);
  if (t[2]?.text !== '(') fail(`expected '(' after ${name.text}`);
  const params: string[] = [];
  let i = 3;
  for (; i < t.length && t[i].text !== ')'; i++) {
    if (t[i].text === ',') continue;
    if (t[i].kind !== 'word' || !isIdentifier(t[i].text)) fail(`bad argument name '${t[i].text}'`);
    params.push(t[i].lower);
  }
  if (i >= t.length) fail(`missing ')' after the arguments of ${name.text}`);
  i++;
  if (t[i]?.text === '=') i++;
  const text = t.slice(i).map((x) => (x.kind === 'expr' ? `(${x.text})` : x.text)).join('');
  if (text === '') fail(`${name.text} has no expression`);
  const origin = { line: card.line, fileName };
  return { name: name.lower, fn: { params, body: parseExpression(text, origin), origin } };
}

/** The expression with every call of a user function replaced by its body. */
export function inlineFunctions(tree: Expr, lookup: FunctionLookup, depth = 0): Expr {
  const walk = (e: Expr): Expr => {
    switch (e.kind) {
      case 'num': case 'name': case 'probe': return e;
      case 'unary': return { ...e, arg: walk(e.arg) };
      case 'binary': return { ...e, left: walk(e.left), right: walk(e.right) };
      case 'ternary': return { ...e, cond: walk(e.cond), then: walk(e.then), else: walk(e.else) };
      case 'call': {
        const args = e.args.map(walk);
        const fn = lookup(e.name);
        if (!fn) return { ...e, args };
        if (depth >= MAX_DEPTH) throw lineError('SPICE_SYNTAX', fn.origin.line, `.func ${e.name}: calls nested more than ${MAX_DEPTH} deep (a function that calls itself?)`, fn.origin.fileName);
        if (args.length !== fn.params.length) {
          throw lineError('SPICE_SYNTAX', fn.origin.line, `${e.name}() takes ${fn.params.length} argument${fn.params.length === 1 ? '' : 's'}, a call gives ${args.length}`, fn.origin.fileName);
        }
        const bound = new Map(fn.params.map((p, k) => [p, args[k]]));
        return inlineFunctions(substitute(fn.body, bound), lookup, depth + 1);
      }
    }
  };
  return walk(tree);
}

function substitute(e: Expr, bound: Map<string, Expr>): Expr {
  switch (e.kind) {
    case 'num': case 'probe': return e;
    case 'name': return bound.get(e.name) ?? e;
    case 'unary': return { ...e, arg: substitute(e.arg, bound) };
    case 'binary': return { ...e, left: substitute(e.left, bound), right: substitute(e.right, bound) };
    case 'ternary': return { ...e, cond: substitute(e.cond, bound), then: substitute(e.then, bound), else: substitute(e.else, bound) };
    case 'call': return { ...e, args: e.args.map((a) => substitute(a, bound)) };
  }
}

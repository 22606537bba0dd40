// SPICE expressions (`.param`, `{...}`, `'...'`, B-source and VALUE= expressions) parsed into a tree.
// Grammar, loosest first: `c ? a : b`; `||`; `&&`; `== !=`; `< <= > >=`; `+ -`; `* /`; unary
// `- + !`; `^` (also `**`, right-associative); numbers with SI suffixes, names, calls `f(a, b)` and
// the probes `v(node)`, `v(a, b)`, `i(element)` whose arguments are taken as written (node names may
// hold dots: `v(x1.mid)`). Errors name the line and quote the expression.
import { lineError, parseSpiceNumber } from './lexer.js';

/** Where an expression comes from, for error messages. */
export interface Origin {
  line: number;
  fileName?: string;
}

export type Expr =
  | { kind: 'num'; value: number }
  | { kind: 'name'; name: string }
  | { kind: 'call'; name: string; args: Expr[] }
  | { kind: 'probe'; probe: 'v' | 'i'; args: string[] }
  | { kind: 'unary'; op: '-' | '!'; arg: Expr }
  | { kind: 'binary'; op: string; left: Expr; right: Expr }
  | { kind: 'ternary'; cond: Expr; then: Expr; else: Expr };

type Token = { kind: 'num'; value: number } | { kind: 'id'; name: string } | { kind: 'op'; op: string } | { kind: 'probe'; probe: 'v' | 'i'; args: string[] };

const OPERATORS = ['**', '<=', '>=', '==', '!=', '&&', '||', '+', '-', '*', '/', '^', '(', ')', ',', '<', '>', '!', '?', ':'];

function tokenize(text: string, origin: Origin): Token[] {
  const tokens: Token[] = [];
  const fail = (message: string): never => { throw lineError('SPICE_SYNTAX', origin.line, `${message} in expression '${text}'`, origin.fileName); };
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (/\s/.test(ch)) { i++; continue; }
    if (/[0-9.]/.test(ch)) {
      const match = /^(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?[a-zµ]*/i.exec(text.slice(i));
      const value = match ? parseSpiceNumber(match[0]) : undefined;
      if (!match || value === undefined) fail('bad number');
      tokens.push({ kind: 'num', value: value! });
      i += match![0].length;
      continue;
    }
    if (/[a-z_]/i.test(ch)) {
      const name = /^[a-z_][a-z0-9_.]*/i.exec(text.slice(i))![0].toLowerCase();
      const after = /^\s*\(/.exec(text.slice(i + name.length));
      if ((name === 'v' || name === 'i') && after) {
        const close = text.indexOf(')', i);
        if (close < 0) fail(`missing ')' after ${name}(`);
        const args = text.slice(i + name.length + after[0].length, close).split(',').map((a) => a.trim());
        if (args.some((a) => a === '')) fail(`empty argument of ${name}()`);
        tokens.push({ kind: 'probe', probe: name, args });
        i = close + 1;
        continue;
      }
      tokens.push({ kind: 'id', name });
      i += name.length;
      continue;
    }
    const op = OPERATORS.find((o) => text.startsWith(o, i));
    if (!op) fail(`unexpected '${ch}'`);
    tokens.push({ kind: 'op', op: op === '**' ? '^' : op! });
    i += op!.length;
  }
  return tokens;
}

/** Parses an expression into its tree. */
export function parseExpression(text: string, origin: Origin): Expr {
  const tokens = tokenize(text, origin);
  let pos = 0;
  const fail = (message: string): never => { throw lineError('SPICE_SYNTAX', origin.line, `${message} in expression '${text}'`, origin.fileName); };
  const isOp = (...ops: string[]) => {
    const t = tokens[pos];
    return t !== undefined && t.kind === 'op' && ops.includes(t.op);
  };
  const expect = (op: string) => { if (!isOp(op)) fail(`expected '${op}'`); pos++; };
  const binaryLevel = (ops: string[], next: () => Expr) => (): Expr => {
    let left = next();
    while (isOp(...ops)) {
      const op = (tokens[pos++] as { op: string }).op;
      left = { kind: 'binary', op, left, right: next() };
    }
    return left;
  };
  const ternary = (): Expr => {
    const cond = or();
    if (!isOp('?')) return cond;
    pos++;
    const then = ternary();
    expect(':');
    return { kind: 'ternary', cond, then, else: ternary() };
  };
  const unary = (): Expr => {
    if (isOp('-')) { pos++; return { kind: 'unary', op: '-', arg: unary() }; }
    if (isOp('!')) { pos++; return { kind: 'unary', op: '!', arg: unary() }; }
    if (isOp('+')) { pos++; return unary(); }
    return power();
  };
  const power = (): Expr => {
    const base = primary();
    if (!isOp('^')) return base;
    pos++;
    return { kind: 'binary', op: '^', left: base, right: unary() };
  };
  const primary = (): Expr => {
    const t = tokens[pos++];
    if (t === undefined) return fail('unexpected end');
    if (t.kind === 'num') return { kind: 'num', value: t.value };
    if (t.kind === 'probe') return { kind: 'probe', probe: t.probe, args: t.args };
    if (t.kind === 'op') {
      if (t.op !== '(') return fail(`unexpected '${t.op}'`);
      const inner = ternary();
      expect(')');
      return inner;
    }
    if (!isOp('(')) return { kind: 'name', name: t.name };
    pos++;
    const args: Expr[] = [];
    if (!isOp(')')) {
      args.push(ternary());
      while (isOp(',')) { pos++; args.push(ternary()); }
    }
    expect(')');
    return { kind: 'call', name: t.name, args };
  };
  const multiplicative = binaryLevel(['*', '/'], unary);
  const additive = binaryLevel(['+', '-'], multiplicative);
  const relational = binaryLevel(['<', '<=', '>', '>='], additive);
  const equality = binaryLevel(['==', '!='], relational);
  const and = binaryLevel(['&&'], equality);
  const or = binaryLevel(['||'], and);

  if (tokens.length === 0) fail('empty expression');
  const tree = ternary();
  if (pos < tokens.length) fail('unexpected text after the expression');
  return tree;
}

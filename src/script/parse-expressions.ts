// Expressions of the recursive-descent parser, one function per precedence level of Java:
// assignment < ?: < || < && < | < ^ < & < == != < relational < shifts < + - < * / % < unary/cast
// < postfix (call, index, member, x++) < primary.
import type { ArrayInit, Expr, TypeName } from './ast.js';
import { ScriptError } from './errors.js';
import type { TokenStream } from './token-stream.js';

const ASSIGNMENT_OPS = new Set(['=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<=', '>>=', '>>>=']);
const BINARY_LEVELS: string[][] = [
  ['|'], ['^'], ['&'], ['==', '!='], ['<', '>', '<=', '>='], ['<<', '>>', '>>>'], ['+', '-'], ['*', '/', '%'],
];
export const PRIMITIVE_TYPES = new Set(['int', 'long', 'short', 'byte', 'double', 'float', 'boolean', 'String']);

export function parseExpression(ts: TokenStream): Expr {
  const left = parseConditional(ts);
  const t = ts.peek();
  if (t.kind === 'op' && ASSIGNMENT_OPS.has(t.text)) {
    if (left.kind !== 'name' && left.kind !== 'index' && left.kind !== 'member') {
      throw new ScriptError('syntax', `cannot assign to this expression (expected a variable or an array element left of '${t.text}')`, left.pos);
    }
    ts.next();
    return { kind: 'assign', pos: t.pos, op: t.text, target: left, value: parseExpression(ts) };
  }
  return left;
}

function parseConditional(ts: TokenStream): Expr {
  const test = parseLogical(ts, '||');
  if (!ts.is('?')) return test;
  const q = ts.next();
  const then = parseExpression(ts);
  ts.expect(':', "of the conditional operator '? :'");
  return { kind: 'conditional', pos: q.pos, test, then, otherwise: parseConditional(ts) };
}

function parseLogical(ts: TokenStream, op: '||' | '&&'): Expr {
  let left = op === '||' ? parseLogical(ts, '&&') : parseBinary(ts, 0);
  while (ts.is(op)) {
    const t = ts.next();
    const right = op === '||' ? parseLogical(ts, '&&') : parseBinary(ts, 0);
    left = { kind: 'logical', pos: t.pos, op, left, right };
  }
  return left;
}

function parseBinary(ts: TokenStream, level: number): Expr {
  if (level >= BINARY_LEVELS.length) return parseUnary(ts);
  let left = parseBinary(ts, level + 1);
  for (;;) {
    const t = ts.peek();
    if (t.kind !== 'op' || !BINARY_LEVELS[level].includes(t.text)) return left;
    ts.next();
    left = { kind: 'binary', pos: t.pos, op: t.text, left, right: parseBinary(ts, level + 1) };
  }
}

/** `(int)`, `(double[])`: a parenthesised type name is a cast. */
function castType(ts: TokenStream): TypeName | undefined {
  if (!ts.is('(') || !PRIMITIVE_TYPES.has(ts.peek(1).text) || ts.peek(1).kind !== 'keyword') return undefined;
  let ahead = 2;
  let type = ts.peek(1).text;
  while (ts.is('[', ahead) && ts.is(']', ahead + 1)) {
    type += '[]';
    ahead += 2;
  }
  if (!ts.is(')', ahead)) return undefined;
  for (let k = 0; k <= ahead; k++) ts.next();
  return type;
}

function parseUnary(ts: TokenStream): Expr {
  const t = ts.peek();
  if (t.kind === 'op' && (t.text === '-' || t.text === '+' || t.text === '!' || t.text === '~')) {
    ts.next();
    const operand = parseUnary(ts);
    if (t.text === '-' && operand.kind === 'literal' && typeof operand.value === 'number') {
      return { ...operand, pos: t.pos, value: operand.type === 'int' ? -operand.value | 0 : -operand.value };
    }
    return { kind: 'unary', pos: t.pos, op: t.text, operand };
  }
  if (t.kind === 'op' && (t.text === '++' || t.text === '--')) {
    ts.next();
    return { kind: 'update', pos: t.pos, op: t.text, prefix: true, target: parseUnary(ts) };
  }
  const cast = castType(ts);
  if (cast) return { kind: 'cast', pos: t.pos, type: cast, operand: parseUnary(ts) };
  return parsePostfix(ts);
}

function parsePostfix(ts: TokenStream): Expr {
  let expr = parsePrimary(ts);
  for (;;) {
    const t = ts.peek();
    if (ts.accept('.')) {
      const name = ts.identifier("after '.'");
      expr = { kind: 'member', pos: name.pos, object: expr, name: name.text };
    } else if (ts.accept('[')) {
      const index = parseExpression(ts);
      ts.expect(']', 'after the array index');
      expr = { kind: 'index', pos: t.pos, array: expr, index };
    } else if (ts.is('(')) {
      ts.next();
      expr = { kind: 'call', pos: startOf(expr), callee: expr, args: parseArguments(ts) };
    } else if (ts.is('++') || ts.is('--')) {
      ts.next();
      expr = { kind: 'update', pos: t.pos, op: t.text as '++' | '--', prefix: false, target: expr };
    } else {
      return expr;
    }
  }
}

/** Where an expression starts: `Math.sqrt(x)` at `Math`. */
function startOf(expr: Expr): Expr['pos'] {
  return expr.kind === 'member' ? startOf(expr.object) : expr.pos;
}

function parseArguments(ts: TokenStream): Expr[] {
  const args: Expr[] = [];
  if (ts.accept(')')) return args;
  do args.push(parseExpression(ts));
  while (ts.accept(','));
  ts.expect(')', 'to close the argument list');
  return args;
}

export function parseArrayInit(ts: TokenStream): ArrayInit {
  const open = ts.expect('{', 'to start the array initializer');
  const items: (Expr | ArrayInit)[] = [];
  while (!ts.is('}')) {
    items.push(ts.is('{') ? parseArrayInit(ts) : parseExpression(ts));
    if (!ts.accept(',')) break;
  }
  ts.expect('}', 'to close the array initializer');
  return { pos: open.pos, items };
}

function parseNew(ts: TokenStream): Expr {
  const at = ts.next().pos;
  const t = ts.next();
  if (!PRIMITIVE_TYPES.has(t.text)) {
    throw new ScriptError('compile', `'new ${t.text}' is not supported: scripts can create arrays of int, long, double, boolean and String`, t.pos);
  }
  let type = t.text;
  const sizes: Expr[] = [];
  while (ts.accept('[')) {
    type += '[]';
    if (!ts.is(']')) sizes.push(parseExpression(ts));
    ts.expect(']', 'after the array size');
  }
  if (type === t.text) throw ts.missing(`'[' after 'new ${t.text}' (only arrays can be created)`);
  if (sizes.length === 0) return { kind: 'newArray', pos: at, type, sizes, init: parseArrayInit(ts) };
  return { kind: 'newArray', pos: at, type, sizes };
}

function parsePrimary(ts: TokenStream): Expr {
  const t = ts.peek();
  switch (t.kind) {
    case 'int':
    case 'long':
    case 'double':
      ts.next();
      return { kind: 'literal', pos: t.pos, type: t.kind, value: t.value };
    case 'string':
      ts.next();
      return { kind: 'literal', pos: t.pos, type: 'String', value: t.text };
    case 'char':
      ts.next();
      return { kind: 'literal', pos: t.pos, type: 'char', value: t.text };
    case 'ident':
      ts.next();
      return { kind: 'name', pos: t.pos, name: t.text };
    default:
  }
  if (t.text === 'true' || t.text === 'false') {
    ts.next();
    return { kind: 'literal', pos: t.pos, type: 'boolean', value: t.text === 'true' };
  }
  if (t.text === 'null' && t.kind === 'keyword') {
    ts.next();
    return { kind: 'literal', pos: t.pos, type: 'null', value: null };
  }
  if (t.text === 'new' && t.kind === 'keyword') return parseNew(ts);
  if (ts.is('{')) return { kind: 'arrayInit', pos: t.pos, init: parseArrayInit(ts) };
  if (ts.accept('(')) {
    const inner = parseExpression(ts);
    ts.expect(')', 'to close the parenthesis');
    return inner;
  }
  if (t.kind === 'keyword' && PRIMITIVE_TYPES.has(t.text)) {
    // `String.valueOf(x)`, `Double.parseDouble` are names; a bare `String` is a class name here.
    ts.next();
    return { kind: 'name', pos: t.pos, name: t.text };
  }
  throw ts.missing('an expression');
}

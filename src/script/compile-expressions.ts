// Compiles expressions into closures `(frame) => value`, checking Java's static types on the way:
// each operator becomes a closure specialised for its operand types (int arithmetic wraps at
// 32 bits and divides toward zero, `+` with a String concatenates with Java's number text).
import type { ArrayInit, Expr } from './ast.js';
import { compileArrayInit, compileIndex, compileNewArray } from './compile-arrays.js';
import { compileAssign, compileUpdate } from './compile-assign.js';
import { compileCall, compileMember } from './compile-calls.js';
import { ScriptError, type Position } from './errors.js';
import { javaString } from './java-format.js';
import type { Eval } from './runtime.js';
import type { CompileContext } from './scope.js';
import { convertNumber, isIntegral, isNumeric, normalizeType, promote, type TypeName } from './types.js';

export interface Compiled {
  type: TypeName;
  ev: Eval;
}

export function fail(pos: Position, message: string): never {
  throw new ScriptError('compile', message, pos);
}

export function compileExpr(ctx: CompileContext, e: Expr): Compiled {
  switch (e.kind) {
    case 'literal': {
      const value = e.value;
      return { type: e.type === 'char' ? 'String' : e.type, ev: () => value };
    }
    case 'name': {
      const v = ctx.scopes.lookup(e.name);
      if (!v) return compileMember(ctx, e);
      const slot = v.slot;
      return { type: v.type, ev: (f) => f.slots[slot] };
    }
    case 'member':
      return compileMember(ctx, e);
    case 'index':
      return compileIndex(ctx, e);
    case 'call':
      return compileCall(ctx, e);
    case 'unary':
      return compileUnary(ctx, e.op, compileExpr(ctx, e.operand), e.pos);
    case 'update':
      return compileUpdate(ctx, e);
    case 'binary':
      return compileBinary(e.op, compileExpr(ctx, e.left), compileExpr(ctx, e.right), e.pos);
    case 'logical':
      return compileLogical(ctx, e);
    case 'conditional':
      return compileConditional(ctx, e);
    case 'assign':
      return compileAssign(ctx, e);
    case 'cast':
      return compileCast(normalizeType(e.type), compileExpr(ctx, e.operand), e.pos);
    case 'newArray':
      return compileNewArray(ctx, e);
    case 'arrayInit':
      return fail(e.pos, "an array initializer '{...}' needs a type here: write new double[]{...}");
  }
}

export function compileInit(ctx: CompileContext, init: Expr | ArrayInit, type: TypeName, pos: Position): Eval {
  if (!('kind' in init)) return compileArrayInit(ctx, init, type);
  const value = compileExpr(ctx, init);
  return coerce(value, type, init.kind === 'literal' || init.kind === 'name' ? init.pos : pos, 'the value').ev;
}

/** Assignment conversion of `value` to `type` (widening only), or a compile error naming both types. */
export function coerce(value: Compiled, type: TypeName, pos: Position, what: string): Compiled {
  if (value.type === type || type === 'Object') return value;
  if (value.type === 'null' && (type === 'String' || type.endsWith('[]'))) return { type, ev: value.ev };
  if (type === 'float' && isNumeric(value.type)) return value.type === 'double' ? lossy() : { type, ev: value.ev };
  if ((type === 'double' && isNumeric(value.type)) || (type === 'long' && value.type === 'int')) return { type, ev: value.ev };
  if (value.type === 'float[]' && type === 'double[]') return { type, ev: value.ev };
  if (isNumeric(type) && isNumeric(value.type)) return lossy();
  return fail(pos, `incompatible types: ${what} is ${value.type}, expected ${type}`);

  function lossy(): never {
    return fail(pos, `incompatible types: possible lossy conversion from ${value.type} to ${type} (write (${type}) to convert)`);
  }
}

export function compileCondition(ctx: CompileContext, e: Expr): Eval {
  const c = compileExpr(ctx, e);
  if (c.type !== 'boolean') fail(e.pos, `a condition must be boolean, found ${c.type}`);
  return c.ev;
}

function compileUnary(_ctx: CompileContext, op: string, a: Compiled, pos: Position): Compiled {
  const x = a.ev;
  if (op === '!') {
    if (a.type !== 'boolean') fail(pos, `operator ! needs a boolean, found ${a.type}`);
    return { type: 'boolean', ev: (f) => !x(f) };
  }
  if (!isNumeric(a.type)) fail(pos, `operator ${op} needs a number, found ${a.type}`);
  if (op === '+') return a;
  if (op === '~') {
    if (a.type !== 'int') fail(pos, `operator ~ needs an int, found ${a.type}`);
    return { type: 'int', ev: (f) => ~(x(f) as number) };
  }
  if (a.type === 'int') return { type: 'int', ev: (f) => -(x(f) as number) | 0 };
  return { type: a.type, ev: (f) => -(x(f) as number) };
}

export function concat(a: Compiled, b: Compiled): Eval {
  const x = a.ev;
  const y = b.ev;
  if (a.type === 'String' && b.type === 'String') return (f) => `${x(f) ?? 'null'}${y(f) ?? 'null'}`;
  const ta = a.type;
  const tb = b.type;
  return (f) => javaString(x(f), ta) + javaString(y(f), tb);
}

/** Arithmetic in the promoted type `t` of numbers: closures per operator and type. */
export function arithmetic(op: string, t: TypeName, x: Eval, y: Eval, pos: Position): Eval {
  const divideByZero = (): never => {
    throw new ScriptError('runtime', 'ArithmeticException: / by zero', pos);
  };
  if (t === 'int') {
    switch (op) {
      case '+': return (f) => ((x(f) as number) + (y(f) as number)) | 0;
      case '-': return (f) => ((x(f) as number) - (y(f) as number)) | 0;
      case '*': return (f) => Math.imul(x(f) as number, y(f) as number);
      case '/': return (f) => {
        const d = y(f) as number;
        return d === 0 ? divideByZero() : ((x(f) as number) / d) | 0;
      };
      case '%': return (f) => {
        const d = y(f) as number;
        return d === 0 ? divideByZero() : ((x(f) as number) % d) | 0;
      };
      default:
    }
  }
  if (t === 'long' && (op === '/' || op === '%')) {
    return (f) => {
      const d = y(f) as number;
      if (d === 0) divideByZero();
      return op === '/' ? Math.trunc((x(f) as number) / d) : (x(f) as number) % d;
    };
  }
  const round = t === 'float' ? Math.fround : (v: number): number => v;
  switch (op) {
    case '+': return (f) => round((x(f) as number) + (y(f) as number));
    case '-': return (f) => round((x(f) as number) - (y(f) as number));
    case '*': return (f) => round((x(f) as number) * (y(f) as number));
    case '/': return (f) => round((x(f) as number) / (y(f) as number));
    default: return (f) => round((x(f) as number) % (y(f) as number));
  }
}

function bitwise(op: string, x: Eval, y: Eval): Eval {
  switch (op) {
    case '&': return (f) => (x(f) as number) & (y(f) as number);
    case '|': return (f) => (x(f) as number) | (y(f) as number);
    case '^': return (f) => (x(f) as number) ^ (y(f) as number);
    case '<<': return (f) => (x(f) as number) << (y(f) as number);
    case '>>': return (f) => (x(f) as number) >> (y(f) as number);
    default: return (f) => ((x(f) as number) >>> (y(f) as number)) | 0;
  }
}

function comparison(op: string, x: Eval, y: Eval): Eval {
  switch (op) {
    case '<': return (f) => (x(f) as number) < (y(f) as number);
    case '>': return (f) => (x(f) as number) > (y(f) as number);
    case '<=': return (f) => (x(f) as number) <= (y(f) as number);
    case '>=': return (f) => (x(f) as number) >= (y(f) as number);
    case '==': return (f) => x(f) === y(f);
    default: return (f) => x(f) !== y(f);
  }
}

export function compileBinary(op: string, a: Compiled, b: Compiled, pos: Position): Compiled {
  if (op === '+' && (a.type === 'String' || b.type === 'String')) {
    if (a.type === 'void' || b.type === 'void') fail(pos, "a function without a value ('void') cannot be added to a String");
    return { type: 'String', ev: concat(a, b) };
  }
  const numeric = isNumeric(a.type) && isNumeric(b.type);
  if (['+', '-', '*', '/', '%'].includes(op)) {
    if (!numeric) fail(pos, `operator ${op} needs numbers, found ${a.type} and ${b.type}`);
    const t = promote(a.type, b.type);
    return { type: t, ev: arithmetic(op, t, a.ev, b.ev, pos) };
  }
  if (['<', '>', '<=', '>='].includes(op)) {
    if (!numeric) fail(pos, `operator ${op} needs numbers, found ${a.type} and ${b.type}`);
    return { type: 'boolean', ev: comparison(op, a.ev, b.ev) };
  }
  if (op === '==' || op === '!=') {
    const comparable = numeric || a.type === b.type || a.type === 'null' || b.type === 'null';
    if (!comparable) fail(pos, `cannot compare ${a.type} with ${b.type} using ${op}`);
    return { type: 'boolean', ev: comparison(op, a.ev, b.ev) };
  }
  if ((op === '&' || op === '|' || op === '^') && a.type === 'boolean' && b.type === 'boolean') {
    const x = a.ev;
    const y = b.ev;
    if (op === '^') return { type: 'boolean', ev: (f) => x(f) !== y(f) };
    return { type: 'boolean', ev: op === '&' ? (f) => (x(f) as boolean) && (y(f) as boolean) : (f) => (x(f) as boolean) || (y(f) as boolean) };
  }
  if (a.type !== 'int' || !isIntegral(b.type)) fail(pos, `operator ${op} needs int operands, found ${a.type} and ${b.type}`);
  return { type: 'int', ev: bitwise(op, a.ev, b.ev) };
}

function compileLogical(ctx: CompileContext, e: Extract<Expr, { kind: 'logical' }>): Compiled {
  const x = compileCondition(ctx, e.left);
  ctx.conditional++;
  const y = compileCondition(ctx, e.right);
  ctx.conditional--;
  return { type: 'boolean', ev: e.op === '&&' ? (f) => (x(f) as boolean) && (y(f) as boolean) : (f) => (x(f) as boolean) || (y(f) as boolean) };
}

function compileConditional(ctx: CompileContext, e: Extract<Expr, { kind: 'conditional' }>): Compiled {
  const test = compileCondition(ctx, e.test);
  ctx.conditional++;
  let a = compileExpr(ctx, e.then);
  let b = compileExpr(ctx, e.otherwise);
  ctx.conditional--;
  if (a.type !== b.type) {
    if (isNumeric(a.type) && isNumeric(b.type)) {
      const t = promote(a.type, b.type);
      a = { type: t, ev: a.ev };
      b = { type: t, ev: b.ev };
    } else if (a.type === 'null' || b.type === 'null') {
      const t = a.type === 'null' ? b.type : a.type;
      a = { type: t, ev: a.ev };
    } else {
      fail(e.pos, `the two branches of '? :' have different types: ${a.type} and ${b.type}`);
    }
  }
  const x = a.ev;
  const y = b.ev;
  return { type: a.type, ev: (f) => (test(f) ? x(f) : y(f)) };
}

export function compileCast(type: TypeName, a: Compiled, pos: Position): Compiled {
  if (type === a.type) return a;
  if (isNumeric(type) && isNumeric(a.type)) {
    const from = a.type;
    const x = a.ev;
    if (type === 'double' || (type === 'long' && from === 'int')) return { type, ev: x };
    return { type, ev: (f) => convertNumber(x(f) as number, from, type) };
  }
  if (type === 'String' && a.type === 'null') return { type, ev: a.ev };
  return fail(pos, `cannot cast ${a.type} to ${type}`);
}

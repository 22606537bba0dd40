// Arrays: `new double[n]`, `new double[]{1, 2}`, `{1, 2}` initializers in declarations, `a[i]`
// with Java's bounds check, and `a.length`. Arrays are JavaScript arrays holding Java values.
import type { ArrayInit, Expr } from './ast.js';
import { coerce, compileExpr, fail, type Compiled } from './compile-expressions.js';
import { ScriptError, type Position } from './errors.js';
import type { Eval, Frame } from './runtime.js';
import type { CompileContext } from './scope.js';
import { defaultValue, normalizeType, type TypeName } from './types.js';

type IndexCheck = (f: Frame, array: unknown[] | null, pos: Position) => number;

/** Compiles an index expression (int) into a function returning the checked index. */
export function checkedIndex(ctx: CompileContext, e: Expr): IndexCheck {
  const index = compileExpr(ctx, e);
  if (index.type !== 'int') fail(e.pos, `an array index must be int, found ${index.type}`);
  const ev = index.ev;
  return (f, array, pos) => {
    const i = ev(f) as number;
    if (array === null) throw new ScriptError('runtime', 'NullPointerException: the array is null', pos);
    if (i < 0 || i >= array.length) throw new ScriptError('runtime', `ArrayIndexOutOfBoundsException: Index ${i} out of bounds for length ${array.length}`, pos);
    return i;
  };
}

export function compileIndex(ctx: CompileContext, e: Extract<Expr, { kind: 'index' }>): Compiled {
  const array = compileExpr(ctx, e.array);
  if (!array.type.endsWith('[]')) fail(e.pos, `'[...]' needs an array, found ${array.type}`);
  const a = array.ev;
  const index = checkedIndex(ctx, e.index);
  const pos = e.pos;
  return { type: array.type.slice(0, -2), ev: (f) => {
    const arr = a(f) as unknown[];
    return arr[index(f, arr, pos)];
  } };
}

function filled(type: TypeName, sizes: number[], pos: Position): unknown[] {
  const [n, ...rest] = sizes;
  if (n < 0) throw new ScriptError('runtime', `NegativeArraySizeException: ${n}`, pos);
  const element = type.slice(0, -2);
  const out = new Array<unknown>(n);
  for (let i = 0; i < n; i++) out[i] = rest.length > 0 ? filled(element, rest, pos) : defaultValue(element);
  return out;
}

export function compileNewArray(ctx: CompileContext, e: Extract<Expr, { kind: 'newArray' }>): Compiled {
  const type = normalizeType(e.type);
  if (e.init) return { type, ev: compileArrayInit(ctx, e.init, type) };
  const sizes = e.sizes.map((s) => {
    const c = compileExpr(ctx, s);
    if (c.type !== 'int') fail(s.pos, `an array size must be int, found ${c.type}`);
    return c.ev;
  });
  const pos = e.pos;
  return { type, ev: (f) => filled(type, sizes.map((s) => s(f) as number), pos) };
}

/** `{a, b, {c}}` as a value of array type `type`. */
export function compileArrayInit(ctx: CompileContext, init: ArrayInit, type: TypeName): Eval {
  if (!type.endsWith('[]')) fail(init.pos, `an array initializer '{...}' cannot give a value of type ${type}`);
  const element = type.slice(0, -2);
  const items = init.items.map((item, k) =>
    'kind' in item ? coerce(compileExpr(ctx, item), element, item.pos, `element ${k} of the array`).ev : compileArrayInit(ctx, item, element),
  );
  return (f) => items.map((item) => item(f));
}

// Assignments (`=`, `+=` ... with Java's implicit cast back to the variable's type) and `++`/`--`
// on variables and array elements. A plain assignment to an unknown name declares it (the
// specification's untyped variables), with the type of the assigned value, like Java's `var`.
import type { Expr } from './ast.js';
import { checkedIndex } from './compile-arrays.js';
import { coerce, compileBinary, compileCast, compileExpr, fail, type Compiled } from './compile-expressions.js';
import type { Eval, Frame } from './runtime.js';
import type { CompileContext } from './scope.js';
import { isNumeric, type TypeName } from './types.js';

type Assign = Extract<Expr, { kind: 'assign' }>;
type Update = Extract<Expr, { kind: 'update' }>;

/** Where an assignment writes: read/write closures over a slot or an array element. */
interface Place {
  type: TypeName;
  /** Evaluates the array and index once (array places) before read/write. */
  prepare?: (f: Frame) => void;
  read: Eval;
  write: (f: Frame, value: unknown) => unknown;
}

function place(ctx: CompileContext, target: Expr, declareAs?: Compiled): Place {
  if (target.kind === 'name') {
    let v = ctx.scopes.lookup(target.name);
    if (!v && declareAs) {
      if (declareAs.type === 'void' || declareAs.type === 'null') fail(target.pos, `cannot give '${target.name}' the type of this value (${declareAs.type}): declare it with a type`);
      v = ctx.scopes.declare(target.name, declareAs.type, target.pos, true);
    }
    if (!v) return fail(target.pos, `unknown variable '${target.name}'`);
    const slot = v.slot;
    return { type: v.type, read: (f) => f.slots[slot], write: (f, value) => (f.slots[slot] = value) };
  }
  if (target.kind === 'index') {
    const array = compileExpr(ctx, target.array);
    if (!array.type.endsWith('[]')) fail(target.pos, `'[...]' needs an array, found ${array.type}`);
    const index = checkedIndex(ctx, target.index);
    const arraySlot = ctx.scopes.allocate();
    const indexSlot = ctx.scopes.allocate();
    const a = array.ev;
    const pos = target.pos;
    return {
      type: array.type.slice(0, -2),
      prepare: (f) => {
        const arr = a(f) as unknown[];
        f.slots[arraySlot] = arr;
        f.slots[indexSlot] = index(f, arr, pos);
      },
      read: (f) => (f.slots[arraySlot] as unknown[])[f.slots[indexSlot] as number],
      write: (f, value) => ((f.slots[arraySlot] as unknown[])[f.slots[indexSlot] as number] = value),
    };
  }
  return fail(target.pos, 'cannot assign to this expression (expected a variable or an array element)');
}

export function compileAssign(ctx: CompileContext, e: Assign): Compiled {
  const value = compileExpr(ctx, e.value);
  const p = place(ctx, e.target, e.op === '=' ? value : undefined);
  const { prepare, read, write } = p;
  let result: Eval;
  if (e.op === '=') {
    result = coerce(value, p.type, e.value.pos, `the value assigned to ${describe(e.target)}`).ev;
  } else {
    const combined = compileBinary(e.op.slice(0, -1), { type: p.type, ev: read }, value, e.pos);
    result = combined.type === p.type ? combined.ev : compileCast(p.type, combined, e.pos).ev;
  }
  if (e.target.kind === 'name' && !prepare) {
    const slot = ctx.scopes.lookup(e.target.name)!.slot;
    return { type: p.type, ev: (f) => (f.slots[slot] = result(f)) };
  }
  return { type: p.type, ev: (f) => {
    prepare?.(f);
    return write(f, result(f));
  } };
}

export function compileUpdate(ctx: CompileContext, e: Update): Compiled {
  const p = place(ctx, e.target);
  if (!isNumeric(p.type)) fail(e.pos, `operator ${e.op} needs a number variable, found ${p.type}`);
  const delta = e.op === '++' ? 1 : -1;
  const wrap = p.type === 'int' ? (x: number): number => x | 0 : p.type === 'float' ? Math.fround : (x: number): number => x;
  if (e.target.kind === 'name') {
    const slot = ctx.scopes.lookup(e.target.name)!.slot;
    if (p.type === 'int' && !e.prefix) {
      return { type: 'int', ev: (f) => {
        const old = f.slots[slot] as number;
        f.slots[slot] = (old + delta) | 0;
        return old;
      } };
    }
    return { type: p.type, ev: (f) => {
      const old = f.slots[slot] as number;
      const next = wrap(old + delta);
      f.slots[slot] = next;
      return e.prefix ? next : old;
    } };
  }
  const { prepare, read, write } = p;
  return { type: p.type, ev: (f) => {
    prepare?.(f);
    const old = read(f) as number;
    const next = wrap(old + delta);
    write(f, next);
    return e.prefix ? next : old;
  } };
}

function describe(target: Expr): string {
  return target.kind === 'name' ? `'${target.name}'` : 'the array element';
}

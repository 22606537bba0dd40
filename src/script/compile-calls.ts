// Names, members and calls: variables and `a.length`, constants (`Math.PI`, or `PI` by static
// import), built-in functions by name or dotted name (`runSimulation`, `Math.sqrt`,
// `System.out.println`) with overloads chosen by argument types, and a few String methods.
// Calls of async built-ins are awaited by the statement before the expression runs (PendingCall).
import type { Expr } from './ast.js';
import { coerce, compileExpr, fail, type Compiled } from './compile-expressions.js';
import { ScriptError, type Position } from './errors.js';
import { UNSUPPORTED_GECKO_FUNCTIONS } from './gecko-unsupported.js';
import { CONSTANTS } from './java-library.js';
import type { Builtin, Eval, Signature } from './runtime.js';
import type { CompileContext } from './scope.js';
import { assignable, type TypeName } from './types.js';

/** `Math.sqrt` → "Math.sqrt"; undefined when the expression is not a chain of names. */
function dottedName(e: Expr): string | undefined {
  if (e.kind === 'name') return e.name;
  if (e.kind === 'member') {
    const head = dottedName(e.object);
    return head === undefined ? undefined : `${head}.${e.name}`;
  }
  return undefined;
}

/** Only a chain of names that does not start with a variable is a static name (`Math.PI`). */
function staticName(ctx: CompileContext, e: Expr): string | undefined {
  const name = dottedName(e);
  if (name === undefined || ctx.scopes.lookup(name.split('.')[0])) return undefined;
  return name;
}

export function compileMember(ctx: CompileContext, e: Extract<Expr, { kind: 'name' | 'member' }>): Compiled {
  const name = staticName(ctx, e);
  if (name !== undefined) {
    const constant = CONSTANTS[name] ?? CONSTANTS[`Math.${name}`];
    if (constant !== undefined) return { type: 'double', ev: () => constant };
    if (ctx.builtins.has(name)) fail(e.pos, `'${name}' is a function: call it as ${name}(...)`);
    if (e.kind === 'name') fail(e.pos, `unknown variable '${name}'`);
  }
  if (e.kind === 'name') return fail(e.pos, `unknown variable '${e.name}'`);
  const object = compileExpr(ctx, e.object);
  if (e.name === 'length' && object.type.endsWith('[]')) {
    const a = object.ev;
    const pos = e.pos;
    return { type: 'int', ev: (f) => {
      const arr = a(f) as unknown[] | null;
      if (arr === null) throw new ScriptError('runtime', 'NullPointerException: the array is null', pos);
      return arr.length;
    } };
  }
  return fail(e.pos, `unknown member '${e.name}' of ${object.type}`);
}

function describeSignature(name: string, s: Signature): string {
  return `${name}(${s.params.join(', ')})`;
}

/** The first signature whose parameters accept the argument types, or a compile error. */
function chooseSignature(builtin: Builtin, name: string, types: TypeName[], args: Expr[], pos: Position): Signature {
  const byArity = builtin.signatures.filter((s) => s.params.length === types.length);
  if (byArity.length === 0) {
    const forms = builtin.signatures.map((s) => describeSignature(name, s)).join(' or ');
    fail(pos, `${name} expects ${forms}, got ${types.length} argument${types.length === 1 ? '' : 's'}`);
  }
  const match = byArity.find((s) => s.params.every((p, k) => assignable(types[k], p)));
  if (match) return match;
  const s = byArity[0];
  const k = s.params.findIndex((p, i) => !assignable(types[i], p));
  return fail(args[k].pos, `argument ${k + 1} of ${name} must be ${s.params[k]}, found ${types[k]}`);
}

/** Errors of built-ins (RemoteError, engine errors) become runtime errors at the call. */
export function atCall(error: unknown, pos: Position): ScriptError {
  if (error instanceof ScriptError) return error.position ? error : new ScriptError(error.kind, error.reason, pos);
  return new ScriptError('runtime', error instanceof Error ? error.message : String(error), pos);
}

function stringMethod(ctx: CompileContext, e: Extract<Expr, { kind: 'call' }>, callee: Extract<Expr, { kind: 'member' }>): Compiled {
  const object = compileExpr(ctx, callee.object);
  if (object.type !== 'String') fail(callee.pos, `unknown method '${callee.name}' of ${object.type}`);
  const s = object.ev;
  const args = e.args.map((a) => compileExpr(ctx, a));
  const arity = (n: number, type?: TypeName): void => {
    if (args.length !== n) fail(e.pos, `String.${callee.name} expects ${n} argument${n === 1 ? '' : 's'}, got ${args.length}`);
    if (type) args.forEach((a, k) => coerce(a, type, e.args[k].pos, `argument ${k + 1} of ${callee.name}`));
  };
  const arg = (f: Parameters<Eval>[0]): string => args[0].ev(f) as string;
  switch (callee.name) {
    case 'length': arity(0); return { type: 'int', ev: (f) => (s(f) as string).length };
    case 'equals': arity(1); return { type: 'boolean', ev: (f) => s(f) === args[0].ev(f) };
    case 'equalsIgnoreCase': arity(1, 'String'); return { type: 'boolean', ev: (f) => (s(f) as string).toLowerCase() === arg(f)?.toLowerCase() };
    case 'contains': arity(1, 'String'); return { type: 'boolean', ev: (f) => (s(f) as string).includes(arg(f)) };
    case 'startsWith': arity(1, 'String'); return { type: 'boolean', ev: (f) => (s(f) as string).startsWith(arg(f)) };
    case 'endsWith': arity(1, 'String'); return { type: 'boolean', ev: (f) => (s(f) as string).endsWith(arg(f)) };
    case 'toUpperCase': arity(0); return { type: 'String', ev: (f) => (s(f) as string).toUpperCase() };
    case 'toLowerCase': arity(0); return { type: 'String', ev: (f) => (s(f) as string).toLowerCase() };
    case 'trim': arity(0); return { type: 'String', ev: (f) => (s(f) as string).trim() };
    default: return fail(callee.pos, `unknown method '${callee.name}' of String`);
  }
}

export function compileCall(ctx: CompileContext, e: Extract<Expr, { kind: 'call' }>): Compiled {
  const name = staticName(ctx, e.callee);
  if (name === undefined) {
    if (e.callee.kind === 'member') return stringMethod(ctx, e, e.callee);
    return fail(e.pos, 'only named functions can be called');
  }
  const builtin = ctx.builtins.get(name) ?? (name.includes('.') ? undefined : ctx.builtins.get(`Math.${name}`));
  if (!builtin) {
    if (UNSUPPORTED_GECKO_FUNCTIONS.has(name)) fail(e.pos, `the GeckoSCRIPT function '${name}' is not supported by pesim`);
    return fail(e.pos, `unknown function '${name}'`);
  }
  const args = e.args.map((a) => compileExpr(ctx, a));
  const types = args.map((a) => a.type);
  const signature = chooseSignature(builtin, name, types, e.args, e.pos);
  const evs = args.map((a) => a.ev);
  const pos = e.pos;
  const call = builtin.call;
  if (builtin.async) {
    if (ctx.conditional > 0) fail(pos, `${name}() waits for its result and cannot be called inside &&, || or ? : (call it in a statement of its own)`);
    const slot = ctx.scopes.allocate();
    ctx.pending.push({ slot, pos, run: async (f) => {
      try {
        return await call(evs.map((a) => a(f)), types);
      } catch (error) {
        throw atCall(error, pos);
      }
    } });
    return { type: signature.returns, ev: (f) => f.slots[slot] };
  }
  const ev: Eval = evs.length === 1 ? (f) => call([evs[0](f)], types) : (f) => call(evs.map((a) => a(f)), types);
  return { type: signature.returns, ev: (f) => {
    try {
      return ev(f);
    } catch (error) {
      throw atCall(error, pos);
    }
  } };
}

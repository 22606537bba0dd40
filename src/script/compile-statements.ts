// Compiles statements into closures. A statement that calls no async built-in compiles to a plain
// synchronous closure (loops of arithmetic run without promises); one that does, directly or in a
// nested statement, compiles to an async closure that awaits those calls. Every executed statement
// counts one step against --max-steps; the interrupt (Ctrl-C) is checked with the step bound.
import type { Declarator, Expr, Stmt } from './ast.js';
import { compileCondition, compileExpr, compileInit, fail } from './compile-expressions.js';
import { BREAK, CONTINUE, NORMAL, RETURN, type AsyncExec, type Completion, type Eval, type Exec, type Frame } from './runtime.js';
import type { CompileContext, PendingCall } from './scope.js';
import { defaultValue, normalizeType } from './types.js';

/** Exactly one of the two is set. */
export interface CompiledStmt {
  sync?: Exec;
  async?: AsyncExec;
}

/** Compiles an expression collecting its async calls (to be awaited before it is evaluated). */
function withCalls<T>(ctx: CompileContext, compile: () => T): { value: T; calls: PendingCall[] } {
  const outer = ctx.pending;
  ctx.pending = [];
  try {
    const value = compile();
    return { value, calls: ctx.pending };
  } finally {
    ctx.pending = outer;
  }
}

async function awaitCalls(f: Frame, calls: PendingCall[]): Promise<void> {
  for (const call of calls) {
    f.checkInterrupt(call.pos);
    try {
      f.slots[call.slot] = await call.run(f);
    } catch (error) {
      f.checkInterrupt(call.pos);
      throw error;
    }
    f.checkInterrupt(call.pos);
  }
}

/** An evaluation that may need awaited calls first: sync when there are none. */
function staged(ev: Eval, calls: PendingCall[]): { sync?: Eval; async?: (f: Frame) => Promise<unknown> } {
  if (calls.length === 0) return { sync: ev };
  return { async: async (f) => {
    await awaitCalls(f, calls);
    return ev(f);
  } };
}

export function runAsync(s: CompiledStmt): AsyncExec {
  return s.async ?? ((f) => Promise.resolve(s.sync!(f)));
}

export function compileStatements(ctx: CompileContext, body: Stmt[], loops: number): CompiledStmt {
  const parts = body.map((s) => compileStmt(ctx, s, loops));
  if (parts.every((p) => p.sync)) {
    const list = parts.map((p) => p.sync!);
    if (list.length === 1) return { sync: list[0] };
    return { sync: (f) => {
      for (let i = 0; i < list.length; i++) {
        const c = list[i](f);
        if (c !== NORMAL) return c;
      }
      return NORMAL;
    } };
  }
  return { async: async (f) => {
    for (const p of parts) {
      const c = p.sync ? p.sync(f) : await p.async!(f);
      if (c !== NORMAL) return c;
    }
    return NORMAL;
  } };
}

function compileDeclarator(ctx: CompileContext, type: string, d: Declarator): Eval {
  let t = type === 'var' ? undefined : normalizeType(type + '[]'.repeat(d.dims));
  let init: Eval | undefined;
  if (d.init) {
    if (t === undefined) {
      if (!('kind' in d.init)) fail(d.pos, "'var' cannot take an array initializer: write new double[]{...}");
      const c = compileExpr(ctx, d.init as Expr);
      if (c.type === 'void' || c.type === 'null') fail(d.pos, `'var ${d.name}' needs a value with a type, found ${c.type}`);
      t = c.type;
      init = c.ev;
    } else {
      init = compileInit(ctx, d.init, t, d.pos);
    }
  } else if (t === undefined) {
    fail(d.pos, `'var ${d.name}' needs an initial value`);
  }
  const slot = ctx.scopes.declare(d.name, t!, d.pos).slot;
  const initial = defaultValue(t!);
  const value = init;
  return value ? (f) => (f.slots[slot] = value(f)) : (f) => (f.slots[slot] = initial);
}

function compileStmt(ctx: CompileContext, s: Stmt, loops: number): CompiledStmt {
  const pos = s.pos;
  switch (s.kind) {
    case 'expr':
    case 'declare': {
      const { value: evs, calls } = withCalls(ctx, () =>
        s.kind === 'expr' ? [compileExpr(ctx, s.expr).ev] : s.declarators.map((d) => compileDeclarator(ctx, s.type, d)));
      const ev: Eval = evs.length === 1 ? evs[0] : (f) => evs.forEach((e) => e(f));
      if (calls.length === 0) {
        return { sync: (f) => {
          if (++f.steps >= f.nextCheck) f.check(pos);
          ev(f);
          return NORMAL;
        } };
      }
      return { async: async (f) => {
        if (++f.steps >= f.nextCheck) f.check(pos);
        await awaitCalls(f, calls);
        ev(f);
        return NORMAL;
      } };
    }
    case 'block': {
      ctx.scopes.push();
      const inner = compileStatements(ctx, s.body, loops);
      ctx.scopes.pop();
      return counted(inner, pos);
    }
    case 'if':
      return compileIf(ctx, s, loops);
    case 'while':
    case 'doWhile':
    case 'for':
      return compileLoop(ctx, s, loops);
    case 'break':
    case 'continue':
      if (loops === 0) fail(pos, `'${s.kind}' outside of a loop`);
      return counted({ sync: () => (s.kind === 'break' ? BREAK : CONTINUE) }, pos);
    case 'return':
      return counted({ sync: () => RETURN }, pos);
    case 'empty':
      return counted({ sync: () => NORMAL }, pos);
  }
}

function counted(inner: CompiledStmt, pos: Stmt['pos']): CompiledStmt {
  if (inner.sync) {
    const run = inner.sync;
    return { sync: (f) => {
      if (++f.steps >= f.nextCheck) f.check(pos);
      return run(f);
    } };
  }
  const run = inner.async!;
  return { async: (f) => {
    if (++f.steps >= f.nextCheck) f.check(pos);
    return run(f);
  } };
}

function compileIf(ctx: CompileContext, s: Extract<Stmt, { kind: 'if' }>, loops: number): CompiledStmt {
  const { value: testEv, calls } = withCalls(ctx, () => compileCondition(ctx, s.test));
  const test = staged(testEv, calls);
  const then = compileStmt(ctx, s.then, loops);
  const otherwise = s.otherwise ? compileStmt(ctx, s.otherwise, loops) : { sync: (): Completion => NORMAL };
  if (test.sync && then.sync && otherwise.sync) {
    const [t, a, b] = [test.sync, then.sync, otherwise.sync];
    return counted({ sync: (f) => (t(f) ? a(f) : b(f)) }, s.pos);
  }
  const [t, a, b] = [test.async ?? test.sync!, runAsync(then), runAsync(otherwise)];
  return counted({ async: async (f) => ((await t(f)) ? a(f) : b(f)) }, s.pos);
}

type LoopStmt = Extract<Stmt, { kind: 'while' | 'doWhile' | 'for' }>;

function compileLoop(ctx: CompileContext, s: LoopStmt, loops: number): CompiledStmt {
  ctx.scopes.push();
  const init = s.kind === 'for' ? compileStatements(ctx, s.init, loops) : { sync: (): Completion => NORMAL };
  const test = s.test ? withCalls(ctx, () => compileCondition(ctx, s.test!)) : { value: () => true, calls: [] };
  const update = s.kind === 'for' ? withCalls(ctx, () => s.update.map((u) => compileExpr(ctx, u).ev)) : { value: [], calls: [] };
  const body = compileStmt(ctx, s.body, loops + 1);
  ctx.scopes.pop();
  const doFirst = s.kind === 'doWhile';
  const testEv = test.value;
  const updates = update.value;
  const step: Eval = updates.length === 0 ? () => undefined : updates.length === 1 ? updates[0] : (f) => updates.forEach((u) => u(f));
  if (init.sync && body.sync && test.calls.length === 0 && update.calls.length === 0) {
    const [start, run] = [init.sync, body.sync];
    return counted({ sync: (f) => {
      start(f);
      for (let first = doFirst; first || testEv(f); first = false) {
        const c = run(f);
        if (c === BREAK) break;
        if (c === RETURN) return RETURN;
        step(f);
      }
      return NORMAL;
    } }, s.pos);
  }
  const start = runAsync(init);
  const run = runAsync(body);
  const testAsync = staged(testEv, test.calls);
  const stepAsync = staged(step, update.calls);
  return counted({ async: async (f) => {
    await start(f);
    for (let first = doFirst; first || (testAsync.sync ? testAsync.sync(f) : await testAsync.async!(f)); first = false) {
      const c = await run(f);
      if (c === BREAK) break;
      if (c === RETURN) return RETURN;
      if (stepAsync.sync) stepAsync.sync(f);
      else await stepAsync.async!(f);
    }
    return NORMAL;
  } }, s.pos);
}

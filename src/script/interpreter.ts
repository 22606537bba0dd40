// The interpreter: compiles parsed programs against one set of built-ins and runs them on one
// frame, so that variables persist from program to program (GeckoSCRIPT declarations, then its
// code; or one line after another at the interactive prompt).
import type { Program } from './ast.js';
import { compileStatements, runAsync } from './compile-statements.js';
import { ScriptError } from './errors.js';
import { Frame, type Builtins, type Limits } from './runtime.js';
import { Scopes, type CompileContext } from './scope.js';
import { defaultValue } from './types.js';

export class Interpreter {
  private readonly scopes = new Scopes();
  readonly frame: Frame;

  constructor(private readonly builtins: Builtins, limits: Limits) {
    this.frame = new Frame(limits);
  }

  /** Compiles the whole program first (so that no statement runs when a later one is wrong), then runs it. */
  async run(program: Program): Promise<void> {
    const ctx: CompileContext = { scopes: this.scopes, builtins: this.builtins, pending: [], conditional: 0 };
    const before = this.scopes.globals();
    let compiled;
    try {
      compiled = compileStatements(ctx, program.body, 0);
    } catch (error) {
      this.scopes.restoreGlobals(before);
      throw error;
    }
    if (ctx.pending.length > 0) throw new ScriptError('compile', 'internal: an async call outside of a statement');
    // New outermost variables hold Java's default value until their declaration runs (a later
    // program, or the next prompt input, may read one whose declaration an error skipped).
    for (const [name, v] of this.scopes.globals()) if (before.get(name) !== v) this.frame.slots[v.slot] = defaultValue(v.type);
    if (compiled.sync) compiled.sync(this.frame);
    else await runAsync(compiled)(this.frame);
  }

  /** Statements executed so far (the count --max-steps bounds). */
  get steps(): number {
    return this.frame.steps;
  }
}

// Compile-time scopes: each variable gets a slot of the frame when declared; names resolve to
// slots at compile time, so running a script never looks a name up. The outermost scope holds
// the fields (GeckoSCRIPT declarations) and variables created by a first plain assignment.
import { ScriptError, type Position } from './errors.js';
import type { Builtins } from './runtime.js';
import type { TypeName } from './types.js';

export interface Variable {
  name: string;
  slot: number;
  type: TypeName;
  pos: Position;
}

/** An async built-in call inside an expression: awaited before the expression is evaluated. */
export interface PendingCall {
  slot: number;
  run: (f: import('./runtime.js').Frame) => Promise<unknown>;
  pos: Position;
}

export class Scopes {
  private readonly stack: Map<string, Variable>[] = [new Map()];
  slotCount = 0;

  lookup(name: string): Variable | undefined {
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const v = this.stack[i].get(name);
      if (v) return v;
    }
    return undefined;
  }

  /** Declares in the innermost scope (or the outermost with `global`). Locals may not hide locals. */
  declare(name: string, type: TypeName, pos: Position, global = false): Variable {
    const existing = this.lookup(name);
    const innermost = global ? this.stack[0] : this.stack[this.stack.length - 1];
    if (existing && (innermost.has(name) || (this.stack.length > 1 && !this.stack[0].has(name)))) {
      throw new ScriptError('compile', `variable '${name}' is already defined (at ${existing.pos.line}:${existing.pos.column})`, pos);
    }
    const variable = { name, slot: this.allocate(), type, pos };
    innermost.set(name, variable);
    return variable;
  }

  /** The outermost variables, to undo the declarations of a program that does not compile. */
  globals(): Map<string, Variable> {
    return new Map(this.stack[0]);
  }

  restoreGlobals(saved: Map<string, Variable>): void {
    this.stack.length = 1;
    this.stack[0] = new Map(saved);
  }

  allocate(): number {
    return this.slotCount++;
  }

  push(): void {
    this.stack.push(new Map());
  }

  pop(): void {
    this.stack.pop();
  }
}

export interface CompileContext {
  scopes: Scopes;
  builtins: Builtins;
  /** Async calls of the expression being compiled (undefined: none allowed here). */
  pending: PendingCall[];
  /** > 0 inside operands that may not be evaluated (&&, ||, ?:): async calls are refused there. */
  conditional: number;
}

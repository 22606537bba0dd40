// What compiled scripts run on: the frame (variable slots, the statement counter with its step
// bound and interrupt check), statement completions, and the shape of built-in functions.
import { ScriptError, type Position } from './errors.js';
import type { TypeName } from './types.js';

/** How a statement ended: normally, by break, by continue, or by `return;` (ends the script). */
export const NORMAL = 0;
export const BREAK = 1;
export const CONTINUE = 2;
export const RETURN = 3;
export type Completion = 0 | 1 | 2 | 3;

export type Eval = (f: Frame) => unknown;
export type Exec = (f: Frame) => Completion;
export type AsyncExec = (f: Frame) => Promise<Completion>;

export interface Limits {
  /** Statements a run may execute (Infinity: no bound). */
  maxSteps: number;
  /** True once the user asked to stop (Ctrl-C); checked every CHECK_INTERVAL statements and after each wait. */
  interrupted: () => boolean;
}

const CHECK_INTERVAL = 1024;

export class Frame {
  readonly slots: unknown[] = [];
  steps = 0;
  /** Step count at which check() runs next: keeps the per-statement cost at one comparison. */
  nextCheck = 0;

  constructor(readonly limits: Limits) {
    this.resetSteps();
  }

  resetSteps(): void {
    this.steps = 0;
    this.nextCheck = Math.min(CHECK_INTERVAL, this.limits.maxSteps + 1);
  }

  /** Called when steps reaches nextCheck: enforces the step bound and the interrupt. */
  check(pos: Position): void {
    if (this.steps > this.limits.maxSteps) {
      throw new ScriptError('step-limit', `the script exceeded the limit of ${this.limits.maxSteps} statements (--max-steps)`, pos);
    }
    this.checkInterrupt(pos);
    this.nextCheck = Math.min(this.steps + CHECK_INTERVAL, this.limits.maxSteps + 1);
  }

  checkInterrupt(pos: Position): void {
    if (this.limits.interrupted()) throw new ScriptError('interrupted', 'interrupted by Ctrl-C', pos);
  }
}

export interface Signature {
  params: TypeName[];
  returns: TypeName;
}

/** A function scripts can call by name. `types` are the static types of the arguments. */
export interface Builtin {
  name: string;
  signatures: Signature[];
  /** Returns a Promise (runSimulation, loadCircuit, ...): the statement calling it awaits. */
  async?: boolean;
  call(args: unknown[], types: TypeName[]): unknown;
}

/** The registry of named functions a script sees (spec functions, GeckoSCRIPT built-ins). */
export type Builtins = Map<string, Builtin>;

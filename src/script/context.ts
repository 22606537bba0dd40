// Running scripts: one ScriptContext holds the remote-control session (in-process engine runs),
// the interpreter with its variables, and the limits (step bound, interrupt). It runs script text,
// or the GeckoSCRIPT embedded in an .ipes file against that file's circuit (imports, then the
// declarations as fields, then the code, as GeckoCIRCUITS compiles them).
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { EngineRunner } from '../remote/engine-runner.js';
import { RemoteSession } from '../remote/session.js';
import type { Progress } from '../engine/controller.js';
import type { Program } from './ast.js';
import { createBuiltins, outputsRead } from './builtins.js';
import { ScriptError, type SourceText } from './errors.js';
import type { ScriptHost } from './host.js';
import { Interpreter } from './interpreter.js';
import { embeddedScript } from './ipes-script.js';
import { parseProgram } from './parser.js';
import { ProbingRunner } from './probe-runner.js';

export interface ScriptOptions {
  write(text: string): void;
  /** Warnings and notes (stderr of the command). */
  warn?(text: string): void;
  /** Bound on executed statements (default: none). */
  maxSteps?: number;
  /** True once the user asked to stop. */
  interrupted?: () => boolean;
  onProgress?: (progress: Progress) => void;
  /** Relative paths of loadCircuit and friends resolve here (default: the working directory). */
  baseDir?: string;
}

/** The reader's note that it does not run embedded scripts: not true when this runs them. */
const NOT_RUN_WARNING = 'the file contains GeckoSCRIPT code; it is not run';

export class ScriptContext {
  readonly session: RemoteSession;
  private readonly probes = new ProbingRunner(new EngineRunner());
  private readonly interpreter: Interpreter;

  constructor(private readonly options: ScriptOptions) {
    this.session = new RemoteSession({ runner: this.probes, baseDir: options.baseDir, onProgress: options.onProgress });
    const host: ScriptHost = { session: this.session, probes: this.probes, write: options.write };
    this.interpreter = new Interpreter(createBuiltins(host), {
      maxSteps: options.maxSteps ?? Infinity,
      interrupted: options.interrupted ?? (() => false),
    });
  }

  /** Loads a circuit first (`--circuit`), printing the reader's warnings. */
  async loadCircuit(path: string): Promise<void> {
    const summary = await this.session.loadCircuit(path);
    for (const warning of summary.warnings) if (warning !== NOT_RUN_WARNING) this.options.warn?.(`warning: ${warning}\n`);
  }

  /** Parses and runs script text; variables stay defined for the next call. */
  async run(source: SourceText): Promise<void> {
    await this.runProgram(parseProgram(source));
  }

  /**
   * One input at the prompt: statements, or else a bare expression (`1.0 / 3`, `x + 1;`), whose
   * value is printed. The statements' error is reported when the input is neither.
   */
  async runInput(source: SourceText): Promise<void> {
    let program: Program;
    try {
      program = parseProgram(source);
    } catch (error) {
      const expression = source.text.trim().replace(/;$/, '');
      if (!(error instanceof ScriptError) || expression === '') throw error;
      try {
        program = parseProgram({ ...source, text: `print(${expression});` });
      } catch {
        throw error;
      }
    }
    await this.runProgram(program);
  }

  private async runProgram(program: Program): Promise<void> {
    this.probes.probe(outputsRead(program.body));
    this.interpreter.frame.resetSteps();
    await this.interpreter.run(program);
  }

  /** Runs the GeckoSCRIPT of an .ipes file against that file's circuit. */
  async runIpes(path: string): Promise<void> {
    const absolute = resolve(path);
    const script = embeddedScript(await readFile(absolute), path);
    if (script.code.text.trim() === '') throw new ScriptError('runtime', `${path} contains no GeckoSCRIPT code (its <scripterCode> section is empty)`);
    await this.loadCircuit(absolute);
    const imports = parseProgram(script.imports);
    if (imports.body.length > 0) throw new ScriptError('syntax', 'only import lines belong in the imports section', imports.body[0].pos);
    const declarations = parseProgram(script.declarations);
    const notField = declarations.body.find((s) => s.kind !== 'declare' && s.kind !== 'empty');
    if (notField) throw new ScriptError('syntax', 'only field declarations (such as double x = 1;) belong in the declarations section', notField.pos);
    await this.runProgram(declarations);
    await this.runProgram(parseProgram(script.code));
  }

  /** Stops a simulation in progress (Ctrl-C); the interpreter stops at its next check. */
  stopSimulation(): boolean {
    return this.session.stopSimulation();
  }

  get steps(): number {
    return this.interpreter.steps;
  }
}

/** The folder relative paths of a script file resolve against: the working directory. */
export function scriptBaseDir(file: string | undefined): string {
  return file && /\.ipes$/i.test(file) ? dirname(resolve(file)) : process.cwd();
}

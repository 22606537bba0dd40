// Running scripts: one ScriptContext holds the remote-control session (in-process engine runs) and
// the engine's script session (native/core/src/control/java/script.hpp: the Java subset's compiler
// and interpreter, with its variables and limits), whose host functions it answers. It runs script
// text, or the GeckoSCRIPT embedded in an .ipes file against that file's circuit (imports, then the
// declarations as fields and methods, then the code, as GeckoCIRCUITS compiles them).
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { EngineRunner } from '../remote/engine-runner.js';
import { RemoteSession } from '../remote/session.js';
import type { Progress } from '../engine/controller.js';
import { isJavaScriptFailure, javaScriptSession, type JavaScriptSession, type ScriptPart } from '../engine/java-script.js';
import { createBuiltins, outputsRead } from './builtins.js';
import { ScriptError, type SourceText } from './errors.js';
import { UNSUPPORTED_GECKO_FUNCTIONS } from './gecko-unsupported.js';
import type { ScriptHost } from './host.js';
import { GeckoStepping } from './gecko-stepping.js';
import { embeddedScript } from './ipes-script.js';
import { ProbingRunner } from './probe-runner.js';

export interface ScriptOptions {
  write(text: string): void;
  /** Warnings and notes (stderr of the command). */
  warn?(text: string): void;
  /** Bound on executed statements per run (default: none). */
  maxSteps?: number;
  /** Element 0 set to 1 once the user asked to stop (Ctrl-C); the engine reads it with its statement count. */
  interrupt?: Int32Array;
  onProgress?: (progress: Progress) => void;
  /** Relative paths of loadCircuit and friends resolve here (default: the working directory). */
  baseDir?: string;
  /** The folder the script's PrintWriter and FileWriter may write in (default: baseDir). */
  outputDir?: string;
}

/** The reader's note that it does not run embedded scripts: not true when this runs them. */
const NOT_RUN_WARNING = 'the file contains GeckoSCRIPT code; it is not run';

export class ScriptContext {
  readonly session: RemoteSession;
  private readonly probes = new ProbingRunner(new EngineRunner());
  private readonly java: JavaScriptSession;
  private readonly stepping: GeckoStepping;

  constructor(private readonly options: ScriptOptions) {
    this.session = new RemoteSession({ runner: this.probes, baseDir: options.baseDir, onProgress: options.onProgress });
    this.stepping = new GeckoStepping(this.session, this.probes, options.write);
    const host: ScriptHost = { session: this.session, probes: this.probes, stepping: this.stepping, write: options.write };
    const builtins = [...createBuiltins(host).values()];
    this.java = javaScriptSession({
      functions: builtins.map(({ name, signatures }) => ({ name, signatures })),
      unsupported: [...UNSUPPORTED_GECKO_FUNCTIONS],
      call: (index, _signature, args) => builtins[index].call(args),
      write: options.write,
      maxSteps: options.maxSteps,
      interrupt: options.interrupt,
      outputDir: resolve(options.outputDir ?? options.baseDir ?? process.cwd()),
    });
  }

  /** Loads a circuit first (`--circuit`), printing the reader's warnings. */
  async loadCircuit(path: string): Promise<void> {
    const summary = await this.session.loadCircuit(path);
    for (const warning of summary.warnings) if (warning !== NOT_RUN_WARNING) this.options.warn?.(`warning: ${warning}\n`);
  }

  /** Compiles, then runs script text (a whole script: a step-wise run it leaves going is released at its end); its variables stay defined for the next call. */
  async run(source: SourceText): Promise<void> {
    try {
      await this.runPiece(source, 'statements');
    } finally {
      this.stepping.release();
    }
  }

  /**
   * One input at the prompt: statements, or else a bare expression (`1.0 / 3`, `x + 1;`), whose
   * value is printed. The statements' error is reported when the input is neither.
   */
  async runInput(source: SourceText): Promise<void> {
    await this.runPiece(source, 'input');
  }

  private async runPiece(source: SourceText, part: ScriptPart, predefine = false): Promise<void> {
    let calls: Array<[string, string | null]>;
    const predefined = new Set<string>();
    for (;;) {
      try {
        calls = this.java.compile(source.name, source.text, source.firstLine, part);
        break;
      } catch (error) {
        const name = predefine ? undefinedTimeName(error) : undefined;
        if (!name || predefined.has(name)) throw scriptError(error, source);
        predefined.add(name);
        await this.runPiece({ name: source.name, text: TIME_NAMES[name], firstLine: 1 }, 'declarations');
      }
    }
    this.probes.probe(outputsRead(calls));
    try {
      await this.java.run();
    } catch (error) {
      throw scriptError(error, source);
    }
  }

  /** Runs the GeckoSCRIPT of an .ipes file against that file's circuit. */
  async runIpes(path: string): Promise<void> {
    const absolute = resolve(path);
    const script = embeddedScript(await readFile(absolute), path);
    if (script.code.text.trim() === '') throw new ScriptError('runtime', `${path} contains no GeckoSCRIPT code (its <scripterCode> section is empty)`);
    await this.loadCircuit(absolute);
    try {
      await this.runPiece(script.imports, 'declarations');
      await this.runPiece(script.declarations, 'declarations', true);
      await this.runPiece(script.code, 'statements', true);
    } finally {
      this.stepping.release();
    }
  }

  /** Stops a simulation in progress (Ctrl-C); the script stops at its next check. */
  stopSimulation(): boolean {
    return this.session.stopSimulation();
  }

  /** Statements the last run executed (the count --max-steps bounds). */
  get steps(): number {
    return this.java.steps();
  }
}

/**
 * `dt` and `time` in GeckoSCRIPT embedded in .ipes files: GeckoCIRCUITS' scripts use them as the
 * circuit's time step and end time (the GeckoMAGNETICS scripting tutorial's buck passes them to
 * initSteadyStateDetection), though neither AbstractGeckoCustom nor the class template
 * CompileScript writes around the code declares them. A script that uses either without declaring
 * it gets it as a field holding the circuit's value when the script starts; a script's own
 * declaration of the name is left alone.
 */
const TIME_NAMES: Record<string, string> = { dt: 'double dt = get_dt();', time: 'double time = get_Tend();' };

/** `dt` or `time` when a compile failed because the name is not declared (the engine reserves them for Java blocks). */
function undefinedTimeName(error: unknown): string | undefined {
  if (!isJavaScriptFailure(error) || error.kind !== 'compile') return undefined;
  return /^'(dt|time)' is only available in the block's code/.exec(error.reason)?.[1];
}

/** The engine's compile or run failure as a ScriptError at its position in `source`. */
function scriptError(error: unknown, source: SourceText): unknown {
  if (!isJavaScriptFailure(error)) return error;
  const position = error.line > 0 ? { source, line: error.line, column: error.column } : undefined;
  return new ScriptError(error.kind, error.reason, position);
}

/** The folder a script writes its files in by default: the script file's, or at the prompt the working directory. */
export function scriptOutputDir(file: string | undefined): string {
  return file ? dirname(resolve(file)) : process.cwd();
}

/** The folder relative paths of a script file resolve against: the working directory. */
export function scriptBaseDir(file: string | undefined): string {
  return file && /\.ipes$/i.test(file) ? dirname(resolve(file)) : process.cwd();
}

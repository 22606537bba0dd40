// The addon's script sessions (native/addon/script.cc), typed: `pesim script` runs its scripts on
// the engine's Java (native/core/src/control/java/script.hpp) through this one function.
import { bindingFeature } from './binding.js';

/** Java type names as scripts write them: double, int, long, boolean, String, Object, void, double[], double[][], String[], float[]. */
export interface HostSignature {
  params: string[];
  returns: string;
  /** The result is written into the first argument, an array, which is returned (a Java method that changes its argument in place and returns it). */
  inPlace?: boolean;
}

export interface HostFunctionShape {
  name: string;
  signatures: HostSignature[];
}

export interface JavaScriptOptions {
  functions: HostFunctionShape[];
  /** Names whose calls stop the compilation: "the GeckoSCRIPT function 'NAME' is not supported by pesim". */
  unsupported: string[];
  /** Answers a host call (function and overload by index); may return a promise. Object arguments arrive as their text. */
  call(functionIndex: number, signature: number, args: unknown[]): unknown;
  write(text: string): void;
  /** Executed statements allowed per run. */
  maxSteps?: number;
  /** Element 0 nonzero: stop at the next check (every 1 024 statements, and after a host call that failed). */
  interrupt?: Int32Array;
  /** The folder the script's PrintWriter and FileWriter may write in; paths resolving outside it are refused. */
  outputDir?: string;
}

/** What a failed compile or run throws: an Error with these fields. */
export interface JavaScriptFailure extends Error {
  kind: 'syntax' | 'compile' | 'runtime' | 'step-limit' | 'interrupted';
  reason: string;
  /** 0 when the failure has no position. */
  line: number;
  column: number;
}

export type ScriptPart = 'statements' | 'input' | 'declarations';

export interface JavaScriptSession {
  /** Compiles a piece (nothing runs); returns its host calls as [function, first argument when a String constant]. */
  compile(name: string, text: string, firstLine: number, part: ScriptPart): Array<[string, string | null]>;
  /** Runs the piece compiled last, on its own thread; host calls come back to this one. */
  run(): Promise<void>;
  /** Statements the last run executed. */
  steps(): number;
}

interface ScriptBinding {
  scriptSession(options: JavaScriptOptions): JavaScriptSession;
}

export function javaScriptSession(options: JavaScriptOptions): JavaScriptSession {
  return bindingFeature<ScriptBinding>(['scriptSession'], 'script sessions').scriptSession(options);
}

export function isJavaScriptFailure(error: unknown): error is JavaScriptFailure {
  return error instanceof Error && typeof (error as Partial<JavaScriptFailure>).kind === 'string' && typeof (error as Partial<JavaScriptFailure>).line === 'number';
}

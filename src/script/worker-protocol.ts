// Messages between `pesim script` (main thread: terminal, Ctrl-C, prompt) and the thread that runs
// the interpreter (worker.ts). The interpreter runs on its own thread so that Ctrl-C reaches it even
// inside a loop that never waits: the main thread sets a shared flag the interpreter checks.
import type { Progress } from '../engine/controller.js';
import type { ScriptErrorKind, SourceText } from './errors.js';

export interface WorkerSettings {
  /** Int32Array[1] over it: 1 once the user pressed Ctrl-C. */
  interrupt: SharedArrayBuffer;
  maxSteps?: number;
  baseDir: string;
  /** The folder the script's PrintWriter and FileWriter may write in. */
  outputDir: string;
  /** Send progress messages (the command shows a bar on a terminal). */
  progress: boolean;
}

export type ToWorker =
  | { type: 'circuit'; path: string }
  | { type: 'file'; path: string; ipes: boolean }
  | { type: 'source'; source: SourceText }
  | { type: 'stop' };

export type FromWorker =
  | { type: 'out'; text: string }
  | { type: 'err'; text: string }
  | { type: 'progress'; progress: Progress }
  | { type: 'done'; error?: { kind: ScriptErrorKind | 'failure'; text: string } };

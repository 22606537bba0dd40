// The thread that runs scripts for `pesim script`, seen from the command: sends work, relays the
// script's output and progress to the terminal, and turns Ctrl-C into the interrupt flag the
// interpreter checks (and a stop of the running simulation).
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { scriptBaseDir, scriptOutputDir } from '../script/context.js';
import type { FromWorker, ToWorker, WorkerSettings } from '../script/worker-protocol.js';
import { progressBar } from './progress.js';

type Done = Extract<FromWorker, { type: 'done' }>;

export const INTERRUPTED_EXIT = 130;

/** The worker running scripts, with Ctrl-C wired to its interrupt flag. */
export class ScriptThread {
  private readonly worker: Worker;
  private readonly interrupt = new Int32Array(new SharedArrayBuffer(4));
  private pending: ((done: Done) => void) | undefined;
  private readonly showProgress = progressBar();

  constructor(file: string | undefined, maxSteps: number | undefined, outputDir?: string) {
    const settings: WorkerSettings = {
      interrupt: this.interrupt.buffer as SharedArrayBuffer, maxSteps, baseDir: scriptBaseDir(file),
      outputDir: resolve(outputDir ?? scriptOutputDir(file)), progress: this.showProgress !== undefined,
    };
    this.worker = new Worker(new URL('../script/worker.js', import.meta.url), { workerData: settings });
    this.worker.on('message', (message: FromWorker) => this.receive(message));
    this.worker.on('error', (error) => this.finish({ type: 'done', error: { kind: 'failure', text: error.message } }));
  }

  private receive(message: FromWorker): void {
    if (message.type === 'out') process.stdout.write(message.text);
    else if (message.type === 'err') process.stderr.write(message.text);
    else if (message.type === 'progress') this.showProgress?.(message.progress);
    else this.finish(message);
  }

  private finish(message: Done): void {
    const resolve = this.pending;
    this.pending = undefined;
    resolve?.(message);
  }

  get busy(): boolean {
    return this.pending !== undefined;
  }

  /** Sends work and waits for it; resolves with the error text and kind, if any. */
  run(message: ToWorker): Promise<Done> {
    Atomics.store(this.interrupt, 0, 0);
    return new Promise((resolve) => {
      this.pending = resolve;
      this.worker.postMessage(message);
    });
  }

  /** Ctrl-C: the interpreter stops at its next check, a running simulation at once. */
  stop(): void {
    Atomics.store(this.interrupt, 0, 1);
    this.worker.postMessage({ type: 'stop' } satisfies ToWorker);
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}

/** Exit status of a finished run: 0, 1 (error), or 130 (stopped by Ctrl-C). */
export function report(done: Done): number {
  if (!done.error) return 0;
  process.stderr.write(`${done.error.text}\n`);
  return done.error.kind === 'interrupted' ? INTERRUPTED_EXIT : 1;
}


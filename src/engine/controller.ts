// Steering and watching one run from another thread: pause, resume, cancel and progress go
// through two SharedArrayBuffers that the engine reads and writes atomically every few steps.
import {
  FLAG_CANCEL, FLAG_COUNT, FLAG_PAUSE, PROGRESS_COUNT, PROGRESS_PAUSED, PROGRESS_PHASE, PROGRESS_STEP,
  PROGRESS_TIME, PROGRESS_TOTAL_STEPS, type NativeControl,
} from './types.js';

export type RunPhase = 'pre-simulation' | 'main' | 'done';

export interface Progress {
  phase: RunPhase;
  /** Steps done in the current phase. */
  step: number;
  totalSteps: number;
  /** Simulated time reached [s] (negative during the pre-simulation). */
  time: number;
  /** Percent of the current phase. */
  percent: number;
  paused: boolean;
}

/** Buffers that can be posted to a worker thread to rebuild the controller there. */
export interface ControlBuffers {
  flags: SharedArrayBuffer;
  progress: SharedArrayBuffer;
}

export class RunController {
  readonly buffers: ControlBuffers;
  private readonly flags: Int32Array;
  private readonly progressView: Float64Array;

  constructor(buffers?: ControlBuffers) {
    this.buffers = buffers ?? {
      flags: new SharedArrayBuffer(FLAG_COUNT * Int32Array.BYTES_PER_ELEMENT),
      progress: new SharedArrayBuffer(PROGRESS_COUNT * Float64Array.BYTES_PER_ELEMENT),
    };
    this.flags = new Int32Array(this.buffers.flags);
    this.progressView = new Float64Array(this.buffers.progress);
  }

  /** The views the addon reads and writes. */
  get native(): NativeControl {
    return { flags: this.flags, progress: this.progressView };
  }

  /** Asks the run to stop between two steps; it keeps its state until resume() or cancel(). */
  pause(): void {
    Atomics.store(this.flags, FLAG_PAUSE, 1);
  }

  resume(): void {
    Atomics.store(this.flags, FLAG_PAUSE, 0);
  }

  cancel(): void {
    Atomics.store(this.flags, FLAG_CANCEL, 1);
  }

  get cancelled(): boolean {
    return Atomics.load(this.flags, FLAG_CANCEL) === 1;
  }

  get pauseRequested(): boolean {
    return Atomics.load(this.flags, FLAG_PAUSE) === 1;
  }

  progress(): Progress {
    // Float64 slots are written atomically by the engine; plain reads see whole values.
    const p = this.progressView;
    const phaseCode = p[PROGRESS_PHASE];
    const phase: RunPhase = phaseCode === 0 ? 'pre-simulation' : phaseCode === 2 ? 'done' : 'main';
    const step = p[PROGRESS_STEP];
    const totalSteps = p[PROGRESS_TOTAL_STEPS];
    const percent = phase === 'done' ? 100 : totalSteps > 0 ? (100 * step) / totalSteps : 0;
    return { phase, step, totalSteps, time: p[PROGRESS_TIME], percent, paused: p[PROGRESS_PAUSED] === 1 };
  }
}

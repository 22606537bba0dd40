// Progress bars of the command line (cli-progress), on standard error and only when standard error
// is a terminal: piped or redirected output stays quiet. A bar counts either the percent of each
// simulation (`simulationProgress`, `progressBar`) or the runs of a sweep or script (`countingBar`).
// Imported by the commands' actions only (cli-progress is not loaded for `pesim --help`).
import progress from 'cli-progress';
import type { Progress } from '../engine/index.js';

export interface TerminalBar {
  /** Moves the bar to `value` (of its total), with an optional note shown after it. */
  update(value: number, note?: string): void;
  /** Ends the bar and its line. */
  stop(): void;
}

/** A bar from 0 to `total` labelled `label`, or undefined when standard error is not a terminal. */
export function countingBar(label: string, total: number, unit = ''): TerminalBar | undefined {
  if (!process.stderr.isTTY) return undefined;
  const bar = new progress.SingleBar({
    stream: process.stderr,
    format: `${label} [{bar}] {value}/{total}${unit} | {note}`,
    barsize: 30,
    hideCursor: true,
    etaBuffer: 20,
  }, progress.Presets.shades_classic);
  bar.start(total, 0, { note: '' });
  return {
    update: (value, note = '') => bar.update(value, { note }),
    stop: () => bar.stop(),
  };
}

/**
 * The engine's progress callback drawing one bar per simulation (started by the run's first report,
 * ended by its 'done'), with the simulated time reached; `stop` ends a bar a failed run left open.
 * Undefined when standard error is not a terminal.
 */
export function simulationProgress(): { onProgress: (p: Progress) => void; stop: () => void } | undefined {
  if (!process.stderr.isTTY) return undefined;
  let bar: TerminalBar | undefined;
  const stop = (): void => {
    bar?.stop();
    bar = undefined;
  };
  return {
    onProgress: (p) => {
      bar ??= countingBar('simulate', 100, ' %');
      const note = p.phase === 'pre-simulation' ? 'pre-simulation' : `t = ${p.time.toPrecision(3)} s`;
      bar?.update(p.phase === 'done' ? 100 : Math.round(p.percent), note);
      if (p.phase === 'done') stop();
    },
    stop,
  };
}

/** The progress callback alone, for runs that always end with a 'done' report (scripts). */
export function progressBar(): ((p: Progress) => void) | undefined {
  return simulationProgress()?.onProgress;
}

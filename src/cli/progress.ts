// Progress bars of the command line (cli-progress), on standard error and only when standard error
// is a terminal: piped or redirected output stays quiet. One bar counts either the percent of one
// simulation (`simulationProgress`) or the runs of a sweep or script (`countingBar`).
import type { Progress } from '../engine/index.js';

export interface TerminalBar {
  /** Moves the bar to `value` (of its total), with an optional note shown after it. */
  update(value: number, note?: string): void;
  /** Ends the bar and its line. */
  stop(): void;
}

/** A bar from 0 to `total` labelled `label`, or undefined when standard error is not a terminal. */
export async function countingBar(label: string, total: number, unit = ''): Promise<TerminalBar | undefined> {
  if (!process.stderr.isTTY) return undefined;
  const { default: progress } = await import('cli-progress');
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
 * The engine's progress callback drawing one bar per run (pre-simulation, then simulation), with
 * the simulated time reached; `stop` ends the line. Undefined when standard error is not a terminal.
 */
export async function simulationProgress(): Promise<{ onProgress: (p: Progress) => void; stop: () => void } | undefined> {
  const bar = await countingBar('simulate', 100, ' %');
  if (!bar) return undefined;
  return {
    onProgress: (p) => {
      const note = p.phase === 'pre-simulation' ? 'pre-simulation' : `t = ${p.time.toPrecision(3)} s`;
      bar.update(Math.round(p.percent), note);
    },
    stop: () => bar.stop(),
  };
}

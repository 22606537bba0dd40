// How many runs the embedded executor sends to a thread in one message (embedded.ts). Each message
// and its answer cost the scheduler's thread a wake-up and the bookkeeping of a piscina task, about
// as much as a millisecond run; runs that take a few milliseconds therefore go in groups that last
// about GROUP_WINDOW_MS together, answered at once. The size follows the time the runs took on
// their threads (an exponential average), so runs of seconds go one per message as before.

/** A group's runs take about this long together [ms]: the most its first result waits for the others. */
export const GROUP_WINDOW_MS = 50;
/** Runs per message at most. */
export const MAX_GROUP = 32;
/** Weight of the newest run in the average run time. */
const SMOOTHING = 0.2;

export class RunGroups {
  private averageMs: number | undefined;
  /** Runs per message now (1 until runs are known to be short). */
  size = 1;

  constructor(private readonly threads: number) {}

  /**
   * Runs the executor takes at once: one per thread for runs that go alone; two groups per thread
   * otherwise, so that a thread has its next group while the answer of the last one is handled.
   */
  get capacity(): number {
    return this.size === 1 ? this.threads : 2 * this.threads * this.size;
  }

  /** The time runs took on their threads [ms]; true when the capacity grew. */
  observe(runMs: readonly number[]): boolean {
    for (const ms of runMs) this.averageMs = this.averageMs === undefined ? ms : this.averageMs + SMOOTHING * (ms - this.averageMs);
    if (this.averageMs === undefined) return false;
    const before = this.size;
    this.size = Math.max(1, Math.min(MAX_GROUP, Math.floor(GROUP_WINDOW_MS / Math.max(this.averageMs, 1e-3))));
    return this.size > before;
  }

  /**
   * The runs handed over in one turn, split into messages: groups of `size`, smaller when there
   * are fewer runs than it takes to give every thread without a group one (`groupsInFlight`: the
   * groups sent and not answered).
   */
  split<T>(items: readonly T[], groupsInFlight: number): T[][] {
    if (this.size === 1) return items.map((item) => [item]);
    const idle = this.threads - groupsInFlight;
    let chunk = this.size;
    if (idle > 1 && Math.ceil(items.length / this.size) < idle) chunk = Math.ceil(items.length / Math.min(idle, items.length));
    const parts: T[][] = [];
    for (let i = 0; i < items.length; i += chunk) parts.push(items.slice(i, i + chunk));
    return parts;
  }
}

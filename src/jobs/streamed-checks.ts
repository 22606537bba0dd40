// Circuit checks of a large submission sent to the check threads in parts while the submission is
// still being prepared, so that the threads check the first items on the cores the service's thread
// leaves free while it prepares the rest, instead of all checks waiting for the whole preparation.
// The first failing check is still the first in the submission's order.
import type { CircuitCheckThread } from './check-thread.js';
import type { CircuitCheck } from './check-worker.js';

/** Items prepared between two parts sent to the threads. */
export const CHECK_PART_ITEMS = 20_000;

export class StreamedChecks {
  readonly checks: CircuitCheck[] = [];
  private readonly parts: { start: number; found: Promise<number | undefined> }[] = [];
  private sent = 0;

  constructor(private readonly threads: CircuitCheckThread) {}

  add(check: CircuitCheck): void {
    this.checks.push(check);
  }

  /** True when a part's worth of checks waits to be sent. */
  get partReady(): boolean {
    return this.checks.length - this.sent >= CHECK_PART_ITEMS;
  }

  /** Sends the checks added since the last part (they start once the caller's turn ends). */
  send(): void {
    if (this.sent === this.checks.length) return;
    const start = this.sent;
    this.parts.push({ start, found: this.threads.firstFailing(this.checks.slice(start)) });
    this.sent = this.checks.length;
  }

  /**
   * The position of the first check that fails (-1: none), after sending the rest; undefined when
   * the threads could not take some part (the caller then checks on its own thread).
   */
  async firstFailing(): Promise<number | undefined> {
    this.send();
    const found = await Promise.all(this.parts.map((part) => part.found));
    if (found.includes(undefined)) return undefined;
    const part = found.findIndex((position) => position! >= 0);
    return part < 0 ? -1 : this.parts[part].start + found[part]!;
  }
}

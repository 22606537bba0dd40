// Whether the data directory takes writes. A full disk (SQLite's SQLITE_FULL, ENOSPC or EDQUOT from a
// result file) must not stop a service: the failed write rolls back (SQLite keeps what was
// committed), the request that caused it gets a StorageFullError (507 on both services), reads go on,
// health reports the store as degraded, and a probe every second finds out when space is back (at
// least MIN_FREE_BYTES free, and a write that commits: SQLite may still fit a small write into pages
// it holds); then the writes that waited (the end of a run whose record could not be written) are
// done again.
import { statfsSync } from 'node:fs';
import { JobError } from './errors.js';

/** Error codes of a write that failed for want of space. */
const FULL_CODES = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);

/** True for an error of a write that failed because the data directory has no space left. */
export function isStorageFull(error: unknown): boolean {
  if (error instanceof StorageFullError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && FULL_CODES.has(code);
}

export class StorageFullError extends JobError {
  constructor(readonly dataDir: string, cause: unknown) {
    super('STORAGE_FULL', `The data directory ${dataDir} is full: nothing new can be stored until space is freed there (${(cause as Error)?.message ?? String(cause)}); stored simulations and results can still be read`, { cause });
  }
}

export interface StorageState {
  writable: boolean;
  /** ISO time of the first failed write, while not writable. */
  since?: string;
  /** What failed, while not writable. */
  reason?: string;
}

export const PROBE_INTERVAL_MS = 1000;
/** Free space the data directory needs before the store counts as writable again [bytes]. */
export const MIN_FREE_BYTES = 4 * 1024 * 1024;

/** Free bytes of the file system of `dir` for this process; Infinity when it cannot be told. */
function freeBytes(dir: string): number {
  try {
    const stats = statfsSync(dir);
    return stats.bavail * stats.bsize;
  } catch {
    return Infinity;
  }
}

export class StorageHealth {
  private failure: { since: string; reason: string } | undefined;
  private readonly waiting: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly dataDir: string,
    /** A small write that commits (the probe while not writable). */
    private readonly probeWrite: () => void,
    private readonly intervalMs = PROBE_INTERVAL_MS,
  ) {}

  get state(): StorageState {
    return this.failure ? { writable: false, ...this.failure } : { writable: true };
  }

  /** Records a failed write (if it was for want of space) and returns the error to throw. */
  failed(error: unknown): unknown {
    if (!isStorageFull(error)) return error;
    const full = error instanceof StorageFullError ? error : new StorageFullError(this.dataDir, error);
    this.failure ??= { since: new Date().toISOString(), reason: full.message };
    this.timer ??= setInterval(() => this.probe(), this.intervalMs).unref();
    return full;
  }

  /** Runs `retry` once writes work again (now, when they do). */
  whenWritable(retry: () => void): void {
    if (!this.failure) retry();
    else this.waiting.push(retry);
  }

  /** Tries a write; on success the store is writable again and the waiting writes are retried. */
  probe(): boolean {
    if (!this.failure) return true;
    if (freeBytes(this.dataDir) < MIN_FREE_BYTES) return false;
    try {
      this.probeWrite();
    } catch {
      return false;
    }
    this.failure = undefined;
    clearInterval(this.timer);
    this.timer = undefined;
    for (const retry of this.waiting.splice(0)) retry(); // a retry that fails again waits anew
    return true;
  }

  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

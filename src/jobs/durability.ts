// Durability of the runtime's data, one setting for the store and the result files:
// - `normal` (default): everything survives a crash of the service process (kill -9, out of
//   memory, a native abort): SQLite commits in WAL mode with synchronous = NORMAL and result files
//   are written without waiting for the device. An OS crash or power loss may lose the last
//   seconds of work; the result files of that window are checked when the runtime next opens (an
//   "open" marker tells that it was not closed cleanly) and a task whose file did not reach the
//   disk intact is queued again, so it runs once more instead of pointing at a damaged file.
// - `full`: also an OS crash or power loss: every commit is flushed (synchronous = FULL) and every
//   result file is flushed to the device before its task completes (≈ 1–2 ms per task here).
// The check looks at the file's structure (size, the format's magic bytes, Parquet's footer);
// damage inside a structurally complete file is still caught on reading by the column checksums.
import { closeSync, existsSync, openSync, readdirSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Durability } from '../store/open.js';
import type { Store } from '../store/types.js';
import { TEMPORARY_NAME } from './cache/formats/index.js';
import type { StorageFormat } from './types.js';

export type { Durability } from '../store/open.js';
export const DURABILITY_LEVELS: readonly Durability[] = ['normal', 'full'];

/** An OS writes dirty file data back within ~35 s (Linux: 30 s expiry + 5 s interval); twice that. */
export const RECOVERY_WINDOW_MS = 60_000;

const MARKER = '.runtime-open';

/**
 * Marks the data directory as in use; returns whether the previous runtime left it marked (it did
 * not close cleanly). `release()` removes the mark on a clean close.
 */
export function markOpen(dataDir: string): { uncleanBefore: boolean; release(): void } {
  const marker = join(dataDir, MARKER);
  const uncleanBefore = existsSync(marker);
  writeFileSync(marker, `${process.pid}\n`);
  return { uncleanBefore, release: () => rmSync(marker, { force: true }) };
}

function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  readSync(fd, buffer, 0, length, position);
  return buffer;
}

const HDF5_SIGNATURE = Buffer.from([0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Whether the file is structurally complete for its format (not truncated, not zero-filled). */
export function looksComplete(path: string, format: StorageFormat): boolean {
  let fd: number | undefined;
  try {
    const { size } = statSync(path);
    if (size === 0) return false;
    fd = openSync(path, 'r');
    switch (format) {
      case 'parquet': {
        // "PAR1" <data> <footer> <footer length: u32 LE> "PAR1"
        if (size < 12 || readAt(fd, 0, 4).toString('latin1') !== 'PAR1') return false;
        const tail = readAt(fd, size - 8, 8);
        return tail.toString('latin1', 4) === 'PAR1' && tail.readUInt32LE(0) + 12 <= size;
      }
      case 'hdf5':
        return size >= 8 && readAt(fd, 0, 8).equals(HDF5_SIGNATURE);
      case 'csv': {
        const head = readAt(fd, 0, 2);
        if (head[0] === 0x1f && head[1] === 0x8b) return size >= 18; // gzip: header + trailer at least
        return readAt(fd, size - 1, 1)[0] === 0x0a; // every CSV result ends with a newline
      }
      default:
        return false;
    }
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * After an unclean close: queues again every task completed within RECOVERY_WINDOW_MS of the last
 * completion whose result file is missing or damaged. Returns the ids queued again.
 */
export function requeueDamagedResults(store: Store, resultPath: (id: string) => string, format: StorageFormat): string[] {
  const newest = store.tasks.newestCompletion();
  if (newest === undefined) return [];
  const since = new Date(Date.parse(newest) - RECOVERY_WINDOW_MS).toISOString();
  const requeued: string[] = [];
  for (const task of store.tasks.completedSince(since)) {
    if (looksComplete(resultPath(task.id), format)) continue;
    store.transaction(() => {
      store.tasks.update(task.id, { state: 'queued', completedAt: null, runMs: null, progress: null, retryAt: null, cacheHit: false, summary: null });
      store.logs.append({
        timestamp: new Date().toISOString(),
        level: 'WARNING',
        message: 'the result file did not reach the disk intact before the system stopped; running the task again',
        taskId: task.id,
      });
    });
    requeued.push(task.id);
  }
  return requeued;
}

function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, someone else's
  }
}

/**
 * Removes the temporary files that writers of a stopped process left behind (a crash in the middle
 * of a result write leaves one; its task runs again and writes its file anew). Files of living
 * processes are kept. Returns the removed paths; a missing directory is skipped.
 */
export function removeAbandonedTemporaries(dirs: string[]): string[] {
  const removed: string[] = [];
  for (const dir of dirs) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      const match = TEMPORARY_NAME.exec(name);
      if (!match || processAlive(Number(match[1]))) continue;
      rmSync(join(dir, name), { force: true });
      removed.push(join(dir, name));
    }
  }
  return removed;
}

// WAL checkpoints on a thread of their own. SQLite runs its automatic checkpoint inside the
// commit that takes the WAL past `wal_autocheckpoint` pages, on the committing thread: it copies
// the WAL into the database file and, with synchronous NORMAL or FULL, flushes both to the disk
// (https://www.sqlite.org/wal.html#ckpt, https://www.sqlite.org/pragma.html#pragma_synchronous).
// For the service that is a stall of the event loop of tens of milliseconds every few hundred
// commits. Here the main connection turns automatic checkpoints off and a worker thread with its
// own connection checkpoints every `intervalMs`. Should that thread fail or
// stop, the main connection turns its automatic checkpoints back on, so the WAL never grows
// without bound.
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import type { Db } from './statements.js';

/** SQLite's default, restored when the checkpoint thread is gone. */
const AUTOCHECKPOINT_PAGES = 1000;
export const DEFAULT_CHECKPOINT_INTERVAL_MS = 250;

export interface Checkpointer {
  /** Stops the thread (its connection checkpoints and closes); idempotent. Resolves once the thread has exited. */
  stop(): Promise<void>;
  /** The thread, when one could be started. */
  readonly thread?: Worker;
}

export interface CheckpointSettings {
  file: string;
  /** The main connection's synchronous setting (NORMAL or FULL): the checkpoint flushes alike. */
  synchronous: 'NORMAL' | 'FULL';
  intervalMs: number;
  busyTimeoutMs: number;
}

/**
 * The thread's code: its own connection, a PASSIVE checkpoint every `intervalMs` (it copies what
 * it can without waiting for the main connection's locks, so the writer never waits for it), and
 * a close on "stop". A failing checkpoint ends the thread with the error. Plain JavaScript given
 * as source (with better-sqlite3 resolved here), so that it runs alike from the compiled package
 * and from the TypeScript sources under tsx, whose loader an eval'd thread does not get.
 */
function workerSource(): string {
  const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
  return `
    const Database = require(${JSON.stringify(sqlite)});
    const { parentPort, workerData } = require('node:worker_threads');
    const db = new Database(workerData.file, { timeout: workerData.busyTimeoutMs, fileMustExist: true });
    db.pragma('synchronous = ' + workerData.synchronous);
    const timer = setInterval(() => db.pragma('wal_checkpoint(PASSIVE)'), workerData.intervalMs);
    parentPort.on('message', (message) => {
      if (message !== 'stop') return;
      clearInterval(timer);
      db.close();
      parentPort.close();
    });`;
}

export function startCheckpointer(db: Db, settings: CheckpointSettings): Checkpointer {
  let stopped = false;
  const takeBack = (): void => {
    if (db.open) db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  };
  let worker: Worker;
  try {
    worker = new Worker(workerSource(), { eval: true, workerData: settings });
  } catch {
    return { stop: () => Promise.resolve() }; // no thread to spare: SQLite's automatic checkpoints stay on
  }
  db.pragma('wal_autocheckpoint = 0');
  worker.unref(); // never keeps the process alive
  worker.on('error', takeBack);
  const exited = new Promise<void>((resolve) => {
    worker.on('exit', () => {
      if (!stopped) takeBack();
      resolve();
    });
  });
  return {
    thread: worker,
    stop(): Promise<void> {
      if (!stopped) {
        stopped = true;
        worker.ref(); // whoever awaits the exit keeps the process alive until the thread has closed its connection
        worker.postMessage('stop');
      }
      return exited;
    },
  };
}

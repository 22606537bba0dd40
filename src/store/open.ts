// Opening the durable store: creates the data directory, opens <dataDir>/pesim.db in WAL mode with
// foreign keys on, applies the schema migrations and builds one repository of each kind over the
// single connection. better-sqlite3 is synchronous, so every call is one complete statement or
// transaction; Store.transaction groups several calls into one.
import Database from 'better-sqlite3';
import { accessSync, constants, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteBatchRepository } from './batches.js';
import { SqliteBatchResults } from './batch-results.js';
import { SqliteCacheIndexRepository } from './cache-index.js';
import { DEFAULT_CHECKPOINT_INTERVAL_MS, startCheckpointer, type Checkpointer } from './checkpointer.js';
import { SqliteCircuitRepository } from './circuits.js';
import { SqliteCounterRepository } from './counters.js';
import { DEFAULT_MAX_LOG_ROWS, SqliteLogRepository } from './logs.js';
import { migrate } from './migrations.js';
import type { Db } from './statements.js';
import { SqliteTaskRepository } from './tasks.js';
import type { Store } from './types.js';

export const DATABASE_FILE = 'pesim.db';
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/** `normal`: commits survive a crash of the process (SQLite synchronous = NORMAL in WAL mode);
 *  `full`: also an OS crash or power loss (synchronous = FULL: every commit is flushed). */
export type Durability = 'normal' | 'full';

export interface StoreOptions {
  durability?: Durability;
  /** Bound of the log table (the oldest rows beyond it are deleted). */
  maxLogRows?: number;
  /** How long a statement waits for another connection's lock before failing [ms]. */
  busyTimeoutMs?: number;
  /**
   * Period of the WAL checkpoints, which run on a thread of their own (checkpointer.ts) [ms];
   * 0 leaves them to SQLite, inside the commits of the main connection.
   */
  checkpointIntervalMs?: number;
}

/** PESIM_DATA_DIR, or ./data under the working directory. */
export function defaultDataDir(): string {
  const fromEnv = process.env.PESIM_DATA_DIR;
  return fromEnv !== undefined && fromEnv !== '' ? fromEnv : join(process.cwd(), 'data');
}

class SqliteStore implements Store {
  readonly tasks: SqliteTaskRepository;
  readonly circuits: SqliteCircuitRepository;
  readonly batches: SqliteBatchRepository;
  readonly batchResults: SqliteBatchResults;
  readonly cacheIndex: SqliteCacheIndexRepository;
  readonly logs: SqliteLogRepository;
  readonly counters: SqliteCounterRepository;
  private readonly runInTransaction: (fn: () => unknown) => unknown;

  constructor(
    readonly dataDir: string,
    private readonly db: Db,
    options: StoreOptions,
    private readonly checkpointer?: Checkpointer,
  ) {
    this.tasks = new SqliteTaskRepository(db);
    this.circuits = new SqliteCircuitRepository(db);
    this.batches = new SqliteBatchRepository(db);
    this.batchResults = new SqliteBatchResults(db);
    this.cacheIndex = new SqliteCacheIndexRepository(db);
    this.logs = new SqliteLogRepository(db, options.maxLogRows ?? DEFAULT_MAX_LOG_ROWS);
    this.counters = new SqliteCounterRepository(db);
    // One wrapper for every call: db.transaction(fn) builds a new wrapper per function.
    this.runInTransaction = db.transaction((fn: () => unknown) => fn());
  }

  /** Nested calls become savepoints; fn must be synchronous (a returned promise is refused). */
  transaction<T>(fn: () => T): T {
    return this.runInTransaction(fn) as T;
  }

  private checkpointsStopped: Promise<void> = Promise.resolve();

  /** Idempotent. The checkpoint thread closes its own connection afterwards: see whenClosed(). */
  close(): void {
    if (this.checkpointer) this.checkpointsStopped = this.checkpointer.stop();
    if (this.db.open) this.db.close();
  }

  /** Resolves once the checkpoint thread has closed its connection too (no file of the store is open). */
  whenClosed(): Promise<void> {
    return this.checkpointsStopped;
  }
}

/** Opens (creating it if need be) the database file with the store's connection settings. */
export function openDatabase(file: string, busyTimeoutMs = DEFAULT_BUSY_TIMEOUT_MS, durability: Durability = 'normal'): Db {
  const db = new Database(file, { timeout: busyTimeoutMs });
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
    db.pragma('journal_mode = WAL');
    // With WAL, NORMAL never corrupts the database; a power loss (not a process crash) may lose
    // the last commits. FULL flushes the WAL at every commit.
    db.pragma(`synchronous = ${durability === 'full' ? 'FULL' : 'NORMAL'}`);
    db.pragma('foreign_keys = ON');
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * The error for a data directory the store cannot create or write (a read-only file system, no
 * permission): it names the path, the failure and what the store needs.
 */
export function unusableDataDir(dataDir: string, error: unknown): Error {
  const reason = (error as Error)?.message ?? String(error);
  return new Error(
    `The data directory ${dataDir} cannot be used (${reason}): the store needs a directory it can create, `
      + `read and write (a writable file system, write permission for this user) to keep ${DATABASE_FILE}, results and the cache; `
      + 'choose another with --data-dir or PESIM_DATA_DIR, or make this one writable',
    { cause: error },
  );
}

/** Whether the directory takes a new file (checked before SQLite reports "unable to open database file"). */
function checkWritable(dataDir: string): void {
  accessSync(dataDir, constants.W_OK);
  const probe = join(dataDir, `.write-check-${process.pid}`);
  writeFileSync(probe, '');
  rmSync(probe, { force: true });
}

export function openStore(dataDir: string, options: StoreOptions = {}): Store {
  try {
    mkdirSync(dataDir, { recursive: true });
    checkWritable(dataDir);
  } catch (error) {
    throw unusableDataDir(dataDir, error);
  }
  const file = join(dataDir, DATABASE_FILE);
  let db: Db;
  try {
    db = openDatabase(file, options.busyTimeoutMs, options.durability);
  } catch (error) {
    throw unusableDataDir(dataDir, error);
  }
  try {
    migrate(db, file);
    const intervalMs = options.checkpointIntervalMs ?? DEFAULT_CHECKPOINT_INTERVAL_MS;
    const checkpointer = intervalMs > 0
      ? startCheckpointer(db, {
          file,
          synchronous: options.durability === 'full' ? 'FULL' : 'NORMAL',
          intervalMs,
          busyTimeoutMs: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS,
        })
      : undefined;
    return new SqliteStore(dataDir, db, options, checkpointer);
  } catch (error) {
    db.close();
    throw error;
  }
}

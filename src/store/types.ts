// Repository interfaces of the durable store (SQLite). Every write is one transaction; reads return
// plain records (src/store/records.ts).
import type { CacheEntryRecord, LogLevel, LogRecord, Priority, TaskRecord, TaskState } from './records.js';
import type { Netlist } from '../formats/netlist.js';
import type { SqliteBatchResults } from './batch-results.js';
import type { InsertPlan } from './tasks.js';

export interface CircuitRecord {
  id: string;
  name: string;
  format: 'ipes' | 'spice' | 'json';
  netlist: Netlist;
  /** The uploaded file's bytes, kept for writers and for hashing by file. */
  source: Uint8Array | null;
  warnings: string[];
  createdAt: string;
}

export interface BatchRecord {
  id: string;
  owner: string;
  taskIds: string[];
  createdAt: string;
}

export interface TaskFilter {
  owner?: string;
  states?: TaskState[];
  batchId?: string;
  limit?: number;
  offset?: number;
}

export interface TaskRepository {
  insert(task: TaskRecord): void;
  /** Inserts all or none; returns their sequence numbers (scheduling order within a priority). */
  insertMany(tasks: TaskRecord[]): number[];
  /** insertMany in two parts: what needs no database (made ahead, e.g. while checks run), then the writes. */
  planInsert(tasks: TaskRecord[]): InsertPlan;
  insertPlanned(plan: InsertPlan): number[];
  get(id: string): TaskRecord | undefined;
  update(id: string, patch: Partial<Omit<TaskRecord, 'id'>>): TaskRecord;
  /** update() given the task's current record: the result is `current` with the patch applied. */
  updateFrom(current: TaskRecord, patch: Partial<Omit<TaskRecord, 'id'>>): TaskRecord;
  /** Newest first. */
  list(filter: TaskFilter): { tasks: TaskRecord[]; total: number };
  /** Tasks in the given states, in scheduling order: priority (CRITICAL first), then submission. */
  inStates(states: TaskState[]): TaskRecord[];
  /** Up to `limit` queued tasks of the priority with a sequence number above `afterSeq`, in order. */
  queuedPage(priority: Priority, afterSeq: number, limit: number): { task: TaskRecord; seq: number }[];
  /** Tasks per state (of the owner), from the counts the store keeps (no count over the rows). */
  countByState(owner?: string): Record<TaskState, number>;
  countByPriority(state: TaskState): Record<Priority, number>;
  /** Completed tasks whose completedAt is at or after `since` (ISO 8601), in submission order. */
  completedSince(since: string): TaskRecord[];
  /** The latest completedAt of any completed task. */
  newestCompletion(): string | undefined;
  /** The queued tasks of the batch, in submission order. */
  queuedOfBatch(batchId: string): TaskRecord[];
  /**
   * Every queued task of the batch becomes cancelled at `completedAt` (no retry time), in one
   * statement; returns how many did.
   */
  cancelQueuedOfBatch(batchId: string, completedAt: string): number;
}

export interface CircuitRepository {
  insert(circuit: CircuitRecord): void;
  get(id: string): CircuitRecord | undefined;
  /** Newest first. */
  list(limit: number, offset: number): { circuits: CircuitRecord[]; total: number };
  update(id: string, patch: Partial<Omit<CircuitRecord, 'id'>>): CircuitRecord;
  delete(id: string): boolean;
}

export interface BatchRepository {
  insert(batch: BatchRecord): void;
  /** The batch of the tasks stored with its id, in submission order; returns how many it holds. */
  insertOfTasks(batch: Omit<BatchRecord, 'taskIds'>): number;
  get(id: string): BatchRecord | undefined;
}

export interface CacheIndexRepository {
  upsert(entry: CacheEntryRecord): void;
  get(key: string): CacheEntryRecord | undefined;
  /** Records an access (accessed_at = now, access_count + 1). */
  touch(key: string, at: string): void;
  delete(key: string): void;
  /** Entries whose expiresAt is before `now`. */
  expired(now: string): CacheEntryRecord[];
  all(): CacheEntryRecord[];
  clear(): CacheEntryRecord[];
  /** Counts and totals for statistics. */
  summary(): { entries: number; bytes: number; oldest: string | null; newest: string | null };
}

export interface LogRepository {
  append(record: LogRecord): void;
  /** Newest first; `level` filters to that level and above (DEBUG < INFO < WARNING < ERROR). */
  recent(limit: number, level?: LogLevel): LogRecord[];
}

/** Persistent counters (cache hits and misses, ...). */
export interface CounterRepository {
  add(name: string, delta: number): void;
  get(name: string): number;
}

export interface Store {
  readonly dataDir: string;
  readonly tasks: TaskRepository;
  readonly circuits: CircuitRepository;
  readonly batches: BatchRepository;
  /** A batch's header, counts and results table, at any size (batch-results.ts). */
  readonly batchResults: SqliteBatchResults;
  readonly cacheIndex: CacheIndexRepository;
  readonly logs: LogRepository;
  readonly counters: CounterRepository;
  /** Runs fn in one transaction. */
  transaction<T>(fn: () => T): T;
  close(): void;
  /** Resolves once every connection to the database files is closed (after close()). */
  whenClosed(): Promise<void>;
}

// The index of the result cache: one row per cache key naming the result file, what it holds, its
// size, access statistics and expiry time. The files themselves live in the cache directory.
import { COMPRESSIONS, STORAGE_FORMATS, type CacheEntryRecord } from './records.js';
import type { ParameterOverrides } from '../formats/netlist.js';
import {
  checkTimestamp,
  columnList,
  decodeRow,
  encodeRecord,
  integer,
  json,
  nullableTimestamp,
  oneOf,
  parameterList,
  real,
  text,
  timestamp,
  type RecordCodec,
  type Row,
} from './codec.js';
import type { Db, Statement } from './statements.js';
import type { CacheIndexRepository } from './types.js';

const ENTRY: RecordCodec<CacheEntryRecord> = {
  key: text('key'),
  file: text('file'),
  format: oneOf('format', STORAGE_FORMATS),
  compression: oneOf('compression', COMPRESSIONS),
  modelFile: text('model_file'),
  parameters: json<ParameterOverrides>('parameters', 'object'),
  createdAt: timestamp('created_at'),
  accessedAt: timestamp('accessed_at'),
  accessCount: integer('access_count'),
  sizeBytes: integer('size_bytes'),
  expiresAt: nullableTimestamp('expires_at'),
  runMs: real('run_ms'),
};

const COLUMNS = columnList(ENTRY);
const UPDATES = COLUMNS.split(', ')
  .filter((c) => c !== 'key')
  .map((c) => `${c} = excluded.${c}`)
  .join(', ');

export class SqliteCacheIndexRepository implements CacheIndexRepository {
  private readonly upsertRow: Statement;
  private readonly selectByKey: Statement;
  private readonly touchRow: Statement;
  private readonly deleteByKey: Statement;
  private readonly selectExpired: Statement;
  private readonly selectAll: Statement;
  private readonly deleteAll: Statement;
  private readonly selectSummary: Statement;
  private readonly clearAll: () => CacheEntryRecord[];

  constructor(db: Db) {
    this.upsertRow = db.prepare(`INSERT INTO cache_entries (${COLUMNS}) VALUES (${parameterList(ENTRY)}) ON CONFLICT (key) DO UPDATE SET ${UPDATES}`);
    this.selectByKey = db.prepare(`SELECT ${COLUMNS} FROM cache_entries WHERE key = ?`);
    this.touchRow = db.prepare('UPDATE cache_entries SET accessed_at = ?, access_count = access_count + 1 WHERE key = ?');
    this.deleteByKey = db.prepare('DELETE FROM cache_entries WHERE key = ?');
    this.selectExpired = db.prepare(`SELECT ${COLUMNS} FROM cache_entries WHERE expires_at IS NOT NULL AND expires_at < ? ORDER BY expires_at, key`);
    this.selectAll = db.prepare(`SELECT ${COLUMNS} FROM cache_entries ORDER BY created_at, key`);
    this.deleteAll = db.prepare('DELETE FROM cache_entries');
    this.selectSummary = db.prepare(
      'SELECT count(*) AS entries, coalesce(sum(size_bytes), 0) AS bytes, min(created_at) AS oldest, max(created_at) AS newest FROM cache_entries',
    );
    this.clearAll = db.transaction(() => {
      const entries = this.all();
      this.deleteAll.run();
      return entries;
    });
  }

  upsert(entry: CacheEntryRecord): void {
    this.upsertRow.run(encodeRecord('cache entry', ENTRY, entry));
  }

  get(key: string): CacheEntryRecord | undefined {
    const row = this.selectByKey.get(key) as Row | undefined;
    return row && decodeRow(ENTRY, row);
  }

  touch(key: string, at: string): void {
    this.touchRow.run(checkTimestamp(at, 'touch time'), key);
  }

  delete(key: string): void {
    this.deleteByKey.run(key);
  }

  expired(now: string): CacheEntryRecord[] {
    return (this.selectExpired.all(checkTimestamp(now, 'now')) as Row[]).map((row) => decodeRow(ENTRY, row));
  }

  /** Oldest first. */
  all(): CacheEntryRecord[] {
    return (this.selectAll.all() as Row[]).map((row) => decodeRow(ENTRY, row));
  }

  /** Removes every entry and returns them (to delete their files). */
  clear(): CacheEntryRecord[] {
    return this.clearAll();
  }

  /** Oldest and newest are creation times. */
  summary(): { entries: number; bytes: number; oldest: string | null; newest: string | null } {
    return this.selectSummary.get() as { entries: number; bytes: number; oldest: string | null; newest: string | null };
  }
}

// Prepared statements of a repository whose SQL depends on the shape of a call (which columns a
// patch sets, which filters a listing uses): each shape is prepared on first use and kept, so the
// few shapes callers use are compiled once. Fixed statements are prepared in the constructors.
import type Database from 'better-sqlite3';

export type Db = Database.Database;
export type Statement = Database.Statement<unknown[], unknown>;

export class StatementCache {
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly db: Db) {}

  /** The statement of `key`, prepared from `sql()` the first time. */
  get(key: string, sql: () => string): Statement {
    let statement = this.statements.get(key);
    if (!statement) {
      statement = this.db.prepare(sql());
      this.statements.set(key, statement);
    }
    return statement;
  }
}

/** `UPDATE table SET a = @a, ... WHERE key = @key` for the given columns. */
export function updateSql(table: string, columns: string[], keyColumn: string): string {
  return `UPDATE ${table} SET ${columns.map((c) => `${c} = @${c}`).join(', ')} WHERE ${keyColumn} = @${keyColumn}`;
}

/** A page size as SQLite's LIMIT takes it: -1 for no limit, never negative otherwise. */
export function sqlLimit(limit: number | undefined): number {
  if (limit === undefined) return -1;
  if (!Number.isFinite(limit)) return limit > 0 ? -1 : 0;
  return Math.max(0, Math.floor(limit));
}

/**
 * A row offset as SQLite's OFFSET takes it: never negative, and at most 2^53 − 1 (SQLite refuses a
 * double beyond its 64-bit integers; no table has that many rows, so the page is empty either way).
 */
export function sqlOffset(offset: number | undefined): number {
  if (offset === undefined || Number.isNaN(offset)) return 0;
  return Math.min(Number.MAX_SAFE_INTEGER, Math.max(0, Math.floor(offset)));
}

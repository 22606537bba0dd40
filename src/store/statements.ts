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

export function sqlOffset(offset: number | undefined): number {
  if (offset === undefined || !Number.isFinite(offset)) return 0;
  return Math.max(0, Math.floor(offset));
}

// Versioned schema migrations. `schema_migrations` records each applied version; migrate() applies
// the missing ones in order, each in its own IMMEDIATE transaction (so two processes opening the
// same database cannot both apply one), and refuses a database written by a newer pesim.
import { StoreError } from './errors.js';
import { SCHEMA_V1, SCHEMA_V2, SCHEMA_V3, SCHEMA_V4 } from './schema.js';
import type { Db } from './statements.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Every migration the code knows, in ascending version order. Append only. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'initial schema', sql: SCHEMA_V1 },
  { version: 2, name: 'task result summaries', sql: SCHEMA_V2 },
  { version: 3, name: 'batch counts by state', sql: SCHEMA_V3 },
  { version: 4, name: 'shared task templates and kept counts', sql: SCHEMA_V4 },
];

export interface AppliedMigration {
  version: number;
  name: string;
  appliedAt: string;
}

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version    INTEGER PRIMARY KEY,
  name       TEXT NOT NULL,
  applied_at TEXT NOT NULL
) STRICT`;

function checkOrder(migrations: readonly Migration[]): void {
  let previous = 0;
  for (const m of migrations) {
    if (!Number.isSafeInteger(m.version) || m.version <= previous) {
      throw new Error(`schema migrations out of order: version ${m.version} (${m.name}) after ${previous}`);
    }
    previous = m.version;
  }
}

/** The highest applied version (0 for a new database). */
export function schemaVersion(db: Db): number {
  db.exec(CREATE_TABLE);
  const row = db.prepare('SELECT max(version) AS version FROM schema_migrations').get() as { version: number | null };
  return row.version ?? 0;
}

export function appliedMigrations(db: Db): AppliedMigration[] {
  db.exec(CREATE_TABLE);
  const rows = db.prepare('SELECT version, name, applied_at FROM schema_migrations ORDER BY version').all() as {
    version: number;
    name: string;
    applied_at: string;
  }[];
  return rows.map((r) => ({ version: r.version, name: r.name, appliedAt: r.applied_at }));
}

/**
 * Applies the migrations not yet recorded, in order; returns the versions applied now. `label`
 * names the database in error messages.
 */
export function migrate(db: Db, label: string, migrations: readonly Migration[] = MIGRATIONS, now: () => string = () => new Date().toISOString()): number[] {
  checkOrder(migrations);
  const known = migrations.at(-1)?.version ?? 0;
  const current = schemaVersion(db);
  if (current > known) {
    throw new StoreError(
      'SCHEMA_TOO_NEW',
      `The database ${label} has schema version ${current}, but this pesim knows versions up to ${known}. ` +
        'It was written by a newer pesim: run that version, or point the data directory elsewhere.',
    );
  }
  const isApplied = db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').pluck();
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  const applied: number[] = [];
  for (const m of migrations) {
    if (m.version <= current) continue;
    const apply = db.transaction(() => {
      if (isApplied.get(m.version) !== undefined) return false; // another process was first
      db.exec(m.sql);
      record.run(m.version, m.name, now());
      return true;
    });
    try {
      if (apply.immediate()) applied.push(m.version);
    } catch (error) {
      throw new StoreError('MIGRATION_FAILED', `Schema migration ${m.version} (${m.name}) of ${label} failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
  return applied;
}

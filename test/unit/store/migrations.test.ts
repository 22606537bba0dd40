// Opening the store: pragmas, schema migrations applied once and recorded, a database from a newer
// pesim refused, a failing migration leaving nothing behind, and the default data directory.
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appliedMigrations, migrate, MIGRATIONS, schemaVersion, type Migration } from '../../../src/store/migrations.js';
import { DATABASE_FILE, defaultDataDir, openDatabase, openStore } from '../../../src/store/open.js';
import { thrown } from './helpers.js';

describe('store: opening and migrations', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pesim-store-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const inspect = <T>(fn: (db: Database.Database) => T): T => {
    const db = new Database(join(dir, DATABASE_FILE));
    try {
      return fn(db);
    } finally {
      db.close();
    }
  };

  it('creates the directory and a WAL database with every table', () => {
    const nested = join(dir, 'a', 'b');
    const store = openStore(nested);
    expect(store.dataDir).to.equal(nested);
    store.close();
    store.close(); // idempotent
    expect(existsSync(join(nested, DATABASE_FILE))).to.equal(true);
    const db = new Database(join(nested, DATABASE_FILE));
    try {
      expect(db.pragma('journal_mode', { simple: true })).to.equal('wal');
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all();
      expect(tables).to.deep.equal(['batch_counts', 'batch_tasks', 'batches', 'cache_entries', 'circuits', 'counters', 'logs', 'schema_migrations', 'task_counts', 'task_templates', 'tasks']);
      const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'tasks' AND sql IS NOT NULL").pluck().all();
      expect(indexes).to.include('tasks_schedule');
    } finally {
      db.close();
    }
  });

  it('configures its connection: WAL, foreign keys, busy time-out, synchronous NORMAL', () => {
    const db = openDatabase(join(dir, DATABASE_FILE), 1234);
    try {
      expect(db.pragma('journal_mode', { simple: true })).to.equal('wal');
      expect(db.pragma('foreign_keys', { simple: true })).to.equal(1);
      expect(db.pragma('busy_timeout', { simple: true })).to.equal(1234);
      expect(db.pragma('synchronous', { simple: true })).to.equal(1);
      migrate(db, 'test');
      // With foreign keys on, a batch_tasks row must name an existing batch.
      expect(() => db.prepare('INSERT INTO batch_tasks (batch_id, position, task_id) VALUES (?, ?, ?)').run('none', 0, 't')).to.throw(/FOREIGN KEY/);
    } finally {
      db.close();
    }
  });

  it('applies every migration once, records it, and applies nothing on reopening', () => {
    openStore(dir).close();
    const first = inspect((db) => appliedMigrations(db));
    expect(first.map((m) => m.version)).to.deep.equal(MIGRATIONS.map((m) => m.version));
    expect(first.map((m) => m.name)).to.deep.equal(MIGRATIONS.map((m) => m.name));
    expect(Number.isNaN(Date.parse(first[0].appliedAt))).to.equal(false);

    openStore(dir).close();
    expect(inspect((db) => appliedMigrations(db))).to.deep.equal(first);
    expect(inspect((db) => migrate(db, 'test'))).to.deep.equal([]);
  });

  it('applies only the migrations a database lacks, in order', () => {
    const extra: Migration[] = [
      ...MIGRATIONS,
      { version: 7, name: 'notes', sql: 'CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL) STRICT' },
      { version: 9, name: 'note index', sql: 'CREATE INDEX notes_body ON notes (body)' },
    ];
    openStore(dir).close();
    const applied = inspect((db) => migrate(db, 'test', extra, () => '2025-01-01T00:00:00.000Z'));
    expect(applied).to.deep.equal([7, 9]);
    expect(inspect((db) => schemaVersion(db))).to.equal(9);
    expect(inspect((db) => appliedMigrations(db).slice(-2))).to.deep.equal([
      { version: 7, name: 'notes', appliedAt: '2025-01-01T00:00:00.000Z' },
      { version: 9, name: 'note index', appliedAt: '2025-01-01T00:00:00.000Z' },
    ]);
  });

  it('upgrades a version-1 database: its tasks keep their fields and read with no result summary', () => {
    inspect((db) => {
      migrate(db, 'v1', MIGRATIONS.slice(0, 1));
      db.prepare(
        `INSERT INTO tasks (id, owner, priority, state, spec, request, submitted_at, started_at, completed_at, attempts, cache_hit, run_ms, progress)
         VALUES ('t1', 'simulation', 'HIGH', 'completed', '{"netlist":{},"parameters":{}}', NULL, '2025-01-01T00:00:00.000Z',
                 '2025-01-01T00:00:01.000Z', '2025-01-01T00:00:02.000Z', 1, 0, 12.5, NULL)`,
      ).run();
    });
    const store = openStore(dir);
    try {
      const task = store.tasks.get('t1')!;
      expect(task).to.include({ state: 'completed', priority: 'HIGH', runMs: 12.5, summary: null });
      const summary = { measurements: { 'SCOPE.1.ch1.avg': 2.5, 'SCOPE.1.ch1.max': Infinity }, signals: ['SCOPE.1.ch1'] };
      expect(store.tasks.update('t1', { summary }).summary).to.deep.equal(summary);
      expect(store.tasks.get('t1')!.summary).to.deep.equal(summary);
    } finally {
      store.close();
    }
    expect(inspect((db) => appliedMigrations(db).map((m) => m.name))).to.deep.equal(['initial schema', 'task result summaries', 'batch counts by state', 'shared task templates and kept counts']);
  });

  it('refuses to open a database whose schema is newer than the code', () => {
    openStore(dir).close();
    inspect((db) => db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(999, 'future', '2030-01-01T00:00:00.000Z'));
    const error = thrown(() => openStore(dir));
    expect(error.code).to.equal('SCHEMA_TOO_NEW');
    expect(error.message).to.contain('999').and.contain(DATABASE_FILE);
  });

  it('leaves nothing of a failing migration and does not record it', () => {
    openStore(dir).close();
    const broken: Migration[] = [
      ...MIGRATIONS,
      { version: MIGRATIONS.at(-1)!.version + 1, name: 'half done', sql: 'CREATE TABLE half (id INTEGER); INSERT INTO nowhere VALUES (1);' },
    ];
    const error = thrown(() => inspect((db) => migrate(db, 'test db', broken)));
    expect(error.code).to.equal('MIGRATION_FAILED');
    expect(error.message).to.contain('half done').and.contain('nowhere');
    expect(inspect((db) => db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'half'").pluck().get())).to.equal(0);
    expect(inspect((db) => schemaVersion(db))).to.equal(MIGRATIONS.at(-1)!.version);
  });

  it('refuses a migration list out of order', () => {
    const db = new Database(':memory:');
    try {
      expect(() => migrate(db, 'mem', [{ version: 2, name: 'b', sql: '' }, { version: 1, name: 'a', sql: '' }])).to.throw(/out of order/);
    } finally {
      db.close();
    }
  });

  it('takes the default data directory from PESIM_DATA_DIR, else ./data', () => {
    const saved = process.env.PESIM_DATA_DIR;
    try {
      process.env.PESIM_DATA_DIR = '/srv/pesim';
      expect(defaultDataDir()).to.equal('/srv/pesim');
      delete process.env.PESIM_DATA_DIR;
      expect(defaultDataDir()).to.equal(join(process.cwd(), 'data'));
    } finally {
      if (saved === undefined) delete process.env.PESIM_DATA_DIR;
      else process.env.PESIM_DATA_DIR = saved;
    }
  });
});

// The log repository: newest first, minimum-level filtering, the limit, optional fields, and the
// bound on the table's size (default 10 000 rows).
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import type { LogLevel, LogRecord } from '../../../src/jobs/types.js';
import { DEFAULT_MAX_LOG_ROWS } from '../../../src/store/logs.js';
import { DATABASE_FILE } from '../../../src/store/open.js';
import { at, tempStore, thrown, type TempStore } from './helpers.js';

const LEVELS: LogLevel[] = ['DEBUG', 'INFO', 'WARNING', 'ERROR'];

describe('store: logs', () => {
  let t: TempStore | undefined;
  afterEach(async () => {
    await t?.dispose();
    t = undefined;
  });

  it('returns records newest first, with their optional fields only when given', () => {
    t = tempStore();
    const records: LogRecord[] = [
      { timestamp: at(0), level: 'INFO', message: 'queued (NORMAL)', taskId: 't1' },
      { timestamp: at(1), level: 'INFO', message: 'completed', taskId: 't1', duration: 12.5 },
      { timestamp: at(1), level: 'WARNING', message: 'no task' },
    ];
    for (const r of records) t.store.logs.append(r);
    expect(t.store.logs.recent(10)).to.deep.equal([...records].reverse());
    expect(t.store.logs.recent(2)).to.deep.equal([records[2], records[1]]);
    expect(t.store.logs.recent(0)).to.deep.equal([]);
  });

  it('filters to the given level and above', () => {
    t = tempStore();
    for (let i = 0; i < 12; i++) t.store.logs.append({ timestamp: at(i), level: LEVELS[i % 4], message: `m${i}` });
    const messages = (level?: LogLevel, limit = 100): string[] => t!.store.logs.recent(limit, level).map((r) => r.message);
    expect(messages('ERROR')).to.deep.equal(['m11', 'm7', 'm3']);
    expect(messages('WARNING')).to.deep.equal(['m11', 'm10', 'm7', 'm6', 'm3', 'm2']);
    expect(messages('INFO')).to.have.length(9).and.not.include('m8');
    expect(messages('DEBUG')).to.have.length(12);
    expect(messages(undefined)).to.have.length(12);
    expect(messages('WARNING', 3)).to.deep.equal(['m11', 'm10', 'm7']);
  });

  it('refuses invalid records', () => {
    t = tempStore();
    expect(thrown(() => t!.store.logs.append({ timestamp: at(0), level: 'LOUD' as LogLevel, message: 'x' })).code).to.equal('INVALID_RECORD');
    expect(thrown(() => t!.store.logs.append({ timestamp: at(0), level: 'INFO', message: 'x', duration: Number.NaN })).code).to.equal('INVALID_RECORD');
    expect(thrown(() => t!.store.logs.recent(5, 'LOUD' as LogLevel)).code).to.equal('INVALID_RECORD');
    expect(t.store.logs.recent(10)).to.deep.equal([]);
  });

  it('keeps at most 10 000 rows by default, dropping the oldest', () => {
    t = tempStore();
    expect(DEFAULT_MAX_LOG_ROWS).to.equal(10_000);
    const total = DEFAULT_MAX_LOG_ROWS + 25;
    t.store.transaction(() => {
      for (let i = 0; i < total; i++) t!.store.logs.append({ timestamp: at(i), level: i === 0 ? 'ERROR' : 'INFO', message: `m${i}` });
    });
    const all = t.store.logs.recent(1e9);
    expect(all).to.have.length(DEFAULT_MAX_LOG_ROWS);
    expect(all[0].message).to.equal(`m${total - 1}`);
    expect(all.at(-1)!.message).to.equal('m25');
    expect(t.store.logs.recent(10, 'ERROR')).to.deep.equal([]); // m0 was the only ERROR
    t.store.close();
    const db = new Database(join(t.dir, DATABASE_FILE));
    try {
      expect(db.prepare('SELECT count(*) FROM logs').pluck().get()).to.equal(DEFAULT_MAX_LOG_ROWS);
    } finally {
      db.close();
    }
  });

  it('honours a configured bound and keeps it across a restart', () => {
    t = tempStore({ maxLogRows: 5 });
    for (let i = 0; i < 8; i++) t.store.logs.append({ timestamp: at(i), level: 'INFO', message: `m${i}` });
    expect(t.store.logs.recent(100).map((r) => r.message)).to.deep.equal(['m7', 'm6', 'm5', 'm4', 'm3']);
    const store = t.reopen();
    store.logs.append({ timestamp: at(9), level: 'INFO', message: 'm8' });
    expect(store.logs.recent(100).map((r) => r.message)).to.deep.equal(['m8', 'm7', 'm6', 'm5', 'm4']);
  });
});

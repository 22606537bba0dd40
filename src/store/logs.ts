// The log repository: structured log records, newest first, filtered by minimum level. The table is
// bounded: each append deletes the rows more than `maxRows` behind the new one, a range delete on
// the primary key that touches at most the few rows falling out.
import type { LogLevel, LogRecord } from './records.js';
import { checkFinite, nullableText, oneOf, text, timestamp } from './codec.js';
import { invalid } from './errors.js';
import { sqlLimit, type Db, type Statement } from './statements.js';
import type { LogRepository } from './types.js';

/** In ascending severity; the index is the level's rank in the table. */
export const LOG_LEVELS: readonly LogLevel[] = ['DEBUG', 'INFO', 'WARNING', 'ERROR'];
export const DEFAULT_MAX_LOG_ROWS = 10_000;

const TIMESTAMP = timestamp('timestamp');
const LEVEL = oneOf('level', LOG_LEVELS);
const MESSAGE = text('message');
const TASK_ID = nullableText('task_id');

interface LogRow {
  timestamp: string;
  level: LogLevel;
  message: string;
  task_id: string | null;
  duration: number | null;
}

function decode(row: LogRow): LogRecord {
  const record: LogRecord = { timestamp: row.timestamp, level: row.level, message: row.message };
  if (row.task_id !== null) record.taskId = row.task_id;
  if (row.duration !== null) record.duration = row.duration;
  return record;
}

export class SqliteLogRepository implements LogRepository {
  private readonly insertRow: Statement;
  private readonly prune: Statement;
  private readonly selectRecent: Statement;
  private readonly selectRecentAtLeast: Statement;
  private readonly appendOne: (record: LogRecord) => void;
  private readonly insertAndPrune: (record: LogRecord) => void;
  private readonly db: Db;

  constructor(
    db: Db,
    readonly maxRows: number = DEFAULT_MAX_LOG_ROWS,
  ) {
    if (!Number.isSafeInteger(maxRows) || maxRows < 1) throw new RangeError(`maxRows must be a positive integer (got ${maxRows})`);
    const columns = 'timestamp, level, message, task_id, duration';
    this.insertRow = db.prepare(`INSERT INTO logs (${columns}) VALUES (?, ?, ?, ?, ?)`);
    this.prune = db.prepare('DELETE FROM logs WHERE seq <= ?');
    this.selectRecent = db.prepare(`SELECT ${columns} FROM logs ORDER BY seq DESC LIMIT ?`);
    this.selectRecentAtLeast = db.prepare(`SELECT ${columns} FROM logs WHERE level_rank >= ? ORDER BY seq DESC LIMIT ?`);
    this.insertAndPrune = (record: LogRecord) => {
      const { lastInsertRowid } = this.insertRow.run(
        TIMESTAMP.encode(record.timestamp, 'log.timestamp'),
        LEVEL.encode(record.level, 'log.level'),
        MESSAGE.encode(record.message, 'log.message'),
        TASK_ID.encode(record.taskId ?? null, 'log.taskId'),
        record.duration === undefined ? null : checkFinite(record.duration, 'log.duration'),
      );
      this.prune.run(Number(lastInsertRowid) - this.maxRows);
    };
    this.appendOne = db.transaction(this.insertAndPrune);
    this.db = db;
  }

  append(record: LogRecord): void {
    if (typeof record !== 'object' || record === null) throw invalid('log', 'an object', record);
    // Inside the caller's transaction already: a savepoint would only add two statements.
    if (this.db.inTransaction) this.insertAndPrune(record);
    else this.appendOne(record);
  }

  recent(limit: number, level?: LogLevel): LogRecord[] {
    const rows =
      level === undefined
        ? this.selectRecent.all(sqlLimit(limit))
        : this.selectRecentAtLeast.all(LOG_LEVELS.indexOf(LEVEL.encode(level, 'level') as LogLevel), sqlLimit(limit));
    return (rows as LogRow[]).map(decode);
  }
}

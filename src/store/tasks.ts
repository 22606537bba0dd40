// The task repository: one row per task, JSON columns for spec, request and progress. Scheduling
// order (inStates) is priority rank, then the insertion sequence, served by the index
// tasks_schedule(state, priority_rank, seq); listings are newest first by the same sequence.
import { PRIORITIES, type Priority, type ResultSummary, type TaskProgress, type TaskRecord, type TaskSpec, type TaskState } from './records.js';
import {
  bool,
  checkTimestamp,
  columnList,
  decodeRow,
  encodePatch,
  encodeRecord,
  integer,
  json,
  nullableExactJson,
  nullableJson,
  nullableReal,
  nullableText,
  nullableTimestamp,
  oneOf,
  optionalJson,
  parameterList,
  text,
  timestamp,
  toJson,
  type FieldCodec,
  type RecordCodec,
  type Row,
} from './codec.js';
import { notFound, rethrowConflict } from './errors.js';
import { sqlLimit, sqlOffset, StatementCache, updateSql, type Db, type Statement } from './statements.js';
import type { TaskFilter, TaskRepository } from './types.js';

/** Every task state, each with a zero count (the compiler checks the list is complete). */
function zeroStates(): Record<TaskState, number> {
  return { queued: 0, running: 0, paused: 0, completed: 0, failed: 0, cancelled: 0 };
}
export const TASK_STATES = Object.keys(zeroStates()) as TaskState[];

/**
 * The JSON of each netlist object, kept during one insertMany only: the tasks of a sweep share one
 * netlist object, which is then encoded once instead of once per task. Not kept longer, since a
 * netlist object may be changed in place afterwards (a remote-control session's).
 */
let netlistTexts: Map<object, string> | undefined;

/** The spec column: as json(), with the netlist's text taken from netlistTexts when it is there. */
function specCodec(column: string): FieldCodec<TaskSpec> {
  const plain = json<TaskSpec>(column, 'object');
  return {
    column,
    encode: (spec, field) => {
      const { netlist, ...rest } = (spec ?? {}) as TaskSpec;
      if (!netlistTexts || typeof netlist !== 'object' || netlist === null) return plain.encode(spec, field);
      let netlistText = netlistTexts.get(netlist);
      if (netlistText === undefined) {
        netlistText = toJson(netlist, `${field}.netlist`);
        netlistTexts.set(netlist, netlistText);
      }
      const restText = toJson(rest, field);
      return restText === '{}' ? `{"netlist":${netlistText}}` : `{"netlist":${netlistText},${restText.slice(1)}`;
    },
    decode: plain.decode,
  };
}

const TASK: RecordCodec<TaskRecord> = {
  id: text('id'),
  owner: text('owner'),
  priority: oneOf('priority', PRIORITIES),
  state: oneOf('state', TASK_STATES),
  spec: specCodec('spec'),
  request: optionalJson('request'),
  batchId: nullableText('batch_id'),
  submittedAt: timestamp('submitted_at'),
  startedAt: nullableTimestamp('started_at'),
  completedAt: nullableTimestamp('completed_at'),
  attempts: integer('attempts'),
  errorCode: nullableText('error_code'),
  errorMessage: nullableText('error_message'),
  cacheHit: bool('cache_hit'),
  cacheKey: nullableText('cache_key'),
  runMs: nullableReal('run_ms'),
  retryAt: nullableTimestamp('retry_at'),
  progress: nullableJson<TaskProgress>('progress', 'object'),
  summary: nullableExactJson<ResultSummary>('summary'),
};

const COLUMNS = columnList(TASK);

export class SqliteTaskRepository implements TaskRepository {
  private readonly insertRow: Statement;
  private readonly selectById: Statement;
  private readonly selectInStates: Statement;
  private readonly countStates: Statement;
  private readonly countStatesOfOwner: Statement;
  private readonly countPriorities: Statement;
  private readonly selectCompletedSince: Statement;
  private readonly selectNewestCompletion: Statement;
  private readonly cancelQueuedInBatch: Statement;
  private readonly shapes: StatementCache;
  private readonly insertAll: (tasks: TaskRecord[]) => void;
  private readonly updateOne: (id: string, patch: Partial<Omit<TaskRecord, 'id'>>) => TaskRecord;
  private readonly db: Db;
  private readonly listPage: (filter: TaskFilter) => { tasks: TaskRecord[]; total: number };

  constructor(db: Db) {
    this.db = db;
    this.insertRow = db.prepare(`INSERT INTO tasks (${COLUMNS}) VALUES (${parameterList(TASK)})`);
    this.selectById = db.prepare(`SELECT ${COLUMNS} FROM tasks WHERE id = ?`);
    this.selectInStates = db.prepare(
      `SELECT ${COLUMNS} FROM tasks WHERE state IN (SELECT value FROM json_each(?)) ORDER BY priority_rank, seq`,
    );
    this.countStates = db.prepare('SELECT state, count(*) AS n FROM tasks GROUP BY state');
    this.countStatesOfOwner = db.prepare('SELECT state, count(*) AS n FROM tasks WHERE owner = ? GROUP BY state');
    this.countPriorities = db.prepare('SELECT priority_rank AS rank, count(*) AS n FROM tasks WHERE state = ? GROUP BY priority_rank');
    this.shapes = new StatementCache(db);
    // completed_at holds toISOString() values, whose text order is their time order.
    this.selectCompletedSince = db.prepare(`SELECT ${COLUMNS} FROM tasks WHERE state = 'completed' AND completed_at >= ? ORDER BY seq`);
    this.selectNewestCompletion = db.prepare(`SELECT max(completed_at) AS newest FROM tasks WHERE state = 'completed'`);
    // Served by the index tasks_batch_state (batch_id, state).
    this.cancelQueuedInBatch = db.prepare(`UPDATE tasks SET state = 'cancelled', completed_at = ?, retry_at = NULL WHERE batch_id = ? AND state = 'queued'`);

    this.insertAll = db.transaction((tasks: TaskRecord[]) => {
      netlistTexts = new Map();
      try {
        for (const task of tasks) this.insert(task);
      } finally {
        netlistTexts = undefined;
      }
    });
    this.updateOne = db.transaction((id: string, patch: Partial<Omit<TaskRecord, 'id'>>) => this.updateIn(id, patch));
    this.listPage = db.transaction((filter: TaskFilter) => this.listIn(filter));
  }

  insert(task: TaskRecord): void {
    const row = encodeRecord('task', TASK, task);
    try {
      this.insertRow.run(row);
    } catch (error) {
      rethrowConflict(error, 'task', task.id);
    }
  }

  insertMany(tasks: TaskRecord[]): void {
    this.insertAll(tasks);
  }

  get(id: string): TaskRecord | undefined {
    const row = this.selectById.get(id) as Row | undefined;
    return row && decodeRow(TASK, row);
  }

  update(id: string, patch: Partial<Omit<TaskRecord, 'id'>>): TaskRecord {
    return this.db.inTransaction ? this.updateIn(id, patch) : this.updateOne(id, patch);
  }

  /**
   * update() for a caller that holds the task's current record (the scheduler's running tasks):
   * one UPDATE statement, without reading and decoding the row (spec, request) back first.
   */
  updateFrom(current: TaskRecord, patch: Partial<Omit<TaskRecord, 'id'>>): TaskRecord {
    const { row, stored } = encodePatch<TaskRecord>('task', TASK, patch, 'id');
    const columns = Object.keys(row);
    if (columns.length === 0) {
      if (!this.selectById.get(current.id)) throw notFound('task', current.id);
    } else if (this.statementFor(columns).run({ ...row, id: current.id }).changes === 0) {
      throw notFound('task', current.id);
    }
    return { ...current, ...stored };
  }

  private updateIn(id: string, patch: Partial<Omit<TaskRecord, 'id'>>): TaskRecord {
    const { row, stored } = encodePatch<TaskRecord>('task', TASK, patch, 'id');
    const current = this.get(id);
    if (!current) throw notFound('task', id);
    const columns = Object.keys(row);
    if (columns.length > 0) this.statementFor(columns).run({ ...row, id });
    return { ...current, ...stored };
  }

  private statementFor(columns: string[]): Statement {
    return this.shapes.get(`update:${columns.join(',')}`, () => updateSql('tasks', columns, 'id'));
  }

  list(filter: TaskFilter): { tasks: TaskRecord[]; total: number } {
    return this.listPage(filter);
  }

  inStates(states: TaskState[]): TaskRecord[] {
    if (states.length === 0) return [];
    const rows = this.selectInStates.all(toJson(states, 'states')) as Row[];
    return rows.map((row) => decodeRow(TASK, row));
  }

  completedSince(since: string): TaskRecord[] {
    return (this.selectCompletedSince.all(since) as Row[]).map((row) => decodeRow(TASK, row));
  }

  newestCompletion(): string | undefined {
    const row = this.selectNewestCompletion.get() as { newest: string | null };
    return row.newest ?? undefined;
  }

  cancelQueuedOfBatch(batchId: string, completedAt: string): number {
    return this.cancelQueuedInBatch.run(checkTimestamp(completedAt, 'task.completedAt'), text('batch_id').encode(batchId, 'batchId')).changes;
  }

  countByState(owner?: string): Record<TaskState, number> {
    const rows = (owner === undefined ? this.countStates.all() : this.countStatesOfOwner.all(owner)) as { state: TaskState; n: number }[];
    const counts = zeroStates();
    for (const { state, n } of rows) counts[state] = n;
    return counts;
  }

  countByPriority(state: TaskState): Record<Priority, number> {
    const counts = Object.fromEntries(PRIORITIES.map((p) => [p, 0])) as Record<Priority, number>;
    for (const { rank, n } of this.countPriorities.all(state) as { rank: number; n: number }[]) counts[PRIORITIES[rank]] = n;
    return counts;
  }

  /** One statement pair per combination of filters used (owner, states, batch). */
  private listIn(filter: TaskFilter): { tasks: TaskRecord[]; total: number } {
    const where: string[] = [];
    const params: Row = {};
    if (filter.owner !== undefined) {
      where.push('owner = @owner');
      params.owner = filter.owner;
    }
    if (filter.states !== undefined) {
      where.push('state IN (SELECT value FROM json_each(@states))');
      params.states = toJson(filter.states, 'filter.states');
    }
    if (filter.batchId !== undefined) {
      where.push('batch_id = @batch');
      params.batch = filter.batchId;
    }
    const shape = Object.keys(params).join(',');
    const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
    const page = this.shapes.get(`list:${shape}`, () => `SELECT ${COLUMNS} FROM tasks ${clause} ORDER BY seq DESC LIMIT @limit OFFSET @offset`);
    const count = this.shapes.get(`count:${shape}`, () => `SELECT count(*) FROM tasks ${clause}`).pluck();
    const rows = page.all({ ...params, limit: sqlLimit(filter.limit), offset: sqlOffset(filter.offset) }) as Row[];
    const total = (shape === '' ? count.get() : count.get(params)) as number;
    return { tasks: rows.map((row) => decodeRow(TASK, row)), total };
  }
}

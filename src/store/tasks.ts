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
  text,
  timestamp,
  toJson,
  type RecordCodec,
  type Row,
} from './codec.js';
import { notFound, rethrowConflict } from './errors.js';
import { joinTemplate, SplitMemo, splitTask, TaskTemplates, templateOf, type ParsedTemplates, type SplitTask } from './task-templates.js';
import { sqlLimit, sqlOffset, StatementCache, updateSql, type Db, type Statement } from './statements.js';
import type { TaskFilter, TaskRepository } from './types.js';

/** Every task state, each with a zero count (the compiler checks the list is complete). */
function zeroStates(): Record<TaskState, number> {
  return { queued: 0, running: 0, paused: 0, completed: 0, failed: 0, cancelled: 0 };
}
export const TASK_STATES = Object.keys(zeroStates()) as TaskState[];

/** The fields of a task row beside its spec and request (which may be split with a template). */
const FIELDS: RecordCodec<Omit<TaskRecord, 'spec' | 'request'>> = {
  id: text('id'),
  owner: text('owner'),
  priority: oneOf('priority', PRIORITIES),
  state: oneOf('state', TASK_STATES),
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
const SPEC = json<TaskSpec>('spec', 'object');
const REQUEST = optionalJson('request');
/** A whole record, spec and request held by the row itself (patches, and rows without a template). */
const TASK: RecordCodec<TaskRecord> = { ...FIELDS, spec: SPEC, request: REQUEST };

/** Selected columns: the record's, and the template a row points at (NULL: none). */
const COLUMNS = `${columnList(TASK)}, template_id`;
/** Columns of an insert, bound by position (binding by name cost ≈ 3 µs of a row's ≈ 10 µs). */
const INSERT_COLUMNS = [...Object.values(TASK).map((codec) => codec.column), 'template_id'];
const INSERT = `INSERT INTO tasks (${INSERT_COLUMNS.join(', ')}) VALUES (${INSERT_COLUMNS.map(() => '?').join(', ')})`;

/** What a new queued task's row holds in each column, in insertFreshRows (json_each row `value`). */
const FRESH_VALUES: Record<string, string> = {
  // request: a row's own request text, or the number 0 when it is the text of its own spec (a
  // sweep's spec and request hold the same parameters: the rows' JSON then carries it once).
  id: 'value->>0', owner: '@owner', priority: '@priority', state: "'queued'", spec: 'value->>1',
  request: "iif(json_type(value, '$[2]') = 'integer', value->>1, value->>2)",
  batch_id: '@batch', submitted_at: 'value->>3', started_at: 'NULL', completed_at: 'NULL', attempts: '0', error_code: 'NULL',
  error_message: 'NULL', cache_hit: '0', cache_key: 'value->>4', run_ms: 'NULL', retry_at: 'NULL', progress: 'NULL', summary: 'NULL',
  template_id: '@template',
};

/** New queued tasks in a row that share a template, owner, priority and batch. */
interface FreshGroup {
  /** What the group's tasks share: their split key (one template), owner, priority and batch. */
  splitKey: string;
  owner: string;
  priority: Priority;
  batchId: string | null;
  tasks: TaskRecord[];
  splits: SplitTask[];
}

/** A group with the JSON text of its rows (insertFreshRows' @rows). */
interface PlannedGroup extends FreshGroup {
  rows: string;
}

/** One write of an insert: a group of fresh tasks, or one task (with its split when it has a template). */
type InsertStep = { group: PlannedGroup } | { task: TaskRecord; split?: SplitTask };

/** What planInsert made of the tasks of one insert, for insertPlanned. */
export interface InsertPlan {
  readonly steps: InsertStep[];
  readonly added: Counts;
}

/** The rows of a group as insertFreshRows reads them (FRESH_VALUES); checks the fields it takes from the tasks. */
function freshRows(group: FreshGroup): string {
  const rows: unknown[][] = new Array(group.tasks.length);
  let lastTime = '';
  for (const [i, task] of group.tasks.entries()) {
    if (task.submittedAt !== lastTime) lastTime = checkTimestamp(task.submittedAt, 'task.submittedAt');
    const { ownSpec, ownRequest } = group.splits[i];
    rows[i] = [FIELDS.id.encode(task.id, 'task.id'), ownSpec, ownRequest === ownSpec ? 0 : ownRequest, lastTime, FIELDS.cacheKey.encode(task.cacheKey, 'task.cacheKey')];
  }
  return JSON.stringify(rows);
}

/** A task as submitted: queued, never started, nothing recorded of a run. */
function isFresh(t: TaskRecord): boolean {
  return t.state === 'queued' && t.startedAt === null && t.completedAt === null && t.attempts === 0 && t.errorCode === null && t.errorMessage === null
    && t.cacheHit === false && t.runMs === null && t.retryAt === null && t.progress === null && t.summary === null;
}

/** A selected row. */
type TaskRow = Row & { template_id: number | null; spec: string; request: string | null };

/** Tasks added per owner and state, and per batch and state (one upsert each after an insert). */
class Counts {
  private readonly owners = new Map<string, Map<TaskState, number>>();
  private readonly batches = new Map<string, Map<TaskState, number>>();

  add(owner: string, batchId: string | null, state: TaskState): void {
    Counts.bump(this.owners, owner, state);
    if (batchId !== null) Counts.bump(this.batches, batchId, state);
  }

  byOwner(): [string, TaskState, number][] {
    return Counts.rows(this.owners);
  }

  byBatch(): [string, TaskState, number][] {
    return Counts.rows(this.batches);
  }

  private static bump(map: Map<string, Map<TaskState, number>>, key: string, state: TaskState): void {
    let states = map.get(key);
    if (!states) map.set(key, (states = new Map()));
    states.set(state, (states.get(state) ?? 0) + 1);
  }

  private static rows(map: Map<string, Map<TaskState, number>>): [string, TaskState, number][] {
    return [...map].flatMap(([key, states]) => [...states].map(([state, n]): [string, TaskState, number] => [key, state, n]));
  }
}

/**
 * A patch that sets the spec or the request sets both whole (the row then has no template): a
 * template's part is shared with other tasks and never changed for one.
 */
function wholeSpecAndRequest(current: TaskRecord, patch: Partial<Omit<TaskRecord, 'id'>>): Partial<Omit<TaskRecord, 'id'>> {
  if (patch.spec === undefined && patch.request === undefined) return patch;
  return { spec: current.spec, request: current.request, ...patch };
}

export class SqliteTaskRepository implements TaskRepository {
  private readonly insertRow: Statement;
  private readonly selectById: Statement;
  private readonly selectInStates: Statement;
  private readonly selectQueuedPage: Statement;
  private readonly countStates: Statement;
  private readonly countStatesOfOwner: Statement;
  private readonly countPriorities: Statement;
  private readonly selectCompletedSince: Statement;
  private readonly selectNewestCompletion: Statement;
  private readonly cancelQueuedInBatch: Statement;
  private readonly selectQueuedOfBatch: Statement;
  private readonly insertFreshRows: Statement;
  private readonly addOwnerCount: Statement;
  private readonly addBatchCount: Statement;
  private readonly shapes: StatementCache;
  private readonly templates: TaskTemplates;
  private readonly insertAll: (plan: InsertPlan) => number[];
  private readonly updateOne: (id: string, patch: Partial<Omit<TaskRecord, 'id'>>) => TaskRecord;
  private readonly db: Db;
  private readonly listPage: (filter: TaskFilter) => { tasks: TaskRecord[]; total: number };

  constructor(db: Db) {
    this.db = db;
    this.templates = new TaskTemplates(db);
    this.insertRow = db.prepare(INSERT);
    this.selectById = db.prepare(`SELECT ${COLUMNS} FROM tasks WHERE id = ?`);
    this.selectInStates = db.prepare(
      `SELECT ${COLUMNS} FROM tasks WHERE state IN (SELECT value FROM json_each(?)) ORDER BY priority_rank, seq`,
    );
    // Served by the index tasks_schedule (state, priority_rank, seq).
    this.selectQueuedPage = db.prepare(
      `SELECT seq AS seq_, ${COLUMNS} FROM tasks WHERE state = 'queued' AND priority_rank = ? AND seq > ? ORDER BY seq LIMIT ?`,
    );
    // Kept by the triggers of schema version 4 (no count over the rows).
    this.countStates = db.prepare('SELECT state, sum(n) AS n FROM task_counts GROUP BY state');
    this.countStatesOfOwner = db.prepare('SELECT state, n FROM task_counts WHERE owner = ?');
    this.countPriorities = db.prepare('SELECT priority_rank AS rank, count(*) AS n FROM tasks WHERE state = ? GROUP BY priority_rank');
    this.shapes = new StatementCache(db);
    // completed_at holds toISOString() values, whose text order is their time order.
    this.selectCompletedSince = db.prepare(`SELECT ${COLUMNS} FROM tasks WHERE state = 'completed' AND completed_at >= ? ORDER BY seq`);
    this.selectNewestCompletion = db.prepare(`SELECT max(completed_at) AS newest FROM tasks WHERE state = 'completed'`);
    // Served by the index tasks_batch_state (batch_id, state); rowid (seq) order within it.
    this.selectQueuedOfBatch = db.prepare(`SELECT ${COLUMNS} FROM tasks WHERE batch_id = ? AND state = 'queued' ORDER BY seq`);
    this.cancelQueuedInBatch = db.prepare(`UPDATE tasks SET state = 'cancelled', completed_at = ?, retry_at = NULL WHERE batch_id = ? AND state = 'queued'`);

    // The counts of inserted tasks (updates and deletes are counted by triggers: schema.ts, version 4).
    this.addOwnerCount = db.prepare('INSERT INTO task_counts (owner, state, n) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET n = n + excluded.n');
    this.addBatchCount = db.prepare('INSERT INTO batch_counts (batch_id, state, n) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET n = n + excluded.n');
    this.insertFreshRows = db.prepare(
      `INSERT INTO tasks (${INSERT_COLUMNS.join(', ')}) SELECT ${INSERT_COLUMNS.map((column) => FRESH_VALUES[column]).join(', ')} FROM json_each(@rows) ORDER BY key`,
    );
    this.insertAll = db.transaction((plan: InsertPlan) => this.insertIn(plan));
    this.updateOne = db.transaction((id: string, patch: Partial<Omit<TaskRecord, 'id'>>) => this.updateIn(id, patch));
    this.listPage = db.transaction((filter: TaskFilter) => this.listIn(filter));
  }

  insert(task: TaskRecord): void {
    this.insertMany([task]);
  }

  insertMany(tasks: TaskRecord[]): number[] {
    return this.insertPlanned(this.planInsert(tasks));
  }

  /**
   * The work of insertMany that needs no database: each task split into template and own part,
   * the runs of fresh tasks grouped with their rows' text (it can be made while the submission's
   * checks run; insertPlanned then writes it).
   * Tasks that share their netlist and the rest of their spec and request with another task of
   * the call are stored with one template (task-templates.ts); the others whole. New queued tasks
   * of one template, owner, priority and batch in a row (a sweep) go in with one statement.
   */
  planInsert(tasks: TaskRecord[]): InsertPlan {
    const memo = new SplitMemo();
    const splits = tasks.length > 1 ? tasks.map((task) => splitTask(task, memo)) : [];
    const members = new Map<string, number>();
    for (const split of splits) if (split) members.set(split.key, (members.get(split.key) ?? 0) + 1);
    const steps: InsertStep[] = [];
    const added = new Counts();
    let group: FreshGroup | undefined;
    const flush = (): void => {
      if (group) steps.push({ group: { ...group, rows: freshRows(group) } });
      group = undefined;
    };
    for (const [i, task] of tasks.entries()) {
      const split = splits[i];
      if (!split || members.get(split.key)! < 2) {
        flush();
        steps.push({ task });
      } else if (isFresh(task)) {
        // Compared part by part: a sweep's split keys are one string, so the first test is by identity.
        if (group && (group.splitKey !== split.key || group.owner !== task.owner || group.priority !== task.priority || group.batchId !== task.batchId)) flush();
        group ??= { splitKey: split.key, owner: task.owner, priority: task.priority, batchId: task.batchId, tasks: [], splits: [] };
        group.tasks.push(task);
        group.splits.push(split);
      } else {
        flush();
        steps.push({ task, split });
      }
      added.add(task.owner, task.batchId, task.state);
    }
    flush();
    return { steps, added };
  }

  /** Writes a plan of planInsert (all or none); returns the tasks' sequence numbers. */
  insertPlanned(plan: InsertPlan): number[] {
    return this.db.inTransaction ? this.insertIn(plan) : this.insertAll(plan);
  }

  private insertIn(plan: InsertPlan): number[] {
    const templateIds = new Map<string, number>();
    const templateOfSplit = (split: SplitTask): number => {
      let templateId = templateIds.get(split.key);
      if (templateId === undefined) {
        templateId = this.templates.insert(templateOf(split));
        templateIds.set(split.key, templateId);
      }
      return templateId;
    };
    const seqs: number[] = [];
    for (const step of plan.steps) {
      if ('group' in step) {
        for (const seq of this.insertGroup(step.group, templateOfSplit(step.group.splits[0]))) seqs.push(seq);
      } else {
        seqs.push(step.split ? this.insertOne(step.task, step.split, templateOfSplit(step.split)) : this.insertOne(step.task));
      }
    }
    for (const [owner, state, n] of plan.added.byOwner()) this.addOwnerCount.run(owner, state, n);
    for (const [batchId, state, n] of plan.added.byBatch()) this.addBatchCount.run(batchId, state, n);
    return seqs;
  }

  /** One task, whole or with its template; returns its sequence number. */
  private insertOne(task: TaskRecord, split?: SplitTask, templateId?: number): number {
    let row: Row;
    if (split && templateId !== undefined) {
      row = encodeRecord('task', FIELDS, task);
      row.spec = split.ownSpec;
      row.request = split.ownRequest;
      row.template_id = templateId;
    } else {
      row = encodeRecord('task', TASK, task);
      row.template_id = null;
    }
    try {
      return Number(this.insertRow.run(INSERT_COLUMNS.map((column) => row[column])).lastInsertRowid);
    } catch (error) {
      rethrowConflict(error, 'task', task.id);
    }
  }

  /**
   * New queued tasks of one template, owner, priority and batch with one statement (their rows as
   * one JSON array: ≈ 40 % less time than a statement per row); the rows' sequence numbers follow
   * each other. Should a row be refused, the group goes again row by row, for the error of the one.
   */
  private insertGroup(group: PlannedGroup, templateId: number): number[] {
    const constants = {
      owner: FIELDS.owner.encode(group.owner, 'task.owner'),
      priority: FIELDS.priority.encode(group.priority, 'task.priority'),
      batch: FIELDS.batchId.encode(group.batchId, 'task.batchId'),
      template: templateId,
    };
    try {
      const last = Number(this.insertFreshRows.run({ ...constants, rows: group.rows }).lastInsertRowid);
      return group.tasks.map((_, i) => last - group.tasks.length + 1 + i);
    } catch {
      return group.tasks.map((task, i) => this.insertOne(task, group.splits[i], templateId));
    }
  }

  /** The record of a selected row; `parsed`: the templates met in the same read. */
  private decode(row: TaskRow, parsed: ParsedTemplates = new Map()): TaskRecord {
    const record = decodeRow(FIELDS, row) as TaskRecord;
    if (row.template_id === null) {
      record.spec = SPEC.decode(row.spec);
      record.request = REQUEST.decode(row.request);
    } else {
      Object.assign(record, joinTemplate(this.templates, parsed, row.template_id, row.spec, row.request));
    }
    return record;
  }

  private decodeAll(rows: TaskRow[]): TaskRecord[] {
    const parsed: ParsedTemplates = new Map();
    return rows.map((row) => this.decode(row, parsed));
  }

  get(id: string): TaskRecord | undefined {
    const row = this.selectById.get(id) as TaskRow | undefined;
    return row && this.decode(row);
  }

  /** Up to `limit` queued tasks of the priority after the sequence number `afterSeq`, in order, with their sequence numbers. */
  queuedPage(priority: Priority, afterSeq: number, limit: number): { task: TaskRecord; seq: number }[] {
    const rows = this.selectQueuedPage.all(PRIORITIES.indexOf(priority), afterSeq, sqlLimit(limit)) as (TaskRow & { seq_: number })[];
    const tasks = this.decodeAll(rows);
    return rows.map((row, i) => ({ task: tasks[i], seq: row.seq_ }));
  }

  update(id: string, patch: Partial<Omit<TaskRecord, 'id'>>): TaskRecord {
    return this.db.inTransaction ? this.updateIn(id, patch) : this.updateOne(id, patch);
  }

  /**
   * update() for a caller that holds the task's current record (the scheduler's running tasks):
   * one UPDATE statement, without reading and decoding the row (spec, request) back first.
   */
  updateFrom(current: TaskRecord, patch: Partial<Omit<TaskRecord, 'id'>>): TaskRecord {
    const { row, stored } = encodePatch<TaskRecord>('task', TASK, wholeSpecAndRequest(current, patch), 'id');
    if (row.spec !== undefined) row.template_id = null;
    const columns = Object.keys(row);
    if (columns.length === 0) {
      if (!this.selectById.get(current.id)) throw notFound('task', current.id);
    } else if (this.statementFor(columns).run({ ...row, id: current.id }).changes === 0) {
      throw notFound('task', current.id);
    }
    return { ...current, ...stored };
  }

  private updateIn(id: string, patch: Partial<Omit<TaskRecord, 'id'>>): TaskRecord {
    const current = this.get(id);
    if (!current) throw notFound('task', id);
    const { row, stored } = encodePatch<TaskRecord>('task', TASK, wholeSpecAndRequest(current, patch), 'id');
    if (row.spec !== undefined) row.template_id = null;
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
    return this.decodeAll(this.selectInStates.all(toJson(states, 'states')) as TaskRow[]);
  }

  completedSince(since: string): TaskRecord[] {
    return this.decodeAll(this.selectCompletedSince.all(since) as TaskRow[]);
  }

  newestCompletion(): string | undefined {
    const row = this.selectNewestCompletion.get() as { newest: string | null };
    return row.newest ?? undefined;
  }

  queuedOfBatch(batchId: string): TaskRecord[] {
    return this.decodeAll(this.selectQueuedOfBatch.all(batchId) as TaskRow[]);
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
    const rows = page.all({ ...params, limit: sqlLimit(filter.limit), offset: sqlOffset(filter.offset) }) as TaskRow[];
    const total = (shape === '' ? count.get() : count.get(params)) as number;
    return { tasks: this.decodeAll(rows), total };
  }
}

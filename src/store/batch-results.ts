// Reads of a batch that stay fast and small however many runs it has: its header (no task ids),
// its counts per state, and its results table (one row per run: parameter values, state,
// measurements) read page by page in batch order, so that a reader streaming 100 000 rows holds
// one page at a time. Each page is its own statement: other requests use the connection between
// pages. The parameters of a row are those its service stored with the request (the names the
// user gave), else the overrides of its spec.
import { parseExact } from './exact-json.js';
import type { ResultSummary, TaskProgress, TaskState } from './records.js';
import { sqlOffset, type Db, type Statement } from './statements.js';

export interface BatchHeader {
  id: string;
  owner: string;
  createdAt: string;
  /** Runs in the batch. */
  size: number;
}

export interface BatchResultRow {
  /** Position in the batch, from 0. */
  position: number;
  taskId: string;
  state: TaskState;
  parameters: Record<string, number>;
  /** Engine keys (`SCOPE.1.ch1.avg`); empty unless completed. */
  measurements: Record<string, number>;
  /** Whether the store holds the run's result summary (a cache hit's is only in its result file). */
  hasSummary: boolean;
  runMs: number | null;
  errorCode: string | null;
  errorMessage: string | null;
}

/** One entry of a batch status page: what the status shows of a run, without decoding its row. */
export interface BatchEntryRow {
  taskId: string;
  state: TaskState;
  parameters: Record<string, number>;
  progress: TaskProgress | null;
  errorMessage: string | null;
}

export interface BatchColumns {
  /** Parameter names in the order of the first run that has them. */
  parameters: string[];
  /** Measurement keys (engine keys) in the order of the first completed run that has them. */
  measurements: string[];
}

/** Rows read per statement. */
export const RESULT_PAGE_ROWS = 1000;

const PARAMETERS = "coalesce(json_extract(t.request, '$.parameters'), json_extract(t.spec, '$.parameters'))";
const FROM_BATCH = 'FROM batch_tasks bt JOIN tasks t ON t.id = bt.task_id';
const PAGE_COLUMNS = `t.id AS id, t.state AS state, ${PARAMETERS} AS parameters, t.summary AS summary, t.run_ms AS run_ms, t.error_code AS error_code, t.error_message AS error_message`;
const ENTRY_COLUMNS = `t.id AS id, t.state AS state, ${PARAMETERS} AS parameters, t.progress AS progress, t.error_message AS error_message`;

/** The statements of one form of batch: its tasks listed in batch_tasks, or those of its batch_id in seq order. */
interface FormStatements {
  /** Listed: (id, from position, limit), rows with their `position`; by seq: (id, limit, offset). */
  page: Statement;
  /** (id, after, limit): the rows after `after` (a position, or a seq), for reading all of them; rows carry `next`. */
  pageAfter: Statement;
  parameterNames: Statement;
  measurementNames: Statement;
  /** (id, limit, offset). */
  entries: Statement;
}

interface PageRow {
  position: number;
  id: string;
  state: TaskState;
  parameters: string | null;
  summary: string | null;
  run_ms: number | null;
  error_code: string | null;
  error_message: string | null;
}

export class SqliteBatchResults {
  private readonly selectHeader: Statement;
  private readonly selectCounts: Statement;
  private readonly selectListed: Statement;
  private readonly listed: FormStatements;
  private readonly bySeq: FormStatements;
  private readonly selectIdsInStates: Statement;

  constructor(db: Db) {
    this.selectHeader = db.prepare('SELECT id, owner, created_at AS createdAt FROM batches WHERE id = ?');
    this.selectListed = db.prepare('SELECT listed FROM batches WHERE id = ?').pluck();
    // Kept by the store in the same transaction as the tasks' changes (schema version 4).
    this.selectCounts = db.prepare('SELECT state, n FROM batch_counts WHERE batch_id = ? AND n > 0');
    this.listed = {
      page: db.prepare(`SELECT bt.position AS position, ${PAGE_COLUMNS} ${FROM_BATCH} WHERE bt.batch_id = ? AND bt.position >= ? ORDER BY bt.position LIMIT ?`),
      pageAfter: db.prepare(`SELECT bt.position AS position, bt.position AS next, ${PAGE_COLUMNS} ${FROM_BATCH} WHERE bt.batch_id = ? AND bt.position > ? ORDER BY bt.position LIMIT ?`),
      parameterNames: db.prepare(
        `SELECT j.key AS key ${FROM_BATCH}, json_each(${PARAMETERS}) j WHERE bt.batch_id = ? GROUP BY j.key ORDER BY min(bt.position), min(j.id)`,
      ).pluck(),
      measurementNames: db.prepare(
        `SELECT j.key AS key ${FROM_BATCH}, json_each(t.summary, '$.measurements') j WHERE bt.batch_id = ? AND t.summary IS NOT NULL GROUP BY j.key ORDER BY min(bt.position), min(j.id)`,
      ).pluck(),
      entries: db.prepare(`SELECT ${ENTRY_COLUMNS} ${FROM_BATCH} WHERE bt.batch_id = ? ORDER BY bt.position LIMIT ? OFFSET ?`),
    };
    // By the index tasks_batch (batch_id, seq): no join, the rows in their order on the disk.
    this.bySeq = {
      page: db.prepare(`SELECT ${PAGE_COLUMNS} FROM tasks t WHERE t.batch_id = ? ORDER BY t.seq LIMIT ? OFFSET ?`),
      pageAfter: db.prepare(`SELECT t.seq AS next, ${PAGE_COLUMNS} FROM tasks t WHERE t.batch_id = ? AND t.seq > ? ORDER BY t.seq LIMIT ?`),
      parameterNames: db.prepare(
        `SELECT j.key AS key FROM tasks t, json_each(${PARAMETERS}) j WHERE t.batch_id = ? GROUP BY j.key ORDER BY min(t.seq), min(j.id)`,
      ).pluck(),
      measurementNames: db.prepare(
        `SELECT j.key AS key FROM tasks t, json_each(t.summary, '$.measurements') j WHERE t.batch_id = ? AND t.summary IS NOT NULL GROUP BY j.key ORDER BY min(t.seq), min(j.id)`,
      ).pluck(),
      entries: db.prepare(`SELECT ${ENTRY_COLUMNS} FROM tasks t WHERE t.batch_id = ? ORDER BY t.seq LIMIT ? OFFSET ?`),
    };
    // From the index tasks_batch_state alone: (batch_id, state), then rowid (= seq, submission order).
    this.selectIdsInStates = db.prepare('SELECT id FROM tasks WHERE batch_id = ? AND state IN (SELECT value FROM json_each(?)) LIMIT ?').pluck();
  }

  /** Whether the batch lists its tasks in batch_tasks (an unknown batch: yes, and has none). */
  private isListed(id: string): boolean {
    return (this.selectListed.get(id) ?? 1) === 1;
  }

  private form(id: string): FormStatements {
    return this.isListed(id) ? this.listed : this.bySeq;
  }

  /** The batch's id, owner, creation time and size; `counts` (countByState) when the caller has them. */
  header(id: string, counts?: Partial<Record<TaskState, number>>): BatchHeader | undefined {
    const row = this.selectHeader.get(id) as Omit<BatchHeader, 'size'> | undefined;
    if (!row) return undefined;
    const size = Object.values(counts ?? this.countByState(id)).reduce((sum, n) => sum + n, 0);
    return { ...row, size };
  }

  countByState(id: string): Partial<Record<TaskState, number>> {
    const counts: Partial<Record<TaskState, number>> = {};
    for (const { state, n } of this.selectCounts.all(id) as { state: TaskState; n: number }[]) counts[state] = n;
    return counts;
  }

  /** Ids of up to `limit` of the batch's tasks in the given states (in batch order within each state). */
  idsInStates(id: string, states: TaskState[], limit: number): string[] {
    return this.selectIdsInStates.all(id, JSON.stringify(states), limit) as string[];
  }

  /** A page of status entries in batch order. */
  entries(id: string, limit: number, offset = 0): BatchEntryRow[] {
    const rows = this.form(id).entries.all(id, limit, sqlOffset(offset)) as { id: string; state: TaskState; parameters: string | null; progress: string | null; error_message: string | null }[];
    return rows.map((row) => ({
      taskId: row.id,
      state: row.state,
      parameters: row.parameters === null ? {} : (JSON.parse(row.parameters) as Record<string, number>),
      progress: row.progress === null ? null : (JSON.parse(row.progress) as TaskProgress),
      errorMessage: row.error_message,
    }));
  }

  columns(id: string): BatchColumns {
    const form = this.form(id);
    return { parameters: form.parameterNames.all(id) as string[], measurements: form.measurementNames.all(id) as string[] };
  }

  /** Up to `limit` rows from position `from` on, in batch order. */
  page(id: string, from: number, limit = RESULT_PAGE_ROWS): BatchResultRow[] {
    if (this.isListed(id)) return (this.listed.page.all(id, from, limit) as PageRow[]).map((row) => resultRow(row, row.position));
    return (this.bySeq.page.all(id, limit, sqlOffset(from)) as PageRow[]).map((row, i) => resultRow(row, from + i));
  }

  /** Every row, a page at a time (each page read after the last row of the one before). */
  *rows(id: string, pageRows = RESULT_PAGE_ROWS): Generator<BatchResultRow> {
    const form = this.form(id);
    let position = 0;
    for (let after = -1; ; ) {
      const page = form.pageAfter.all(id, after, pageRows) as (PageRow & { next: number })[];
      for (const row of page) yield resultRow(row, form === this.listed ? row.position : position++);
      if (page.length < pageRows) return;
      after = page[page.length - 1].next;
    }
  }
}

function resultRow(row: PageRow, position: number): BatchResultRow {
  return {
    position,
    taskId: row.id,
    state: row.state,
    parameters: row.parameters === null ? {} : (JSON.parse(row.parameters) as Record<string, number>),
    measurements: row.summary === null ? {} : ((parseExact(row.summary) as ResultSummary).measurements ?? {}),
    hasSummary: row.summary !== null,
    runMs: row.run_ms,
    errorCode: row.error_code,
    errorMessage: row.error_message,
  };
}

// The batch repository: a batch row plus one batch_tasks row per task id, numbered by position so
// the ids come back in the order they were given, both written in one transaction (`listed`); or,
// for a batch of the tasks stored with its id (insertOfTasks), the batch row alone: its tasks are
// those with its batch_id in submission order (schema version 4).
import { text, timestamp } from './codec.js';
import { invalid, rethrowConflict, StoreError } from './errors.js';
import type { Db, Statement } from './statements.js';
import type { BatchRecord, BatchRepository } from './types.js';

const ID = text('id');
const OWNER = text('owner');
const CREATED = timestamp('created_at');

export class SqliteBatchRepository implements BatchRepository {
  private readonly insertBatch: Statement;
  private readonly insertTask: Statement;
  private readonly selectBatch: Statement;
  private readonly selectTasks: Statement;
  private readonly insertAll: (batch: BatchRecord) => void;
  private readonly countStoredTasks: Statement;
  private readonly selectTasksById: Statement;
  private readonly insertOfStored: (batch: Omit<BatchRecord, 'taskIds'>) => number;

  constructor(db: Db) {
    this.insertBatch = db.prepare('INSERT INTO batches (id, owner, created_at, listed) VALUES (?, ?, ?, 1)');
    const insertBatchOfTasks = db.prepare('INSERT INTO batches (id, owner, created_at, listed) VALUES (?, ?, ?, 0)');
    this.insertTask = db.prepare('INSERT INTO batch_tasks (batch_id, position, task_id) VALUES (?, ?, ?)');
    this.selectBatch = db.prepare('SELECT id, owner, created_at, listed FROM batches WHERE id = ?');
    this.selectTasks = db.prepare('SELECT task_id FROM batch_tasks WHERE batch_id = ? ORDER BY position').pluck();
    this.selectTasksById = db.prepare('SELECT id FROM tasks WHERE batch_id = ? ORDER BY seq').pluck();
    this.insertAll = db.transaction((batch: BatchRecord) => {
      const id = ID.encode(batch.id, 'batch.id');
      try {
        this.insertBatch.run(id, OWNER.encode(batch.owner, 'batch.owner'), CREATED.encode(batch.createdAt, 'batch.createdAt'));
      } catch (error) {
        rethrowConflict(error, 'batch', batch.id);
      }
      batch.taskIds.forEach((taskId, position) => this.insertTask.run(id, position, ID.encode(taskId, `batch.taskIds[${position}]`)));
    });
    // Its size from the counts the store keeps (no count over its rows).
    this.countStoredTasks = db.prepare('SELECT coalesce(sum(n), 0) FROM batch_counts WHERE batch_id = ?').pluck();
    this.insertOfStored = db.transaction((batch: Omit<BatchRecord, 'taskIds'>) => {
      const id = ID.encode(batch.id, 'batch.id');
      try {
        insertBatchOfTasks.run(id, OWNER.encode(batch.owner, 'batch.owner'), CREATED.encode(batch.createdAt, 'batch.createdAt'));
      } catch (error) {
        rethrowConflict(error, 'batch', batch.id);
      }
      return this.countStoredTasks.get(id) as number;
    });
  }

  insert(batch: BatchRecord): void {
    if (typeof batch !== 'object' || batch === null) throw invalid('batch', 'an object', batch);
    if (!Array.isArray(batch.taskIds)) throw invalid('batch.taskIds', 'an array', batch.taskIds);
    const seen = new Set<string>();
    for (const taskId of batch.taskIds) {
      if (seen.has(taskId)) throw new StoreError('INVALID_RECORD', `batch.taskIds lists the task ${taskId} twice`);
      seen.add(taskId);
    }
    this.insertAll(batch);
  }

  /**
   * A batch of the tasks stored with its id (TaskRecord.batchId), in the order they were
   * submitted; returns how many it holds. For a submission that gave its tasks the batch's id.
   */
  insertOfTasks(batch: Omit<BatchRecord, 'taskIds'>): number {
    if (typeof batch !== 'object' || batch === null) throw invalid('batch', 'an object', batch);
    return this.insertOfStored(batch);
  }

  get(id: string): BatchRecord | undefined {
    const row = this.selectBatch.get(id) as { id: string; owner: string; created_at: string; listed: number } | undefined;
    if (!row) return undefined;
    const taskIds = (row.listed === 1 ? this.selectTasks : this.selectTasksById).all(id) as string[];
    return { id: row.id, owner: row.owner, taskIds, createdAt: row.created_at };
  }
}

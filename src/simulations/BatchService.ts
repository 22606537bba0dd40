// Batches (POST /simulations/batch, docs/spec/decisions.md §1.3): an explicit list of SimulationRequests, or a
// base request with a parameter sweep (grid = Cartesian product, zip = element-wise). Every item is
// checked before anything is queued (one bad item queues nothing), then all are queued at once.
// Status counts the batch's simulations by state; cancel stops the unfinished ones.
import { randomUUID } from 'node:crypto';
import { AppError, validationError } from '../http/errors.js';
import type { Runtime } from '../jobs/runtime.js';
import { FINAL_STATES, type TaskRecord } from '../jobs/types.js';
import type { BatchRecord } from '../store/types.js';
import type { SimulationRequest, CircuitCache } from './SimulationRequest.js';
import { OWNER, type SimulationService } from './SimulationService.js';

export interface BatchRequest {
  /** An explicit list of simulations (or use base + sweep). */
  simulations?: SimulationRequest[];
  /** The request every sweep variant starts from. */
  base?: SimulationRequest;
  /** Parameter key → values; each variant overrides base.parameters with one value per key. */
  sweep?: Record<string, number[]>;
  /** grid (default): every combination; zip: the i-th value of every key together. */
  mode?: 'grid' | 'zip';
}

/** The variants of a sweep, checked for size before any is built. */
export function expandSweep(sweep: Record<string, number[]>, mode: 'grid' | 'zip', maxItems: number): Record<string, number>[] {
  const keys = Object.keys(sweep);
  if (keys.length === 0) throw validationError('sweep must name at least one parameter', [{ field: 'sweep', message: 'is empty' }]);
  for (const key of keys) {
    const values = sweep[key];
    if (!Array.isArray(values) || values.length === 0) throw validationError(`sweep.${key} must be a non-empty array of numbers`, [{ field: `sweep.${key}`, message: 'must be a non-empty array of numbers' }]);
    const bad = values.findIndex((v) => typeof v !== 'number' || !Number.isFinite(v));
    if (bad >= 0) throw validationError(`sweep.${key}[${bad}] must be a finite number`, [{ field: `sweep.${key}[${bad}]`, message: 'must be a finite number' }]);
  }
  if (mode === 'zip') {
    const length = sweep[keys[0]].length;
    const other = keys.find((k) => sweep[k].length !== length);
    if (other) throw validationError(`mode zip needs equally long value lists; sweep.${keys[0]} has ${length}, sweep.${other} has ${sweep[other].length}`, [{ field: `sweep.${other}`, message: `must have ${length} values` }]);
    tooLarge(length, maxItems);
    return Array.from({ length }, (_, i) => Object.fromEntries(keys.map((k) => [k, sweep[k][i]])));
  }
  tooLarge(keys.reduce((n, k) => n * sweep[k].length, 1), maxItems);
  let combos: Record<string, number>[] = [{}];
  for (const key of keys) combos = combos.flatMap((c) => sweep[key].map((v) => ({ ...c, [key]: v })));
  return combos;
}

function tooLarge(count: number, maxItems: number): void {
  if (count > maxItems) throw validationError(`The batch has ${count} simulations, more than the limit of ${maxItems} (sim.api.max-batch-size)`, [{ field: 'simulations', message: `at most ${maxItems} per batch` }]);
}

export interface BatchStatusData {
  batch: BatchRecord;
  tasks: TaskRecord[];
}

export class BatchService {
  constructor(
    private readonly runtime: Runtime,
    private readonly simulations: SimulationService,
    private readonly maxBatchSize: number,
  ) {}

  async submit(body: BatchRequest): Promise<{ batch: BatchRecord; tasks: TaskRecord[] }> {
    const requests = this.requestsOf(body);
    const cache: CircuitCache = new Map();
    const batchId = randomUUID();
    const inputs = [];
    for (const [i, { request, prefix }] of requests.entries()) {
      const input = await this.simulations.prepare(request, prefix ?? `simulations[${i}].`, cache);
      inputs.push({ ...input, batchId });
      // Checking 10 000 items takes seconds: let other requests through now and then.
      if (i % 250 === 249) await new Promise((resolve) => setImmediate(resolve));
    }
    const tasks = await this.simulations.submitMany(inputs);
    const batch: BatchRecord = { id: batchId, owner: OWNER, taskIds: tasks.map((t) => t.id), createdAt: new Date().toISOString() };
    this.runtime.recordBatch(batch);
    return { batch, tasks };
  }

  get(id: string): BatchStatusData {
    const batch = this.runtime.batch(id);
    if (!batch || batch.owner !== OWNER) throw new AppError(404, 'BATCH_NOT_FOUND', `No batch ${id}`);
    const { tasks } = this.runtime.listTasks({ owner: OWNER, batchId: id });
    const byId = new Map(tasks.map((t) => [t.id, t]));
    const ordered = batch.taskIds.map((taskId) => byId.get(taskId)).filter((t): t is TaskRecord => t !== undefined);
    return { batch, tasks: ordered.map((t) => (t.state === 'running' || t.state === 'paused' ? { ...t, progress: this.runtime.scheduler.progress(t.id) } : t)) };
  }

  /** Cancels every queued, running or paused simulation of the batch. */
  cancel(id: string): number {
    const { tasks } = this.get(id);
    let cancelled = 0;
    for (const task of tasks) {
      if (FINAL_STATES.includes(task.state)) continue;
      try {
        this.runtime.scheduler.cancel(task.id);
        cancelled++;
      } catch {
        // finished in the meantime: nothing to cancel
      }
    }
    return cancelled;
  }

  private requestsOf(body: BatchRequest): { request: SimulationRequest; prefix?: string }[] {
    const hasList = body.simulations !== undefined;
    const hasSweep = body.base !== undefined || body.sweep !== undefined;
    if (hasList === hasSweep) {
      throw validationError('Send either "simulations" (a list of requests) or "base" with "sweep"', [{ field: hasList ? 'base' : 'simulations', message: 'give either simulations, or base and sweep' }]);
    }
    if (hasList) {
      const list = body.simulations!;
      if (list.length === 0) throw validationError('simulations must not be empty', [{ field: 'simulations', message: 'must not be empty' }]);
      tooLarge(list.length, this.maxBatchSize);
      return list.map((request) => ({ request }));
    }
    if (!body.base) throw validationError('base is required with sweep', [{ field: 'base', message: 'is required with sweep' }]);
    if (!body.sweep) throw validationError('sweep is required with base', [{ field: 'sweep', message: 'is required with base' }]);
    const variants = expandSweep(body.sweep, body.mode ?? 'grid', this.maxBatchSize);
    const base = body.base;
    return variants.map((values) => ({ request: { ...base, parameters: { ...(base.parameters ?? {}), ...values } }, prefix: 'base.' }));
  }
}

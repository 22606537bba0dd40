// Batches (POST /simulations/batch, docs/spec/decisions.md §1.3): an explicit list of SimulationRequests, or a
// base request with a parameter sweep (grid = Cartesian product, zip = element-wise). Every item is
// checked before anything is queued (one bad item queues nothing), then all are queued at once.
// Status counts the batch's simulations by state; cancel stops the unfinished ones.
import { randomUUID } from 'node:crypto';
import { AppError, validationError } from '../http/errors.js';
import { checkSubmittedCircuit } from '../jobs/circuit-check.js';
import { CHECK_THREAD_MIN } from '../jobs/check-thread.js';
import { batchTable, type BatchTable } from '../jobs/batch-table.js';
import type { ServiceRuntime } from '../jobs/runtime.js';
import type { SubmitInput } from '../jobs/scheduler.js';
import type { TaskProgress, TaskRecord, TaskState } from '../jobs/types.js';
import type { BatchEntryRow, BatchHeader } from '../store/batch-results.js';
import type { BatchRecord } from '../store/types.js';
import { circuitProblem } from '../circuits/circuit-errors.js';
import type { StoredRequest, SimulationRequest, CircuitCache } from './SimulationRequest.js';
import { SIMULATION_OWNER, type SimulationService } from './SimulationService.js';

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

/**
 * The variants of a sweep, checked for size before any is built: each one the `base` parameters
 * with one value per sweep key over them (a grid varies the last key fastest). One object per
 * variant and nothing else: a sweep of 100 000 variants builds 100 000 objects.
 */
export function expandSweep(sweep: Record<string, number[]>, mode: 'grid' | 'zip', maxItems: number, base: Record<string, number> = {}): Record<string, number>[] {
  const keys = Object.keys(sweep);
  if (keys.length === 0) throw validationError('sweep must name at least one parameter', [{ field: 'sweep', message: 'is empty' }]);
  for (const key of keys) {
    const values = sweep[key];
    if (!Array.isArray(values) || values.length === 0) throw validationError(`sweep.${key} must be a non-empty array of numbers`, [{ field: `sweep.${key}`, message: 'must be a non-empty array of numbers' }]);
    const bad = values.findIndex((v) => typeof v !== 'number' || !Number.isFinite(v));
    if (bad >= 0) throw validationError(`sweep.${key}[${bad}] must be a finite number`, [{ field: `sweep.${key}[${bad}]`, message: 'must be a finite number' }]);
  }
  const variant = (valueIndex: (keyIndex: number) => number): Record<string, number> => {
    const parameters = { ...base };
    for (const [k, key] of keys.entries()) parameters[key] = sweep[key][valueIndex(k)];
    return parameters;
  };
  if (mode === 'zip') {
    const length = sweep[keys[0]].length;
    const other = keys.find((k) => sweep[k].length !== length);
    if (other) throw validationError(`mode zip needs equally long value lists; sweep.${keys[0]} has ${length}, sweep.${other} has ${sweep[other].length}`, [{ field: `sweep.${other}`, message: `must have ${length} values` }]);
    tooLarge(length, maxItems);
    return Array.from({ length }, (_, i) => variant(() => i));
  }
  const count = keys.reduce((n, k) => n * sweep[k].length, 1);
  tooLarge(count, maxItems);
  // The index of variant n's value of key k: n in mixed radix, the last key the lowest digit.
  const strides = keys.map((_, k) => keys.slice(k + 1).reduce((n, later) => n * sweep[later].length, 1));
  return Array.from({ length: count }, (_, n) => variant((k) => Math.floor(n / strides[k]) % sweep[keys[k]].length));
}

function tooLarge(count: number, maxItems: number): void {
  if (count > maxItems) throw validationError(`The batch has ${count} simulations, more than the limit of ${maxItems} (sim.api.max-batch-size)`, [{ field: 'simulations', message: `at most ${maxItems} per batch` }]);
}

export interface BatchStatusData {
  batch: BatchHeader;
  /** Runs per state. */
  counts: Partial<Record<TaskState, number>>;
  /** Live progress of the batch's running and paused runs. */
  running: { id: string; progress: TaskProgress }[];
  /** The page of per-run entries asked for, in batch order. */
  entries: BatchEntryRow[];
  /** Ids of failed runs (at most the page size). */
  failedIds: string[];
}

/** Per-run entries of a batch status by default (the rest by offset, or the results table). */
export const STATUS_ENTRIES = 1000;

export class BatchService {
  constructor(
    private readonly runtime: ServiceRuntime,
    private readonly simulations: SimulationService,
    private readonly maxBatchSize: number,
  ) {}

  async submit(body: BatchRequest): Promise<{ batch: BatchRecord; tasks: TaskRecord[] }> {
    const batchId = randomUUID();
    const inputs = body.simulations === undefined && body.base !== undefined && body.sweep !== undefined
      ? await this.prepareSweep(body)
      : await this.prepareList(body);
    for (const input of inputs) input.batchId = batchId; // the inputs were just built for this batch
    const tasks = await this.simulations.submitMany(inputs);
    const batch: BatchRecord = { id: batchId, owner: SIMULATION_OWNER, taskIds: tasks.map((t) => t.id), createdAt: new Date().toISOString() };
    this.runtime.recordBatchOfTasks(batch);
    return { batch, tasks };
  }

  /** The header of one of this service's batches, or 404 BATCH_NOT_FOUND. */
  header(id: string, counts?: Partial<Record<TaskState, number>>): BatchHeader {
    const batch = this.runtime.batchResults.header(id, counts);
    if (!batch || batch.owner !== SIMULATION_OWNER) throw new AppError(404, 'BATCH_NOT_FOUND', `No batch ${id}`);
    return batch;
  }

  /** Counts from an index, live progress of the running runs, and one page of entries. */
  get(id: string, limit = STATUS_ENTRIES, offset = 0): BatchStatusData {
    const reader = this.runtime.batchResults;
    const counts = this.runtime.scheduler.batchStateCounts(id);
    const batch = this.header(id, counts);
    const running = this.runtime.scheduler.runningProgressOf(id);
    const live = new Map(running.map((r) => [r.id, r.progress]));
    const entries = reader.entries(id, limit, offset).map((e) => (live.has(e.taskId) ? { ...e, progress: live.get(e.taskId)! } : e));
    return { batch, counts, running, entries, failedIds: reader.idsInStates(id, ['failed'], limit) };
  }

  /** The batch's results table: one row per simulation, read page by page as it is sent. */
  results(id: string): Promise<BatchTable> {
    const batch = this.header(id);
    return batchTable(this.runtime.batchResults, id, {
      names: { run: 'run', id: 'simulationId', status: 'status', duration: 'durationMs', error: 'errorMessage' },
      head: { batchId: batch.id, totalSimulations: batch.size },
      readMeasurements: async (taskId) => (await this.runtime.scheduler.result(taskId)).measurements,
    });
  }

  /** Cancels every queued, running or paused simulation of the batch. */
  cancel(id: string): number {
    this.header(id);
    // The queued runs in one statement; the few running and paused ones below.
    let cancelled = this.runtime.scheduler.cancelQueuedOfBatch(id);
    for (;;) {
      // Each pass takes a page of the unfinished runs; cancelled ones leave the set.
      const ids = this.runtime.batchResults.idsInStates(id, ['queued', 'running', 'paused'], 10 * STATUS_ENTRIES);
      if (ids.length === 0) return cancelled;
      const before = cancelled;
      cancelled += this.runtime.scheduler.cancelMany(ids); // one commit per page
      if (cancelled === before) return cancelled; // the page finished in the meantime
    }
  }

  /** An explicit list (or a request with neither form, which fails with the reason). */
  private async prepareList(body: BatchRequest): Promise<SubmitInput[]> {
    const requests = this.requestsOf(body);
    const cache: CircuitCache = new Map();
    const inputs: SubmitInput[] = [];
    for (const [i, request] of requests.entries()) {
      inputs.push(await this.simulations.prepare(request, `simulations[${i}].`, cache));
      // Checking 10 000 items takes seconds: let other requests through now and then.
      if (i % 250 === 249) await new Promise((resolve) => setImmediate(resolve));
    }
    return inputs;
  }

  /**
   * A base request with a sweep: the base is checked once as a whole (circuit, settings, window,
   * signals, with the first variant's values); then each distinct value is checked with the engine
   * (a grid: each value of each key once, with the first values of the others; a zip: each
   * variant), and every variant shares the checked circuit. A grid of 100 × 1 000 values thus
   * checks 1 100 values, not 100 000 circuits.
   */
  private async prepareSweep(body: BatchRequest): Promise<SubmitInput[]> {
    const mode = body.mode ?? 'grid';
    this.requestsOf(body); // the form's checks
    const variants = expandSweep(body.sweep!, mode, this.maxBatchSize, body.base!.parameters ?? {});
    const first = await this.simulations.prepare({ ...body.base!, parameters: variants[0] }, 'base.');
    const check = (parameters: Record<string, number>): void => {
      try {
        checkSubmittedCircuit(first.spec.netlist, parameters);
      } catch (error) {
        throw circuitProblem(error, 'base.parameters');
      }
    };
    // The parameter sets to check, in the order they are checked (the first that fails is reported).
    const toCheck: Record<string, number>[] = [];
    if (mode === 'grid') {
      for (const [key, values] of Object.entries(body.sweep!)) {
        for (const value of new Set(values)) toCheck.push({ ...variants[0], [key]: value });
      }
    } else {
      toCheck.push(...variants.slice(1));
    }
    // Many checks go to the circuit-check thread in one message; only a failing set is checked
    // again here, for its error.
    const failing = toCheck.length >= CHECK_THREAD_MIN ? await this.runtime.checks.firstFailing(toCheck.map((parameters) => ({ netlist: first.spec.netlist, parameters }))) : undefined;
    if (failing !== undefined && failing >= 0) check(toCheck[failing]);
    if (failing === undefined || failing >= 0) {
      // On this thread: the thread could not take them (or, which it should not, disagreed).
      for (const [i, parameters] of toCheck.entries()) {
        check(parameters);
        // Checking 10 000 values takes a second: let other requests through now and then.
        if (i % 250 === 249) await new Promise((resolve) => setImmediate(resolve));
      }
    }
    const request = first.request as StoredRequest;
    // Spec and request hold the same parameters object (the store then writes its text once).
    return variants.map((parameters) => ({ ...first, spec: { ...first.spec, parameters }, request: { ...request, parameters } }));
  }

  /** Checks the form of the body (a list, or base with sweep); the list's requests, none for a sweep. */
  private requestsOf(body: BatchRequest): SimulationRequest[] {
    const hasList = body.simulations !== undefined;
    const hasSweep = body.base !== undefined || body.sweep !== undefined;
    if (hasList === hasSweep) {
      throw validationError('Send either "simulations" (a list of requests) or "base" with "sweep"', [{ field: hasList ? 'base' : 'simulations', message: 'give either simulations, or base and sweep' }]);
    }
    if (hasList) {
      const list = body.simulations!;
      if (list.length === 0) throw validationError('simulations must not be empty', [{ field: 'simulations', message: 'must not be empty' }]);
      tooLarge(list.length, this.maxBatchSize);
      return list;
    }
    if (!body.base) throw validationError('base is required with sweep', [{ field: 'base', message: 'is required with sweep' }]);
    if (!body.sweep) throw validationError('sweep is required with base', [{ field: 'sweep', message: 'is required with base' }]);
    return [];
  }
}

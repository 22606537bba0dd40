// Simulations as a resource over the job runtime: submission (checked by SimulationRequest.ts),
// status with live progress and stored results, listing, pause/resume/cancel with the state rules
// of docs/spec/decisions.md §1.2, and reading results for export and analysis. Only tasks owned by this
// service ('simulation') are visible here.
import { AppError } from '../http/errors.js';
import { scopeChannels, type Netlist } from '../formats/netlist.js';
import type { ServiceRuntime } from '../jobs/runtime.js';
import type { StoredResult, TaskRecord, TaskState } from '../jobs/types.js';
import { InvalidStateError } from '../jobs/errors.js';
import type { CircuitService } from '../circuits/CircuitService.js';
import { buildSubmission, type CircuitCache, type RecentInlineCircuits, type SimulationRequest } from './SimulationRequest.js';
import { RecentCircuits } from './recent-circuits.js';
import { presentMeasurements, presentStatus, type SimulationResults, type SimulationStatus } from './SimulationPresenter.js';
import type { SubmitInput } from '../jobs/scheduler.js';

export const SIMULATION_OWNER = 'simulation';

export interface ListFilter {
  states?: TaskState[];
  batchId?: string;
  limit: number;
  offset: number;
}

/** Summaries read from result files (cache hits, older tasks), kept in memory: status requests repeat. */
const RESULTS_KEPT = 256;

export class SimulationService {
  private readonly results = new Map<string, SimulationResults>();
  private readonly recentCircuits: RecentInlineCircuits = new RecentCircuits();

  constructor(
    private readonly runtime: ServiceRuntime,
    private readonly circuits: CircuitService,
    private readonly limits: { maxSteps: number },
  ) {}

  /** Checks one request (throws the AppError naming the field); does not queue it. */
  prepare(request: SimulationRequest, prefix = '', cache?: CircuitCache): Promise<SubmitInput> {
    return buildSubmission(request, this.circuits, this.limits, prefix, cache, this.recentCircuits);
  }

  async submit(request: SimulationRequest): Promise<TaskRecord> {
    return this.runtime.scheduler.submit(await this.prepare(request));
  }

  /** Queues prepared submissions all or none (QUEUE_FULL for the set). */
  submitMany(inputs: SubmitInput[]): Promise<TaskRecord[]> {
    return this.runtime.scheduler.submitMany(inputs);
  }

  /** The task, or 404 SIMULATION_NOT_FOUND. */
  task(id: string): TaskRecord {
    const task = this.runtime.task(id);
    if (!task || task.owner !== SIMULATION_OWNER) throw new AppError(404, 'SIMULATION_NOT_FOUND', `No simulation ${id}; GET /api/v1/simulations lists them`);
    return task;
  }

  async status(id: string): Promise<SimulationStatus> {
    const task = this.task(id);
    const live = task.state === 'running' || task.state === 'paused' ? this.runtime.scheduler.progress(id) : task.progress;
    const results = task.state === 'completed' ? await this.summary(task) : null;
    return presentStatus(task, live, results);
  }

  list(filter: ListFilter): { tasks: TaskRecord[]; total: number } {
    return this.runtime.listTasks({ owner: SIMULATION_OWNER, states: filter.states, batchId: filter.batchId, limit: filter.limit, offset: filter.offset });
  }

  pause(id: string): TaskRecord {
    return this.stateChange(id, 'pause', () => this.runtime.scheduler.pause(id));
  }

  resume(id: string): TaskRecord {
    return this.stateChange(id, 'resume', () => this.runtime.scheduler.resume(id));
  }

  cancel(id: string): TaskRecord {
    return this.stateChange(id, 'cancel', () => this.runtime.scheduler.cancel(id));
  }

  /** Live progress of the simulation (or the last stored one). */
  progress(id: string): TaskRecord['progress'] {
    const task = this.task(id);
    return task.state === 'running' || task.state === 'paused' ? this.runtime.scheduler.progress(id) : task.progress;
  }

  /** The stored waveforms and measurements of a completed simulation; 409 INVALID_STATE otherwise. */
  async result(id: string): Promise<StoredResult> {
    const task = this.task(id);
    if (task.state !== 'completed') {
      throw new AppError(409, 'INVALID_STATE', `Simulation ${id} is ${task.state}; its results exist once it is completed`);
    }
    return this.runtime.scheduler.result(id);
  }

  /**
   * Measurements and signal names of a completed simulation: from its record, or (cache hits, and
   * tasks completed before the store kept summaries) from its result file, remembered here.
   */
  private async summary(task: TaskRecord): Promise<SimulationResults> {
    if (task.summary) {
      const { measurements, signals, steady } = task.summary;
      return { measurements: presentMeasurements(measurements), signals, labels: channelLabels(task.spec.netlist, signals), ...(steady ? { steady } : {}) };
    }
    const id = task.id;
    let summary = this.results.get(id);
    if (!summary) {
      const result = await this.runtime.scheduler.result(id);
      const signals = Object.keys(result.signals);
      summary = { measurements: presentMeasurements(result.measurements), signals, labels: channelLabels(task.spec.netlist, signals), ...(result.steady ? { steady: result.steady } : {}) };
      this.results.set(id, summary);
      if (this.results.size > RESULTS_KEPT) this.results.delete(this.results.keys().next().value!);
    }
    return summary;
  }

  private stateChange(id: string, operation: string, change: () => TaskRecord): TaskRecord {
    this.task(id); // 404 for unknown ids and other services' tasks
    try {
      return change();
    } catch (error) {
      if (error instanceof InvalidStateError) {
        throw new AppError(409, 'INVALID_STATE', `Cannot ${operation} simulation ${id}: it is ${error.state}`);
      }
      throw error;
    }
  }
}

/** The labels of the scope channels among `signals` that have one (`SCOPE.1.ch3` → `u2`). */
function channelLabels(netlist: Netlist, signals: readonly string[]): Record<string, string> {
  const recorded = new Set(signals);
  const labels: Record<string, string> = {};
  for (const block of netlist.blocks ?? []) {
    if (block.type !== 'SCOPE') continue;
    for (const channel of scopeChannels(block)) if (channel.label && recorded.has(channel.key)) labels[channel.key] = channel.label;
  }
  return labels;
}

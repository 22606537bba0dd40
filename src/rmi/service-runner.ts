// The SimulationRunner of the XML-RPC server: a RemoteSession's runSimulation() becomes a task of
// the simulation service (owner `simulation`), so it is listed by GET /api/v1/simulations, streams
// progress like any other and may come from the result cache; stopSimulation() cancels the task
// through the scheduler. The stored result is returned in the engine's SimulationResult shape.
import type { SimulationResult } from '../engine/simulate.js';
import { namedMeasurements } from '../engine/measurement-names.js';
import { scopeChannels, type Netlist } from '../formats/netlist.js';
import type { ServiceRuntime } from '../jobs/runtime.js';
import type { StoredResult } from '../jobs/types.js';
import { SIMULATION_OWNER } from '../simulations/SimulationService.js';
import type { StoredRequest } from '../simulations/SimulationRequest.js';
import { RemoteError, type RemoteRun, type RunOptions, type SimulationRunner } from '../remote/types.js';
import { RuntimeRunError, runOnRuntime } from './runtime-runs.js';
import { checkStepLimit } from '../jobs/step-limit.js';

/** Channel descriptions of a stored result, from the netlist's scopes (labels from `channelNames`). */
export function withChannels(netlist: Netlist, stored: StoredResult): SimulationResult {
  const channels: SimulationResult['channels'] = [];
  for (const block of netlist.blocks ?? []) {
    if (block.type !== 'SCOPE') continue;
    for (const { key, index, label } of scopeChannels(block)) {
      if (stored.signals[key]) channels.push({ key, scope: block.name, index, label });
    }
  }
  const result: SimulationResult = { time: stored.time, signals: stored.signals, channels, measurements: namedMeasurements(stored.measurements), stats: stored.stats, warnings: [], losses: stored.losses ?? [] };
  if (stored.steady) result.steady = stored.steady;
  return result;
}

export class ServiceRunner implements SimulationRunner {
  constructor(
    private readonly runtime: ServiceRuntime,
    /** What the simulation's record names as its circuit (the loaded file). */
    private readonly describe: () => string,
    /** Largest simulated time / time step accepted (sim.api.max-steps). */
    private readonly maxSteps: number,
  ) {}

  async run(netlist: Netlist, options: RunOptions): Promise<RemoteRun> {
    const source = this.describe();
    const { steady } = options;
    const operation = steady ? 'runSteadyState' : 'runSimulation';
    // A steady-state run does not simulate the end time (its length is periods of the analysis).
    const tooLarge = steady ? undefined : checkStepLimit(netlist.settings, this.maxSteps, { ratio: 'end time / time step', setting: 'sim.api.max-steps' });
    if (tooLarge) throw new RemoteError('INVALID_ARGUMENT', `${operation}: ${tooLarge.message}`);
    const request: StoredRequest = { circuitFile: `XML-RPC loadCircuit ${source}`, circuitName: netlist.name ?? source, ...(steady ? { steady } : {}) };
    try {
      const { task, result } = await runOnRuntime(
        this.runtime,
        { owner: SIMULATION_OWNER, priority: 'NORMAL', spec: { netlist, parameters: {}, ...(steady ? { steady } : {}) }, request, modelName: netlist.name ?? source },
        { signal: options.signal, onProgress: options.onProgress },
      );
      return { id: task.id, result: withChannels(netlist, result) };
    } catch (error) {
      if (error instanceof RuntimeRunError) {
        if (error.task.state === 'cancelled') throw new RemoteError('CANCELLED', `${operation}: simulation ${error.task.id} was cancelled (stopSimulation(), or DELETE over HTTP)`);
        throw new RemoteError('SIMULATION_FAILED', `${operation}: simulation ${error.task.id} failed: ${error.message}`, { cause: error });
      }
      throw error;
    }
  }
}

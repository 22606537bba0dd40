// Runs a session's simulations in this process through the engine API (off the main thread on the
// addon's async entry): what `pesim script` uses. Each run gets a fresh id.
import { randomUUID } from 'node:crypto';
import { simulate } from '../engine/simulate.js';
import type { Netlist } from '../formats/netlist.js';
import type { ControlRun, RunOptions, SimulationRunner } from './types.js';

export class EngineRunner implements SimulationRunner {
  async run(netlist: Netlist, options: RunOptions): Promise<ControlRun> {
    const result = await simulate(netlist, { signal: options.signal, onProgress: options.onProgress });
    return { id: randomUUID(), result };
  }
}

// Runs a session's simulations in this process through the engine API (off the main thread on the
// addon's async entry): what `pesim script` uses. Each run gets a fresh id.
import { randomUUID } from 'node:crypto';
import { simulate } from '../engine/simulate.js';
import { steadyState } from '../engine/steady.js';
import type { Netlist } from '../formats/netlist.js';
import type { RemoteRun, RunOptions, SimulationRunner } from './types.js';

export class EngineRunner implements SimulationRunner {
  async run(netlist: Netlist, options: RunOptions): Promise<RemoteRun> {
    const { signal, onProgress, steady } = options;
    const result = steady ? await steadyState(netlist, { ...steady, signal, onProgress }) : await simulate(netlist, { signal, onProgress });
    return { id: randomUUID(), result };
  }
}

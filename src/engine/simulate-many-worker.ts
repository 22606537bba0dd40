// A thread of simulateMany (simulate-many.ts): runs the sweep's netlist with the parameter sets it
// is sent, one at a time, and answers each with its measurements and run time, or its error. The
// arrays of a run's waveforms stay here (their memory is reused by the next run).
import { parentPort, workerData } from 'node:worker_threads';
import type { Netlist, ParameterOverrides } from '../formats/netlist.js';
import { PreparedCircuit } from './prepared-circuit.js';
import { simulateSync } from './simulate.js';

interface Job {
  run: number;
  parameters: ParameterOverrides;
}

// Checked (and prepared) by simulateMany before the threads start, and never changed here:
// converted for the engine once, each run handing over only its parameters.
const netlist = (workerData as { netlist: Netlist }).netlist;
const circuit = PreparedCircuit.of(netlist, true);
let reuse: Float64Array[] = [];

parentPort!.on('message', ({ run, parameters }: Job) => {
  try {
    const result = circuit ? circuit.simulateSync({ parameters, reuse }) : simulateSync(netlist, { parameters, reuse, shapeChecked: true });
    reuse = [result.time, ...Object.values(result.signals)];
    parentPort!.postMessage({ run, ok: true, measurements: result.measurements, wallMs: result.stats.wallMs });
  } catch (error) {
    parentPort!.postMessage({ run, ok: false, message: (error as Error).message });
  }
});

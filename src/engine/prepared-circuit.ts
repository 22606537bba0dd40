// A netlist converted for the engine once and run with many parameter sets on the calling thread:
// the runs of a sweep differ only in their parameters, so each run hands the engine the parameter
// assignments its overrides make (OverrideResolver, the one rule for overrides and `$name`
// references) instead of a whole netlist to copy, resolve and convert again (native/addon/
// prepared_circuit.hh).
import type { Netlist } from '../formats/netlist.js';
import { OverrideResolver } from '../formats/overrides.js';
import { assignmentArrays } from './assignment-arrays.js';
import { loadBinding } from './binding.js';
import { toEngineError } from './errors.js';
import { prepareNetlist, toResult, type SimulateSyncOptions, type SimulationResult } from './simulate.js';
import type { NativeCircuit } from './types.js';

export class PreparedCircuit {
  private constructor(
    private readonly resolver: OverrideResolver,
    private readonly native: NativeCircuit,
  ) {}

  /**
   * The netlist converted once, or undefined when it does not prepare without overrides (a shape
   * the schema refuses, a reference only an override defines, a circuit the converter refuses):
   * then each run goes through simulateSync, which reports why with its overrides.
   */
  static of(netlist: Netlist, shapeChecked = false): PreparedCircuit | undefined {
    try {
      const base = prepareNetlist(netlist, undefined, shapeChecked);
      return new PreparedCircuit(new OverrideResolver(netlist), loadBinding().prepareCircuit(base));
    } catch {
      return undefined;
    }
  }

  /** simulateSync of the netlist with these overrides: the same result, the same errors. */
  simulateSync(options: Omit<SimulateSyncOptions, 'shapeChecked'> = {}): SimulationResult {
    const { names, lists, items, nameIds, values } = assignmentArrays([this.resolver.assignments(options.parameters).assignments]);
    try {
      return toResult(loadBinding().simulatePreparedSync(this.native, names, lists, items, nameIds, values, options.controller?.native, options.reuse));
    } catch (error) {
      throw toEngineError(error);
    }
  }
}

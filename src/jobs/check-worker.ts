// Piscina task of the circuit-check thread (check-thread.ts): checks a circuit with each of many
// parameter sets, as checkSubmittedCircuit does on the service's thread, and returns the position
// of the first set that fails (-1: none). The service checks that set again itself for the error.
import type { Netlist, ParameterOverrides } from '../formats/netlist.js';
import { checkSubmittedCircuit } from './circuit-check.js';

export default function firstFailing({ netlist, variants }: { netlist: Netlist; variants: ParameterOverrides[] }): number {
  for (let i = 0; i < variants.length; i++) {
    try {
      checkSubmittedCircuit(netlist, variants[i]);
    } catch {
      return i;
    }
  }
  return -1;
}

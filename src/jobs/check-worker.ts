// Piscina task of the circuit-check thread (check-thread.ts): checks circuits with their parameter
// overrides, as checkSubmittedCircuit does on the service's thread, and returns the position of the
// first that fails (-1: none). The service checks that one again itself for the error.
import type { Netlist, ParameterOverrides } from '../formats/netlist.js';
import { checkSubmittedCircuit } from './circuit-check.js';

/** A circuit and the overrides to check it with (checks of one circuit share its object: it crosses to the thread once). */
export interface CircuitCheck {
  netlist: Netlist;
  parameters: ParameterOverrides;
}

export default function firstFailing(checks: CircuitCheck[]): number {
  for (let i = 0; i < checks.length; i++) {
    try {
      checkSubmittedCircuit(checks[i].netlist, checks[i].parameters);
    } catch {
      return i;
    }
  }
  return -1;
}

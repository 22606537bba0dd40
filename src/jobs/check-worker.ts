// Piscina task of the circuit-check thread (check-thread.ts): checks circuits with their parameter
// overrides, as checkSubmittedCircuit does on the service's thread (firstInvalidParameters: the same
// engine check, the circuit converted once for its sets), and returns the position of the first
// that fails (-1: none). The service checks that one again itself for the error.
import type { Netlist, ParameterOverrides } from '../formats/netlist.js';
import { firstInvalidParameters } from '../engine/simulate.js';
import { decodeChecks, type CheckRun } from './check-payload.js';

/** A circuit and the overrides to check it with (checks of one circuit share its object: it crosses to the thread once). */
export interface CircuitCheck {
  netlist: Netlist;
  parameters: ParameterOverrides;
}

/** The checks as check-thread.ts sends them (check-payload.ts). */
export default function firstFailing(sent: (CheckRun | CircuitCheck)[]): number {
  const checks = decodeChecks(sent);
  // Consecutive checks of one circuit (a sweep's) go to the engine together: converted once.
  for (let start = 0; start < checks.length; ) {
    let end = start + 1;
    while (end < checks.length && checks[end].netlist === checks[start].netlist) end++;
    const failing = firstInvalidParameters(checks[start].netlist, checks.slice(start, end).map((check) => check.parameters));
    if (failing >= 0) return start + failing;
    start = end;
  }
  return -1;
}

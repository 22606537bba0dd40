// Piscina task of the circuit-check thread (check-thread.ts): checks circuits with their parameter
// overrides, as checkSubmittedCircuit does on the service's thread (firstInvalidParameters: the same
// engine check, the circuit converted once for its sets), and returns the position of the first
// that fails (-1: none). The service checks that one again itself for the error.
import type { Netlist, ParameterOverrides } from '../formats/netlist.js';
import { firstInvalidParameterRun, firstInvalidParameters } from '../engine/simulate.js';
import { decodeChecks, type CheckRun } from './check-payload.js';

/** A circuit and the overrides to check it with (checks of one circuit share its object: it crosses to the thread once). */
export interface CircuitCheck {
  netlist: Netlist;
  parameters: ParameterOverrides;
}

/**
 * The checks as check-thread.ts sends them (check-payload.ts). A run of a sweep's values goes to
 * the engine as it came (its keys resolved once for all its sets, firstInvalidParameterRun);
 * checks in object form are decoded, and consecutive ones of one circuit go to the engine together.
 */
export default function firstFailing(sent: (CheckRun | CircuitCheck)[]): number {
  let start = 0;
  for (let i = 0; i < sent.length; ) {
    const item = sent[i];
    if ('values' in item) {
      const failing = firstInvalidParameterRun(item.netlist, item.keys, item.values);
      if (failing >= 0) return start + failing;
      start += item.keys.length === 0 ? 0 : item.values.length / item.keys.length;
      i++;
      continue;
    }
    let end = i + 1;
    while (end < sent.length && !('values' in sent[end])) end++;
    const failing = firstFailingObjects(decodeChecks(sent.slice(i, end)));
    if (failing >= 0) return start + failing;
    start += end - i;
    i = end;
  }
  return -1;
}

/** Consecutive checks of one circuit go to the engine together: converted once. */
function firstFailingObjects(checks: CircuitCheck[]): number {
  for (let start = 0; start < checks.length; ) {
    let end = start + 1;
    while (end < checks.length && checks[end].netlist === checks[start].netlist) end++;
    const failing = firstInvalidParameters(checks[start].netlist, checks.slice(start, end).map((check) => check.parameters));
    if (failing >= 0) return start + failing;
    start = end;
  }
  return -1;
}

// The circuit checks of one message to a check thread in a compact form. A sweep's checks share
// their netlist and their override keys and differ in the values only; as objects, 100 000 of
// them took the service's thread ≈ 0.2 s to clone into the message. Here each run of checks with
// one netlist object and the same keys in the same order crosses as the keys once and the values
// in one Float64Array (copied as a block); the thread makes the override objects again.
import type { Netlist, ParameterOverrides } from '../formats/netlist.js';
import type { CircuitCheck } from './check-worker.js';

/** Checks in a row with one netlist and one key list: `values` holds keys.length numbers per check. */
export interface CheckRun {
  netlist: Netlist;
  keys: string[];
  values: Float64Array;
}

/** Whether the overrides have exactly these keys, in this order, each with a number. */
function sameKeys(parameters: ParameterOverrides, keys: string[]): boolean {
  let n = 0;
  for (const key in parameters) {
    if (key !== keys[n] || typeof parameters[key] !== 'number') return false;
    n++;
  }
  return n === keys.length;
}

function numericKeys(parameters: ParameterOverrides): string[] | undefined {
  const keys = Object.keys(parameters);
  return keys.every((key) => typeof parameters[key] === 'number') ? keys : undefined;
}

/** The checks as runs; a check without overrides, or with one that is not a number, goes in its object form. */
export function encodeChecks(checks: CircuitCheck[]): (CheckRun | CircuitCheck)[] {
  const out: (CheckRun | CircuitCheck)[] = [];
  for (let start = 0; start < checks.length; ) {
    const { netlist, parameters } = checks[start];
    const keys = numericKeys(parameters);
    if (!keys || keys.length === 0) {
      out.push(checks[start++]);
      continue;
    }
    let end = start + 1;
    while (end < checks.length && checks[end].netlist === netlist && sameKeys(checks[end].parameters, keys)) end++;
    const values = new Float64Array((end - start) * keys.length);
    let v = 0;
    for (let k = start; k < end; k++) for (const key of keys) values[v++] = checks[k].parameters[key];
    out.push({ netlist, keys, values });
    start = end;
  }
  return out;
}

function isRun(item: CheckRun | CircuitCheck): item is CheckRun {
  return 'values' in item;
}

/** The checks again, in their order (override objects with their keys in the order sent). */
export function decodeChecks(items: (CheckRun | CircuitCheck)[]): CircuitCheck[] {
  const checks: CircuitCheck[] = [];
  for (const item of items) {
    if (!isRun(item)) {
      checks.push(item);
      continue;
    }
    const { netlist, keys, values } = item;
    const width = keys.length; // at least 1 (encodeChecks)
    const count = values.length / width;
    for (let k = 0; k < count; k++) {
      // fromEntries makes own properties of every key (also "__proto__"), as the object form does.
      checks.push({ netlist, parameters: Object.fromEntries(keys.map((key, j) => [key, values[k * width + j]])) });
    }
  }
  return checks;
}

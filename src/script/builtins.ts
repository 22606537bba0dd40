// All host functions of a script, by name: the remote-control session (specification and
// GeckoSCRIPT names), GeckoSCRIPT's step-wise simulation, its result functions, steady-state detection, global matrices and
// component lists, and the clock. Java's own library (Math, printing, parsing, ...) is the engine's. Also finds the
// blocks whose outputs a script reads with getOutput, so that the runs record them.
import { geckoCircuitListBuiltins } from './gecko-circuit-lists.js';
import { geckoMatrixBuiltins } from './gecko-matrix.js';
import { geckoParameterListBuiltins } from './gecko-parameter-list.js';
import { geckoResultBuiltins } from './gecko-results.js';
import { geckoSteadyStateBuiltins } from './gecko-steady-state.js';
import { geckoSteppingBuiltins } from './gecko-stepping.js';
import type { Builtin, Builtins, ScriptHost } from './host.js';
import { sessionBuiltins } from './session-builtins.js';

function clockBuiltins(): Builtins {
  const list: Builtin[] = [
    { name: 'System.currentTimeMillis', signatures: [{ params: [], returns: 'long' }], call: () => Date.now() },
    { name: 'System.nanoTime', signatures: [{ params: [], returns: 'long' }], call: () => Math.trunc(performance.now() * 1e6) },
  ];
  return new Map(list.map((b) => [b.name, b]));
}

export function createBuiltins(host: ScriptHost): Builtins {
  return new Map([
    ...sessionBuiltins(host), ...geckoSteppingBuiltins(host.stepping), ...geckoResultBuiltins(host), ...geckoSteadyStateBuiltins(host), ...geckoMatrixBuiltins(), ...geckoCircuitListBuiltins(host),
    ...geckoParameterListBuiltins(host), ...clockBuiltins(),
  ]);
}

/**
 * Blocks named by `getOutput("BLOCK", ...)` calls (a compiled piece's host calls); `'all'` when some
 * call names its block by an expression (then every block output is recorded).
 */
export function outputsRead(calls: Array<[string, string | null]>): Set<string> | 'all' {
  const names = new Set<string>();
  for (const [name, first] of calls) {
    if (name !== 'getOutput') continue;
    if (first === null) return 'all';
    names.add(first);
  }
  return names;
}

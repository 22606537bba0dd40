// All functions a script can call, by name: Java's library, output, the remote-control session
// (specification and GeckoSCRIPT names), and GeckoSCRIPT's result functions. Also finds the blocks
// whose outputs a script reads with getOutput, so that the runs record them.
import { geckoResultBuiltins } from './gecko-results.js';
import type { ScriptHost } from './host.js';
import { javaLibrary } from './java-library.js';
import { outputBuiltins } from './output-builtins.js';
import type { Builtins } from './runtime.js';
import { sessionBuiltins } from './session-builtins.js';

export function createBuiltins(host: ScriptHost): Builtins {
  return new Map([...javaLibrary(), ...outputBuiltins((text) => host.write(text)), ...sessionBuiltins(host), ...geckoResultBuiltins(host)]);
}

/**
 * Blocks named by `getOutput("BLOCK", ...)` calls in a syntax tree; `'all'` when some call names its
 * block by an expression (then every block output is recorded).
 */
export function outputsRead(tree: unknown): Set<string> | 'all' {
  const names = new Set<string>();
  let dynamic = false;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const n = node as { kind?: string; callee?: { kind: string; name?: string }; args?: Array<{ kind: string; value?: unknown }> };
    if (n.kind === 'call' && n.callee?.kind === 'name' && n.callee.name === 'getOutput') {
      const first = n.args?.[0];
      if (first?.kind === 'literal' && typeof first.value === 'string') names.add(first.value);
      else dynamic = true;
    }
    for (const [key, value] of Object.entries(node)) if (key !== 'pos') visit(value);
  };
  visit(tree);
  return dynamic ? 'all' : names;
}

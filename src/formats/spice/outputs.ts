// Output blocks of a SPICE deck. SPICE records every node voltage and branch current; a pesim
// netlist records only what its scopes see. The reader therefore adds one VOLT block per node
// (`V(node)`, node to ground, nodes in order of first appearance, lower case as SPICE prints them)
// and one AMP block per inductor, voltage source and current source (`I(name)`, the element name as
// written, current from the first terminal to the second through the element, as SPICE's i(name)),
// all feeding one SCOPE named `SPICE` whose channel names are these labels.
import type { ControlBlock, NetlistElement } from '../netlist.js';

export const SPICE_SCOPE = 'SPICE';

/** Channel label of a node voltage, e.g. `V(out)`. */
export function voltageLabel(node: string): string {
  return `V(${node})`;
}

/** Channel label of an element current, e.g. `I(L1)`. */
export function currentLabel(element: string): string {
  return `I(${element})`;
}

/** Element types whose current the reader records. */
export const RECORDED_CURRENT_TYPES: readonly string[] = ['L', 'V', 'I'];

/** Non-ground nodes in order of first appearance. */
export function nodesInOrder(elements: readonly NetlistElement[]): string[] {
  const seen = new Set<string>();
  for (const element of elements) {
    for (const node of element.nodes) if (node !== '0' && node !== 'gnd') seen.add(node);
  }
  return [...seen];
}

/** VOLT/AMP blocks for every node voltage and recorded current, feeding the scope `SPICE`. */
export function outputBlocks(elements: readonly NetlistElement[], warnings: string[]): ControlBlock[] {
  const taken = new Set(elements.map((e) => e.name.toLowerCase()));
  let scope = SPICE_SCOPE;
  for (let i = 1; taken.has(scope.toLowerCase()); i++) scope = `${SPICE_SCOPE}_${i}`;
  if (scope !== SPICE_SCOPE) warnings.push(`an element is named ${SPICE_SCOPE}: the output scope is named ${scope}`);
  const blocks: ControlBlock[] = [];
  const labels: string[] = [];
  for (const node of nodesInOrder(elements)) {
    const label = voltageLabel(node);
    blocks.push({ name: `${scope}.${label}`, type: 'VOLT', outputs: [label], params: { nodes: [node, '0'] } });
    labels.push(label);
  }
  for (const element of elements) {
    if (!RECORDED_CURRENT_TYPES.includes(element.type)) continue;
    const label = currentLabel(element.name);
    blocks.push({ name: `${scope}.${label}`, type: 'AMP', outputs: [label], params: { element: element.name } });
    labels.push(label);
  }
  if (labels.length > 0) blocks.push({ name: scope, type: 'SCOPE', inputs: labels, params: { channelNames: labels } });
  return blocks;
}

// Sub-networks without a conducting path to ground. pesim ties the first node (in order of first
// appearance) of each such sub-network to the reference with a 1 S conductance and warns; the
// writer adds the same tie as a 1 Ω resistor so that ngspice solves the same circuit (without it,
// ngspice would let the sub-network float on GMIN). Conducting ports follow the engine: R L C V E H
// and the switching devices join their two terminals, TRANS each of its two sides; I, G and F are
// current sources and K, VSW/E control terminals join nothing.
import type { Netlist } from '../netlist.js';

const isGround = (node: string) => node === '0' || node.toLowerCase() === 'gnd';

function conductingPorts(type: string, nodes: string[]): [string, string][] {
  if (type === 'K' || type === 'I' || type === 'G' || type === 'F') return [];
  if (type === 'TRANS') return [[nodes[0], nodes[1]], [nodes[2], nodes[3]]];
  return nodes.length >= 2 ? [[nodes[0], nodes[1]]] : [];
}

/** First node of each sub-network with no conducting path to ground. */
export function floatingNetworkRoots(netlist: Netlist): string[] {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    const key = isGround(x) ? '0' : x;
    let root = parent.get(key) ?? key;
    if (root !== key) {
      root = find(root);
      parent.set(key, root);
    }
    return root;
  };
  const union = (a: string, b: string) => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(ra === '0' ? rb : ra, ra === '0' ? ra : rb);
  };
  const order: string[] = [];
  for (const e of netlist.elements) {
    for (const node of e.nodes) {
      if (!isGround(node) && !parent.has(node)) {
        parent.set(node, node);
        order.push(node);
      }
    }
  }
  for (const e of netlist.elements) for (const [a, b] of conductingPorts(e.type, e.nodes)) union(a, b);
  const seen = new Set<string>();
  const roots: string[] = [];
  for (const node of order) {
    const root = find(node);
    if (root === '0' || seen.has(root)) continue;
    seen.add(root);
    roots.push(node);
  }
  return roots;
}

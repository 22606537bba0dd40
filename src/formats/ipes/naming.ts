// Names of nodes and signals. A node takes its saved label; unlabelled nodes get generated names
// (`n1`, `n2`, ... in the power circuit, `s1`, ... for control signals) in the order their first
// terminal appears in the file. GeckoCIRCUITS has no ground symbol: it grounds the first potential
// area. Any node may serve as reference (only potential differences are observable, and every
// galvanically isolated part gets its own reference either way), so the reader picks the node
// labelled `0` when there is one, else one labelled `gnd`/`GND`, else the node of the first
// potential area (the first wire, or the first terminal), and names it `0`. A label that would
// alias the engine's reference names (`gnd`, `GND`) on another node is renamed `node_<label>`.
// Thermal nodes follow the same rules with their own names (`t1`, ...); their reference "0" is
// every node given in `references` (the thermal zero of Pv and TREF elements) when there are any.
import type { Connectivity, NodeInfo, TerminalRef } from './geometry.js';
import type { Domain } from './components.js';

const REFERENCE_LABELS = ['0', 'gnd', 'GND'];

export interface DomainNames {
  /** Node id → name, for nodes that carry at least one terminal of a mapped component. */
  names: Map<number, string>;
  /** Saved label → node name (every label of a named node). */
  byLabel: Map<string, string>;
  /** Node name → label used in the file, where the two differ. */
  fileLabels: Record<string, string>;
}

function labelled(nodes: NodeInfo[], label: string): NodeInfo | undefined {
  return nodes.find((n) => n.labels.includes(label));
}

/**
 * Names the nodes of one domain. `order` lists the terminals of mapped components in file order;
 * only their nodes are named.
 */
export function nameNodes(conn: Connectivity, domain: Domain, order: TerminalRef[], warnings: string[], references?: Set<number>): DomainNames {
  const used = new Set<number>();
  for (const t of order) {
    const id = conn.nodeOf(t.component, t.side, t.index);
    if (id !== undefined && conn.nodes[id].domain === domain) used.add(id);
  }
  const nodes = conn.nodes.filter((n) => used.has(n.id));
  const names = new Map<number, string>();
  const byLabel = new Map<string, string>();
  const fileLabels: Record<string, string> = {};
  const taken = new Set<string>();

  const grounded = domain === 'LK' || domain === 'THERMAL';
  const tied = nodes.filter((n) => references?.has(n.id));
  for (const node of tied.slice(1)) names.set(node.id, '0');
  if (grounded && nodes.length > 0) {
    const reference = tied[0] ?? labelled(nodes, '0') ?? labelled(nodes, 'gnd') ?? labelled(nodes, 'GND') ?? nodes[0];
    names.set(reference.id, '0');
    taken.add('0');
    const what = domain === 'THERMAL' ? 'thermal reference node' : 'reference node';
    if (reference.labels.length > 0 && !reference.labels.includes('0')) {
      fileLabels['0'] = reference.labels[0];
      if (!tied[0]) warnings.push(`the ${what} (labelled '${reference.labels[0]}' in the file) is node '0' in the netlist`);
    } else if (reference.labels.length === 0 && !tied[0]) {
      warnings.push(`no node is labelled 0: the node of the first potential area is the ${what} 0`);
    }
  }
  for (const node of nodes) {
    if (names.has(node.id) || node.labels.length === 0) continue;
    let name = node.labels[0];
    if (grounded && REFERENCE_LABELS.includes(name)) {
      name = `node_${name}`;
      while (taken.has(name)) name = `${name}_`;
      fileLabels[name] = node.labels[0];
      warnings.push(`node labelled '${node.labels[0]}' is not the reference node; it is named '${name}' in the netlist`);
    }
    if (node.labels.length > 1) {
      warnings.push(`${domain === 'CONTROL' ? 'signal' : 'node'} with several labels (${node.labels.join(', ')}) is named '${name}'`);
    }
    names.set(node.id, name);
    taken.add(name);
  }
  for (const node of nodes) for (const label of node.labels) taken.add(label);
  const prefix = domain === 'LK' ? 'n' : domain === 'THERMAL' ? 't' : 's';
  let counter = 0;
  for (const t of order) {
    const id = conn.nodeOf(t.component, t.side, t.index);
    if (id === undefined || names.has(id) || conn.nodes[id].domain !== domain) continue;
    let name: string;
    do name = `${prefix}${++counter}`; while (taken.has(name));
    names.set(id, name);
    taken.add(name);
  }
  for (const node of nodes) {
    const name = names.get(node.id)!;
    for (const label of node.labels) byLabel.set(label, name);
  }
  return { names, byLabel, fileLabels };
}

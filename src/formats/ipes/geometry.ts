// Connectivity from geometry (GeckoCIRCUITS `NetzlisteAllg` / `PotentialArea`): terminal positions
// per component type and orientation; one potential area per wire (points = every grid point of
// the polyline, ends = its two end points) and per terminal; two areas of one domain merge when an
// end of one lies on a point of the other (so T-junctions and terminals touching a wire connect,
// crossing wires do not); then areas with equal labels merge. Disabled components have no
// terminals; shorted ones (`enabledShorted 2`) join each XIN[i] to YOUT[i].
import type { ComponentRecord, Domain, WireRecord } from './components.js';
import { BLOCK_KINDS, ELEMENT_KINDS, inputCount, outputOffset, type BlockKind } from './catalog.js';

export interface Point {
  x: number;
  y: number;
}

export interface TerminalGeometry {
  domain: Domain;
  ins: Point[];
  outs: Point[];
}

/** GeckoCIRCUITS `TerminalRelativePosition`: offset (px, py) of a symbol turned by its orientation. */
export function relativePoint(orientation: number, x: number, y: number, px: number, py: number): Point {
  switch (orientation) {
    case 504: return { x: x + py, y: y + px };
    case 501: return { x: x - px, y: y + py };
    case 502: return { x: x - py, y: y - px };
    default: return { x: x + px, y: y - py };
  }
}

/** Input and output terminal positions of a control block with `inputs` and `outputs` terminals. */
export function controlTerminals(kind: BlockKind | undefined, x: number, y: number, inputs: number, outputs: number, external: boolean): TerminalGeometry {
  const ins: Point[] = [];
  const base = kind && kind.inputs !== 'var' && external ? kind.inputs : inputs;
  for (let i = 0; i < base; i++) ins.push({ x: x - 2, y: y + i });
  if (external && kind?.external) {
    for (const [px, py] of kind.external.positions) ins.push(relativePoint(503, x, y, px, py));
  }
  const dx = kind ? outputOffset(kind) : 2;
  const outs = Array.from({ length: outputs }, (_, j) => ({ x: x + dx, y: y + j }));
  return { domain: 'CONTROL', ins, outs };
}

/**
 * The saved input labels that count for a block's terminals. A block with external-parameter
 * terminals (SIGNAL, HYS, LIMIT) has them only when its `useExternal` flag (named line, else its
 * `parameter[]` slot) is set: files before 1.60 save labels for those terminals even when the flag
 * is off (GeckoCIRCUITS then removes the terminals).
 */
export function inputLabelCount(c: ComponentRecord, kind: BlockKind): number {
  if (!kind.external || kind.inputs === 'var') return c.inLabels.length;
  const named = c.tokens.boolean('useExternal');
  const flag = named ?? (kind.external.slot < c.slots.length ? c.slots[kind.external.slot] > 0.5 : undefined);
  return flag === false ? Math.min(c.inLabels.length, kind.inputs) : c.inLabels.length;
}

/** Terminal positions of a component, or undefined for kinds without terminals known here. */
export function componentTerminals(c: ComponentRecord): TerminalGeometry | undefined {
  if (c.block === 'e') {
    const kind = ELEMENT_KINDS[c.typ];
    if (!kind) return undefined;
    const at = (px: number, py: number): Point => relativePoint(c.orientation, c.x, c.y, px, py);
    if (kind.terminals === 'twoPort') return { domain: 'LK', ins: [at(0, 2)], outs: [at(0, -2)] };
    if (kind.terminals === 'transformer') return { domain: 'LK', ins: [at(-1, 2), at(-1, -2)], outs: [at(1, 2), at(1, -2)] };
    // GeckoCIRCUITS OperationalAmplifier: XIN (1, 2), (−1, 2); YOUT (0, −3), (−2, −1).
    if (kind.terminals === 'opamp') return { domain: 'LK', ins: [at(1, 2), at(-1, 2)], outs: [at(0, -3), at(-2, -1)] };
    // GeckoCIRCUITS MotorPMSM (AbstractThreePhaseMotor): XIN (−2, 1), (−2, 0), (−2, −1).
    if (kind.terminals === 'threePhase') return { domain: 'LK', ins: [at(-2, 1), at(-2, 0), at(-2, -1)], outs: [] };
    return { domain: 'LK', ins: [], outs: [] };
  }
  if (c.block === 'c') {
    const kind = BLOCK_KINDS[c.typ];
    if (!kind) return controlTerminals(undefined, c.x, c.y, c.inLabels.length, c.outLabels.length, false);
    const { inputs, external } = inputCount(kind, inputLabelCount(c, kind));
    return controlTerminals(kind, c.x, c.y, inputs, kind.outputs, external);
  }
  return undefined;
}

export interface PlacedComponent {
  geometry: TerminalGeometry;
  /** Shorted components join XIN[i]–YOUT[i] instead of having terminals of their own. */
  shorted: boolean;
}

export interface TerminalRef {
  component: number;
  side: 'in' | 'out';
  index: number;
}

export interface NodeInfo {
  id: number;
  domain: Domain;
  /** Distinct non-empty labels on the node, in file order (wires first, then terminals). */
  labels: string[];
  terminals: TerminalRef[];
}

export interface Connectivity {
  nodes: NodeInfo[];
  /** Node id of a terminal (undefined for components that were not placed). */
  nodeOf(component: number, side: 'in' | 'out', index: number): number | undefined;
  /** Node id of each wire, in the order of the `wires` given. */
  wireNodes: number[];
}

interface Area {
  domain: Domain;
  points: Point[];
  ends: Point[];
  label: string;
  terminal?: TerminalRef;
}

class UnionFind {
  private readonly parent: number[] = [];
  add(): number {
    this.parent.push(this.parent.length);
    return this.parent.length - 1;
  }
  find(a: number): number {
    while (this.parent[a] !== a) {
      this.parent[a] = this.parent[this.parent[a]];
      a = this.parent[a];
    }
    return a;
  }
  union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent[Math.max(ra, rb)] = Math.min(ra, rb);
  }
}

const key = (domain: Domain, p: Point): string => `${domain}|${p.x}|${p.y}`;

/**
 * Builds the nodes of all domains. `components[i]` undefined = not part of the circuit. Labels of
 * terminals come from the component records (`inLabels`, `outLabels`); wires carry their own.
 */
export function connect(records: ComponentRecord[], placed: Array<PlacedComponent | undefined>, wires: WireRecord[]): Connectivity {
  const areas: Area[] = [];
  for (const w of wires) {
    const points = w.x.map((x, i) => ({ x, y: w.y[i] }));
    areas.push({ domain: w.domain, points, ends: [points[0], points[points.length - 1]], label: w.label });
  }
  placed.forEach((p, component) => {
    if (!p) return;
    const { domain, ins, outs } = p.geometry;
    const record = records[component];
    if (p.shorted) {
      for (let i = 0; i < Math.min(ins.length, outs.length); i++) {
        areas.push({ domain, points: [ins[i], outs[i]], ends: [ins[i], outs[i]], label: '' });
      }
      return;
    }
    ins.forEach((point, index) => areas.push({
      domain, points: [point], ends: [point], label: record.inLabels[index] ?? '', terminal: { component, side: 'in', index },
    }));
    outs.forEach((point, index) => areas.push({
      domain, points: [point], ends: [point], label: record.outLabels[index] ?? '', terminal: { component, side: 'out', index },
    }));
  });

  const uf = new UnionFind();
  const byPoint = new Map<string, number[]>();
  areas.forEach((area, i) => {
    uf.add();
    for (const p of area.points) {
      const k = key(area.domain, p);
      const list = byPoint.get(k);
      if (list) list.push(i);
      else byPoint.set(k, [i]);
    }
  });
  areas.forEach((area, i) => {
    for (const end of area.ends) for (const j of byPoint.get(key(area.domain, end)) ?? []) uf.union(i, j);
  });
  const byLabel = new Map<string, number>();
  areas.forEach((area, i) => {
    if (!area.label) return;
    const k = `${area.domain}|${area.label}`;
    const first = byLabel.get(k);
    if (first === undefined) byLabel.set(k, i);
    else uf.union(first, i);
  });

  const nodeOfRoot = new Map<number, NodeInfo>();
  const terminalNode = new Map<string, number>();
  const nodes: NodeInfo[] = [];
  const wireNodes: number[] = [];
  areas.forEach((area, i) => {
    const root = uf.find(i);
    let node = nodeOfRoot.get(root);
    if (!node) {
      node = { id: nodes.length, domain: area.domain, labels: [], terminals: [] };
      nodes.push(node);
      nodeOfRoot.set(root, node);
    }
    if (i < wires.length) wireNodes.push(node.id);
    if (area.label && !node.labels.includes(area.label)) node.labels.push(area.label);
    if (area.terminal) {
      node.terminals.push(area.terminal);
      terminalNode.set(`${area.terminal.component}|${area.terminal.side}|${area.terminal.index}`, node.id);
    }
  });
  return {
    nodes,
    nodeOf: (component, side, index) => terminalNode.get(`${component}|${side}|${index}`),
    wireNodes,
  };
}

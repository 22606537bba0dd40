// Response shapes of the circuit endpoints (docs/spec/decisions.md §1.3): the circuit record, its component
// list and the validation result. The only place these bodies are built.
import type { Netlist, ParamValue, SolverMethod } from '../formats/netlist.js';
import type { CircuitRecord } from '../store/types.js';

export type SolverType = 'backward-euler' | 'trapezoidal' | 'gear-shichman';

export interface CircuitParameters {
  /** Simulated time [s]. */
  simulationDuration: number;
  /** Integration time step [s]. */
  timeStep: number;
  solverType: SolverType;
}

export interface Circuit {
  circuitId: string;
  name: string;
  /** Format the file was read as (detected from the content). */
  format: 'ipes' | 'spice' | 'json';
  /** Power-circuit elements plus control blocks. */
  componentCount: number;
  /** Circuit nodes other than ground (0). */
  nodeCount: number;
  parameters: CircuitParameters;
  /** Global parameters of the circuit (`$name` in parameter overrides). */
  globalParameters: Record<string, number>;
  /** Reader and engine warnings. */
  warnings: string[];
  /** ISO 8601 UTC. */
  createdAt: string;
}

export interface CircuitList {
  circuits: Circuit[];
  total: number;
}

export interface CircuitComponent {
  /** `<TYPE>.<index>`, the prefix of parameter keys (`R.1` → `R.1.R`). */
  name: string;
  type: string;
  kind: 'element' | 'block';
  /** Terminal nodes (elements; empty for control blocks). */
  nodes: string[];
  parameters: Record<string, number | string | number[] | string[]>;
  /** Signal names read and written (control blocks). */
  inputs?: string[];
  outputs?: string[];
}

export interface ComponentList {
  circuitId: string;
  components: CircuitComponent[];
}

export interface ValidationIssue {
  code: string;
  message: string;
  component?: string;
}

export interface ValidationResult {
  circuitId: string;
  valid: boolean;
  errors: ValidationIssue[];
  warnings: ValidationIssue[];
}

export function circuitParameters(netlist: Netlist): CircuitParameters {
  const solver: SolverMethod = netlist.settings.solver ?? 'backward-euler';
  return { simulationDuration: netlist.settings.tEnd, timeStep: netlist.settings.dt, solverType: solver };
}

export function nodeCount(netlist: Netlist): number {
  const nodes = new Set<string>();
  for (const e of netlist.elements) for (const n of e.nodes) if (n !== '0' && n.toLowerCase() !== 'gnd') nodes.add(n);
  return nodes.size;
}

export function presentCircuit(record: CircuitRecord): Circuit {
  const n = record.netlist;
  return {
    circuitId: record.id,
    name: record.name,
    format: record.format,
    componentCount: n.elements.length + (n.blocks?.length ?? 0),
    nodeCount: nodeCount(n),
    parameters: circuitParameters(n),
    globalParameters: { ...(n.parameters ?? {}) },
    warnings: record.warnings,
    createdAt: record.createdAt,
  };
}

const copyParams = (params?: Record<string, ParamValue>): Record<string, ParamValue> => ({ ...(params ?? {}) });

export function presentComponents(record: CircuitRecord): ComponentList {
  const elements: CircuitComponent[] = record.netlist.elements.map((e) => ({ name: e.name, type: e.type, kind: 'element', nodes: [...e.nodes], parameters: copyParams(e.params) }));
  const blocks: CircuitComponent[] = (record.netlist.blocks ?? []).map((b) => ({
    name: b.name, type: b.type, kind: 'block', nodes: [], parameters: copyParams(b.params), inputs: [...(b.inputs ?? [])], outputs: [...(b.outputs ?? [])],
  }));
  return { circuitId: record.id, components: [...elements, ...blocks] };
}

// Response shape of GET /api/v1/circuits/{id}/schematic: what the dashboard needs to draw a
// circuit. Every netlist component (power-circuit elements, control blocks, thermal elements) with
// its domain and, when the file was an .ipes, its grid position and orientation from the geometry
// the reader keeps (src/formats/ipes/layout.ts); the wires as polylines with their domain and label.
// Circuits read from SPICE or JSON have no geometry: positions are null and wires empty.
import { layoutOf } from '../formats/ipes/layout.js';
import type { CircuitRecord } from '../store/types.js';

export type SchematicDomain = 'power' | 'control' | 'thermal' | 'magnetic';

export interface SchematicPosition {
  /** Grid column of the symbol's reference point. */
  x: number;
  /** Grid row of the symbol's reference point. */
  y: number;
  /** GeckoCIRCUITS orientation code: 501, 502, 503 or 504 (503 is the symbol as drawn). */
  orientation: number;
}

export interface SchematicComponent {
  /** Netlist name (`R.1`, `PI.2`, ...). */
  name: string;
  type: string;
  kind: 'element' | 'block' | 'thermal';
  domain: SchematicDomain;
  /** Terminal nodes (elements, thermal elements) or signals read and written (blocks). */
  connections: string[];
  /** Signals read (blocks). */
  inputs?: string[];
  /** Signals written (blocks). */
  outputs?: string[];
  /** Null when the file had no geometry for it (SPICE, JSON, components the reader added). */
  position: SchematicPosition | null;
}

export interface SchematicWire {
  domain: SchematicDomain;
  /** Node or signal label written on the wire (may be empty). */
  label: string;
  /** Grid points of the polyline, [x, y] pairs. */
  points: number[][];
}

export interface Schematic {
  circuitId: string;
  /** True when the circuit carries .ipes geometry. */
  hasGeometry: boolean;
  components: SchematicComponent[];
  wires: SchematicWire[];
}

const DOMAINS: Record<string, SchematicDomain> = { LK: 'power', CONTROL: 'control', THERMAL: 'thermal', RELUCTANCE: 'magnetic' };

export function presentSchematic(record: CircuitRecord): Schematic {
  const netlist = record.netlist;
  const layout = layoutOf(netlist);
  const position = (name: string): SchematicPosition | null => {
    const c = layout?.components[name];
    return c ? { x: c.x, y: c.y, orientation: c.orientation } : null;
  };
  const components: SchematicComponent[] = [
    ...netlist.elements.map((e): SchematicComponent => ({
      name: e.name, type: e.type, kind: 'element', domain: 'power', connections: [...e.nodes], position: position(e.name),
    })),
    ...(netlist.blocks ?? []).map((b): SchematicComponent => ({
      name: b.name, type: b.type, kind: 'block', domain: 'control', connections: [...(b.inputs ?? []), ...(b.outputs ?? [])],
      inputs: [...(b.inputs ?? [])], outputs: [...(b.outputs ?? [])], position: position(b.name),
    })),
    ...(netlist.thermal ?? []).map((t): SchematicComponent => ({
      name: t.name, type: t.type, kind: 'thermal', domain: 'thermal', connections: [...t.nodes], position: position(t.name),
    })),
  ];
  const wires: SchematicWire[] = (layout?.wires ?? [])
    .filter((w) => w.enabled === undefined || w.enabled !== 0)
    .map((w) => ({ domain: DOMAINS[w.domain] ?? 'power', label: w.label, points: w.x.map((x, i) => [x, w.y[i]]) }));
  return { circuitId: record.id, hasGeometry: layout !== undefined, components, wires };
}

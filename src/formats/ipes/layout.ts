// The .ipes layout kept in `netlist.layout.ipes`: what the writer needs to reproduce the schematic
// and what the netlist itself does not hold. Per component (by name): block kind, typ, grid
// position, orientation, unique id, terminal labels as saved, and type-specific extras (external
// inputs, reversed transformer, ...). Wires with their labels; components that are in the file
// but not in the netlist (disabled, shorted, text fields, ...) as their raw lines; the names of
// blocks and thermal elements the reader added (zero source, PWM expansion, the Pv's parallel
// resistor); node labels (power and thermal) that differ from node names;
// trailer settings without a netlist field.
import type { Netlist } from '../netlist.js';
import type { Domain } from './components.js';

export interface LayoutComponent {
  block: 'e' | 'c' | 'eTH';
  typ: number;
  x: number;
  y: number;
  orientation: number;
  uid: number;
  inLabels: string[];
  outLabels: string[];
  extra?: Record<string, unknown>;
}

export interface LayoutWire {
  domain: Domain;
  label: string;
  x: number[];
  y: number[];
  /** 0 disabled, 2 shorted; absent = enabled. */
  enabled?: number;
}

export interface IpesLayout {
  version: 1;
  components: Record<string, LayoutComponent>;
  wires: LayoutWire[];
  /** Raw text of components that are kept in the file but not in the netlist. */
  inactive: string[][];
  /** Blocks the reader added to the netlist (not written back). */
  synthetic: string[];
  /** Node name → label in the file, where they differ (the reference node, renamed labels). */
  nodeLabels: Record<string, string>;
  /** Thermal node name → label in the file, where they differ (the thermal reference). */
  thermalLabels?: Record<string, string>;
  trailer: { tPause: number };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isNumberArray = (v: unknown): v is number[] => Array.isArray(v) && v.every((x) => typeof x === 'number');
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

function isComponent(v: unknown): v is LayoutComponent {
  return isObject(v) && (v.block === 'e' || v.block === 'c' || v.block === 'eTH') && ['typ', 'x', 'y', 'orientation', 'uid'].every((k) => typeof v[k] === 'number')
    && isStringArray(v.inLabels) && isStringArray(v.outLabels) && (v.extra === undefined || isObject(v.extra));
}

function isWire(v: unknown): v is LayoutWire {
  return isObject(v) && typeof v.domain === 'string' && typeof v.label === 'string' && isNumberArray(v.x) && isNumberArray(v.y)
    && v.x.length === v.y.length && v.x.length > 0;
}

/**
 * The .ipes layout of a netlist, if it has a usable one. A layout that does not have the expected
 * shape (edited by hand, or from another tool) is ignored: the writer then places the components
 * itself.
 */
export function layoutOf(netlist: Netlist): IpesLayout | undefined {
  const raw = netlist.layout?.ipes;
  if (!isObject(raw) || raw.version !== 1 || !isObject(raw.components) || !Array.isArray(raw.wires)) return undefined;
  const components: Record<string, LayoutComponent> = {};
  for (const [name, c] of Object.entries(raw.components)) if (isComponent(c)) components[name] = c;
  const inactive = Array.isArray(raw.inactive) ? raw.inactive.filter(isStringArray) : [];
  const trailer = isObject(raw.trailer) && typeof raw.trailer.tPause === 'number' ? { tPause: raw.trailer.tPause } : { tPause: -1 };
  const nodeLabels: Record<string, string> = {};
  if (isObject(raw.nodeLabels)) {
    for (const [k, v] of Object.entries(raw.nodeLabels)) if (typeof v === 'string') nodeLabels[k] = v;
  }
  const thermalLabels: Record<string, string> = {};
  if (isObject(raw.thermalLabels)) {
    for (const [k, v] of Object.entries(raw.thermalLabels)) if (typeof v === 'string') thermalLabels[k] = v;
  }
  return {
    version: 1,
    thermalLabels,
    components,
    wires: raw.wires.filter(isWire),
    inactive,
    synthetic: isStringArray(raw.synthetic) ? raw.synthetic : [],
    nodeLabels,
    trailer,
  };
}

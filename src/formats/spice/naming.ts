// Names in a written SPICE deck. ngspice lower-cases everything and wants each element name to start
// with its type letter, so the writer maps netlist names onto SPICE names:
//   nodes: lower case, characters outside [a-z0-9_] become `_`, `gnd` is `0`; clashes get `_2`, `_3`...
//   elements: characters outside [A-Za-z0-9_] become `_` (`R.1` → `R_1`), the SPICE letter is put in
//   front when the name does not start with it (`load` of type R → `Rload`), case-insensitive clashes
//   get `_2`, `_3`...; names already valid (everything the reader produces) are kept as they are.
// Helper elements and nodes the writer adds (sense sources, forward-voltage sources, gate sources)
// are allocated from the same pools so they never clash with the netlist's own names.
import type { ElementType, Netlist } from '../netlist.js';

/** SPICE letter of each netlist element type. */
export const SPICE_LETTER: Record<ElementType, string> = {
  R: 'R', L: 'L', C: 'C', K: 'K', TRANS: 'E', V: 'V', I: 'I', E: 'E', F: 'F', G: 'G', H: 'H',
  S: 'S', VSW: 'S', CSW: 'W', D: 'D', THYR: 'S', IGBT: 'S', MOSFET: 'S', OPV: 'X',
  PMSM: 'X',
};

/** A pool of names unique without regard to case. */
export class NamePool {
  private readonly used = new Set<string>();

  constructor(reserved: Iterable<string> = []) {
    for (const name of reserved) this.used.add(name.toLowerCase());
  }

  /** Returns `base` or `base_2`, `base_3`, ... whichever is free, and reserves it. */
  take(base: string): string {
    let name = base;
    for (let i = 2; this.used.has(name.toLowerCase()); i++) name = `${base}_${i}`;
    this.used.add(name.toLowerCase());
    return name;
  }
}

export function sanitizeNode(name: string): string {
  const lower = name.toLowerCase();
  if (lower === '0' || lower === 'gnd') return '0';
  const cleaned = lower.replace(/[^a-z0-9_]/g, '_');
  return cleaned === '' ? 'n' : cleaned;
}

export function sanitizeElement(name: string, letter: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_]/g, '_');
  return cleaned.toUpperCase().startsWith(letter) ? cleaned : `${letter}${cleaned}`;
}

/** The SPICE names of a netlist's nodes and elements, plus pools for helper names. */
export class SpiceNames {
  readonly nodes = new Map<string, string>();
  readonly elements = new Map<string, string>();
  readonly elementPool = new NamePool();
  readonly nodePool = new NamePool(['0']);
  readonly modelPool = new NamePool();

  constructor(netlist: Netlist) {
    // Keep names that are valid as they are first, so that they win over sanitised look-alikes.
    const elements = [...netlist.elements].sort((a, b) => Number(this.isValid(b.name, SPICE_LETTER[b.type])) - Number(this.isValid(a.name, SPICE_LETTER[a.type])));
    for (const element of elements) {
      this.elements.set(element.name, this.elementPool.take(sanitizeElement(element.name, SPICE_LETTER[element.type])));
    }
    const nodes = new Set<string>();
    for (const element of netlist.elements) for (const node of element.nodes) nodes.add(node);
    for (const block of netlist.blocks ?? []) {
      const n = block.params?.nodes;
      if (Array.isArray(n)) for (const node of n) if (typeof node === 'string') nodes.add(node);
    }
    const ordered = [...nodes].sort((a, b) => Number(sanitizeNode(b) === b) - Number(sanitizeNode(a) === a));
    for (const node of ordered) {
      const clean = sanitizeNode(node);
      this.nodes.set(node, clean === '0' ? '0' : this.nodePool.take(clean));
    }
  }

  private isValid(name: string, letter: string): boolean {
    return sanitizeElement(name, letter) === name;
  }

  node(name: string): string {
    if (name === '0' || name.toLowerCase() === 'gnd') return '0';
    const found = this.nodes.get(name);
    if (found === undefined) throw new Error(`internal: node ${name} has no SPICE name`);
    return found;
  }

  element(name: string): string {
    const found = this.elements.get(name);
    if (found === undefined) throw new Error(`internal: element ${name} has no SPICE name`);
    return found;
  }

  /** A new helper element name starting with `letter`, derived from `base`. */
  helper(letter: string, base: string): string {
    return this.elementPool.take(sanitizeElement(`${letter}${base}`, letter));
  }

  /** A new internal node derived from `base`. */
  helperNode(base: string): string {
    return this.nodePool.take(sanitizeNode(base));
  }

  /** A new model name derived from `base`. */
  model(base: string): string {
    return this.modelPool.take(sanitizeNode(base));
  }
}

/** A number as written into a deck: JavaScript's shortest round-trip form (`1e-7`, `0.5`). */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`internal: cannot write ${value} into a SPICE deck`);
  return Object.is(value, -0) ? '0' : String(value);
}

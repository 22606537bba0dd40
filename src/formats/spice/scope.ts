// Names inside subcircuit instances. An element `R1` of instance `X1` is named `X1.R1` (as written),
// a nested one `X1.X2.R1`; an internal node `mid` becomes `x1.mid` (nodes are lower case). Port
// nodes are replaced by the nodes the instance card connects, ground `0` and `.global` nodes keep
// their name. Names of other elements a card refers to (K's inductors, F/H/W controls, `i(V1)` in
// expressions) are scoped like element names.
import type { ParameterTable } from './expressions.js';

export interface CardScope {
  /** Element name prefix as written, e.g. `X1.` or `X1.X2.`. */
  prefix: string;
  /** Port node (lower case) → node of the enclosing scope. */
  ports: Map<string, string>;
  /** Nodes declared with `.global` (lower case). */
  globals: ReadonlySet<string>;
  /** The instance's parameters (defaults, instance values, local `.param`), then the deck's. */
  params: ParameterTable;
}

/** Canonical node name: lower case, `gnd` is ground `0`. */
export function nodeName(text: string): string {
  const lower = text.toLowerCase();
  return lower === 'gnd' ? '0' : lower;
}

/** A node as written on a card, in the card's scope. */
export function scopedNode(text: string, scope?: CardScope): string {
  const node = nodeName(text);
  if (!scope || node === '0' || scope.globals.has(node)) return node;
  return scope.ports.get(node) ?? `${scope.prefix.toLowerCase()}${node}`;
}

/** An element name as written on a card, in the card's scope. */
export function scopedElement(text: string, scope?: CardScope): string {
  return scope ? `${scope.prefix}${text}` : text;
}

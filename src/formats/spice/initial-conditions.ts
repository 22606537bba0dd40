// `.ic V(node)=value ... I(L1)=value`: initial conditions as LTspice and ngspice decks give them.
// pesim starts every run from its elements' initial values (there is no DC operating point), so:
// - `I(L)=value` sets that inductor's initial current `i0`;
// - node voltages set the initial voltage `v0 = V(a) − V(b)` of each capacitor both of whose nodes
//   have a value (ground is 0). An `IC=` on the element itself wins, as in SPICE.
// A node value that reaches no capacitor has no pesim counterpart: a warning names it.
import type { NetlistElement } from '../netlist.js';
import { type Card, lineError } from './lexer.js';
import { CardCursor, type ReadContext } from './cursor.js';
import { nodeName } from './scope.js';

export interface InitialConditions {
  voltages: Map<string, { value: number; line: number }>;
  currents: Map<string, { value: number; line: number; text: string }>;
}

export function emptyInitialConditions(): InitialConditions {
  return { voltages: new Map(), currents: new Map() };
}

/** Reads one `.ic` card into `into`. */
export function readIcCard(card: Card, ctx: ReadContext, into: InitialConditions): void {
  const cursor = new CardCursor(card, ctx);
  cursor.next();
  while (!cursor.atEnd()) {
    const kind = cursor.word('V(node) or I(inductor)');
    if (!['v', 'i'].includes(kind.lower) || !cursor.isPunct('(')) throw lineError('SPICE_SYNTAX', kind.line, `.ic: expected V(node)=value or I(inductor)=value, got '${kind.text}'`, ctx.fileName);
    cursor.next();
    const target = cursor.word(`${kind.text}( name`);
    if (!cursor.isPunct(')')) throw cursor.error(`.ic: expected ')' after ${kind.text}(${target.text}`);
    cursor.next();
    if (!cursor.isPunct('=')) throw cursor.error(`.ic: expected '=' after ${kind.text}(${target.text})`);
    cursor.next();
    const value = cursor.number(`.ic ${kind.text}(${target.text})`);
    if (kind.lower === 'v') into.voltages.set(nodeName(target.text), { value, line: kind.line });
    else into.currents.set(target.lower, { value, line: kind.line, text: target.text });
  }
}

/** Applies the conditions to the elements (see the header comment). */
export function applyInitialConditions(elements: NetlistElement[], ic: InitialConditions, ctx: ReadContext): void {
  const where = (line: number) => `${ctx.fileName ? `${ctx.fileName}:` : 'line '}${line}`;
  for (const [key, { value, line, text }] of ic.currents) {
    const inductor = elements.find((e) => e.name.toLowerCase() === key);
    if (!inductor || inductor.type !== 'L') throw lineError('UNKNOWN_REFERENCE', line, `.ic I(${text}): no inductor named ${text}`, ctx.fileName);
    inductor.params ??= {};
    inductor.params.i0 ??= value;
  }
  const used = new Set<string>();
  const voltage = (node: string) => (node === '0' ? 0 : ic.voltages.get(node)?.value);
  for (const c of elements) {
    if (c.type !== 'C') continue;
    const [a, b] = c.nodes.map(voltage);
    if (a === undefined || b === undefined) continue;
    c.nodes.forEach((n) => used.add(n));
    c.params ??= {};
    c.params.v0 ??= a - b;
  }
  for (const [node, { line }] of ic.voltages) {
    if (!used.has(node)) ctx.warnings.push(`${where(line)}: .ic V(${node}) has no effect: no capacitor joins ${node} to ground or to another node with an .ic value`);
  }
}

// Element cards → netlist elements. Supported letters: R L C K V I E F G H B S W D (X instances are
// flattened by subckt.ts before). Node names are lower-cased (SPICE is case-insensitive) and `gnd`
// becomes `0`; element names are kept as written; inside subcircuit instances both are scoped
// (scope.ts). References to other elements (K's inductors, F/H/W's controlling source) are returned
// as pending and resolved by read.ts once every card is known. LTspice parasitics (Rser, Cpar, ...)
// come back as companion elements, behavioural sources with their control blocks. Any other element
// letter is an error.
import type { ControlBlock, NetlistElement, ParamValue } from '../netlist.js';
import type { CurrentProbe } from './behavioural.js';
import { type BehaviouralSource, readBSource, readValueSource } from './behavioural-cards.js';
import { type Card, lineError } from './lexer.js';
import { CardCursor, type NumericValue, type ReadContext } from './cursor.js';
import { currentSwitchParams, diodeParams, type SpiceModel, switchParams } from './models.js';
import { readSourceSpec, type TranTimes } from './sources.js';
import { scopedElement, scopedNode } from './scope.js';
import { PARASITICS, withParasitics } from './parasitics.js';

export interface ElementContext extends ReadContext {
  models: Map<string, SpiceModel>;
  tran: TranTimes;
}

/** A name on a card that must be another element of the given types. */
export interface PendingReference {
  element: NetlistElement;
  param: 'inductors' | 'control';
  names: { text: string; line: number }[];
  types: readonly string[];
  what: string;
}

export interface ReadElement {
  element: NetlistElement;
  /** LTspice parasitics of the element (Rser, Cpar, ...), elements of their own. */
  companions: NetlistElement[];
  references: PendingReference[];
  /** Control blocks of a behavioural source (B, E/G VALUE and TABLE). */
  blocks: ControlBlock[];
  probes: CurrentProbe[];
}

const UNSUPPORTED_LETTERS: Record<string, string> = {
  m: 'MOSFET (M)', q: 'bipolar transistor (Q)', j: 'JFET (J)',
  z: 'MESFET (Z)', t: 'transmission line (T)', o: 'lossy transmission line (O)',
  u: 'uniform RC line (U)', a: 'XSPICE code model (A)', y: 'transmission line (Y)', p: 'coupled line (P)',
  n: 'OSDI/Verilog-A device (N)',
};

const CONTROLLED_KEYWORDS = new Set(['poly', 'laplace', 'vol', 'cur', 'freq', 'and', 'or', 'nand', 'nor']);

function param(v: NumericValue): ParamValue {
  return v.ref !== undefined ? `$${v.ref}` : v.value;
}

export { nodeName } from './scope.js';

function nodes(cursor: CardCursor, count: number, name: string): string[] {
  const result: string[] = [];
  for (let i = 0; i < count; i++) result.push(scopedNode(cursor.word(`node ${i + 1} of ${name}`).text, cursor.card.scope));
  return result;
}

function positive(cursor: CardCursor, v: NumericValue, what: string, name: string): NumericValue {
  if (!(v.value > 0)) throw cursor.error(`${name}: ${what} must be greater than 0, got ${v.value}`, 'SPICE_SYNTAX', name);
  return v;
}

/** Reads `key=value` options at the end of a card; only `allowed` keys are accepted. */
function options(cursor: CardCursor, name: string, allowed: readonly string[]): Map<string, NumericValue> {
  const result = new Map<string, NumericValue>();
  for (const [key, { token, value }] of cursor.keyValues(name)) {
    if (!allowed.includes(key)) {
      throw lineError('SPICE_UNSUPPORTED', token.line, `${name}: parameter '${token.text}' is not supported`, cursor.ctx.fileName, name);
    }
    result.set(key, cursor.valueOf(value, `${name} ${token.text}`));
  }
  return result;
}

function model(cursor: CardCursor, ctx: ElementContext, name: string, type: string): SpiceModel {
  const token = cursor.word(`model name of ${name}`);
  const found = ctx.models.get(token.lower);
  if (!found) throw lineError('UNKNOWN_REFERENCE', token.line, `${name}: model '${token.text}' is not defined`, ctx.fileName, name);
  if (found.type !== type) {
    throw lineError('SPICE_SYNTAX', token.line, `${name}: model '${found.name}' is a ${found.type.toUpperCase()} model, expected ${type.toUpperCase()}`, ctx.fileName, name);
  }
  return found;
}

/** ON/OFF initial-state flags of S and W (pesim switches start off and settle from the circuit). */
function switchFlags(cursor: CardCursor, name: string): void {
  while (!cursor.atEnd() && ['on', 'off'].includes(cursor.peek()!.lower)) {
    const flag = cursor.next()!;
    cursor.warn(`${name}: initial state ${flag.text.toUpperCase()} ignored (the state follows the control from the first step)`, flag.line);
  }
}

function twoTerminalPassive(cursor: CardCursor, name: string, key: 'R' | 'L' | 'C'): NetlistElement[] {
  const n = nodes(cursor, 2, name);
  if (key === 'R' && cursor.isKeyValue() && cursor.peek()!.lower === 'r') {
    cursor.next();
    cursor.next();
  }
  const value = positive(cursor, cursor.value(`${key} value of ${name}`), key, name);
  const params: Record<string, ParamValue> = { [key]: param(value) };
  const extra = options(cursor, name, key === 'R' ? [] : ['ic', ...PARASITICS[key]]);
  const ic = extra.get('ic');
  if (ic) params[key === 'L' ? 'i0' : 'v0'] = param(ic);
  return withParasitics({ name, type: key, nodes: n, params }, new Map([...extra].map(([k, v]) => [k, v.value])));
}

/** What the reader of one element letter gets: the card's cursor, its name and how to record references. */
interface CardReading {
  cursor: CardCursor;
  ctx: ElementContext;
  name: string;
  letter: string;
  /** Reads `count` element names into a reference of `element` to be resolved once all cards are read. */
  reference(element: NetlistElement, p: PendingReference['param'], types: readonly string[], what: string, count?: number): void;
  /** The element of a behavioural source, keeping its control blocks and current probes. */
  behavioural(b: BehaviouralSource): NetlistElement;
}

/** Reads the rest of a card: its element, followed by its companions (series parasitics). */
type CardReader = (r: CardReading) => NetlistElement[];

function readCoupling({ cursor, name, reference }: CardReading): NetlistElement[] {
  const element: NetlistElement = { name, type: 'K', nodes: [], params: {} };
  reference(element, 'inductors', ['L'], `coupled inductor of ${name}`, 2);
  const k = cursor.value(`coupling factor of ${name}`);
  if (!(k.value > 0 && k.value <= 1)) throw cursor.error(`${name}: coupling factor must be in (0, 1], got ${k.value}`, 'SPICE_SYNTAX', name);
  element.params!.k = param(k);
  return [element];
}

function readIndependentSource({ cursor, ctx, name, letter }: CardReading): NetlistElement[] {
  const n = nodes(cursor, 2, name);
  const series = new Map<string, number>();
  const element: NetlistElement = { name, type: letter === 'v' ? 'V' : 'I', nodes: n, params: readSourceSpec(cursor, name, ctx.tran, letter === 'v' ? series : undefined) };
  return withParasitics(element, series);
}

/** E, G: linear (n+ n- nc+ nc- gain) or behavioural (VALUE, TABLE). */
function readVoltageControlled({ cursor, ctx, name, letter, behavioural }: CardReading): NetlistElement[] {
  const n = nodes(cursor, 2, name);
  const next = cursor.peek();
  if (next && (next.lower === 'value' || next.lower === 'table')) return [behavioural(readValueSource(cursor, name, letter as 'e' | 'g', n))];
  if (next && CONTROLLED_KEYWORDS.has(next.lower)) {
    throw lineError('SPICE_UNSUPPORTED', next.line, `${name}: ${next.text.toUpperCase()} form of a controlled source is not supported (linear ${letter.toUpperCase()} n+ n- nc+ nc- gain, VALUE={expr} or TABLE)`, ctx.fileName, name);
  }
  n.push(...nodes(cursor, 2, name));
  const gain = cursor.value(`${letter === 'e' ? 'gain' : 'transconductance'} of ${name}`);
  return [{ name, type: letter === 'e' ? 'E' : 'G', nodes: n, params: { [letter === 'e' ? 'gain' : 'gm']: param(gain) } }];
}

/** F, H: linear, controlled by the current of a voltage source. */
function readCurrentControlled({ cursor, ctx, name, letter, reference }: CardReading): NetlistElement[] {
  const n = nodes(cursor, 2, name);
  const next = cursor.peek();
  if (next && CONTROLLED_KEYWORDS.has(next.lower)) {
    throw lineError('SPICE_UNSUPPORTED', next.line, `${name}: ${next.text.toUpperCase()} form of a controlled source is not supported (only linear ${letter.toUpperCase()} n+ n- vname value)`, ctx.fileName, name);
  }
  const element: NetlistElement = { name, type: letter === 'f' ? 'F' : 'H', nodes: n, params: {} };
  reference(element, 'control', ['V'], `controlling voltage source of ${name}`);
  const gain = cursor.value(`${letter === 'f' ? 'gain' : 'transresistance'} of ${name}`);
  element.params![letter === 'f' ? 'gain' : 'r'] = param(gain);
  return [element];
}

function readVoltageSwitch({ cursor, ctx, name }: CardReading): NetlistElement[] {
  const n = nodes(cursor, 4, name);
  const m = model(cursor, ctx, name, 'sw');
  switchFlags(cursor, name);
  return [{ name, type: 'VSW', nodes: n, params: { ...switchParams(m, ctx) } }];
}

function readCurrentSwitch({ cursor, ctx, name, reference }: CardReading): NetlistElement[] {
  const n = nodes(cursor, 2, name);
  const element: NetlistElement = { name, type: 'CSW', nodes: n, params: {} };
  reference(element, 'control', ['V'], `controlling voltage source of ${name}`);
  const m = model(cursor, ctx, name, 'csw');
  switchFlags(cursor, name);
  Object.assign(element.params!, currentSwitchParams(m, ctx));
  return [element];
}

function readDiode({ cursor, ctx, name }: CardReading): NetlistElement[] {
  const n = nodes(cursor, 2, name);
  const m = model(cursor, ctx, name, 'd');
  let area = 1;
  if (cursor.isValueNext()) area = positive(cursor, cursor.value(`area of ${name}`), 'area', name).value;
  while (!cursor.atEnd()) {
    const t = cursor.peek()!;
    if (t.lower === 'off') {
      cursor.next();
      cursor.warn(`${name}: OFF ignored (the diode state follows its voltage)`, t.line);
    } else if (cursor.isKeyValue() && ['ic', 'temp', 'dtemp', 'm'].includes(t.lower)) {
      cursor.next();
      cursor.next();
      cursor.next();
      cursor.warn(`${name}: ${t.text.toUpperCase()}= ignored`, t.line);
    } else {
      throw lineError('SPICE_UNSUPPORTED', t.line, `${name}: unexpected '${t.text}' on a diode card`, ctx.fileName, name);
    }
  }
  return [{ name, type: 'D', nodes: n, params: { ...diodeParams(m, area, ctx) } }];
}

const passive: CardReader = ({ cursor, name, letter }) => twoTerminalPassive(cursor, name, letter.toUpperCase() as 'R' | 'L' | 'C');

/** The readers of the element letters, by letter. */
const CARD_READERS: Record<string, CardReader> = {
  r: passive, l: passive, c: passive,
  k: readCoupling,
  v: readIndependentSource, i: readIndependentSource,
  b: ({ cursor, name, behavioural }) => [behavioural(readBSource(cursor, name, nodes(cursor, 2, name)))],
  e: readVoltageControlled, g: readVoltageControlled,
  f: readCurrentControlled, h: readCurrentControlled,
  s: readVoltageSwitch,
  w: readCurrentSwitch,
  d: readDiode,
};

/** Reads one element card. */
export function readElementCard(card: Card, deckCtx: ElementContext): ReadElement {
  const ctx: ElementContext = card.scope || card.file
    ? { ...deckCtx, params: card.scope?.params ?? deckCtx.params, fileName: card.file ?? deckCtx.fileName }
    : deckCtx;
  const cursor = new CardCursor(card, ctx);
  const nameToken = cursor.word('element name');
  const name = scopedElement(nameToken.text, card.scope);
  const letter = nameToken.lower[0];
  const references: PendingReference[] = [];
  const blocks: ControlBlock[] = [];
  const probes: CurrentProbe[] = [];
  const reference: CardReading['reference'] = (element, p, types, what, count = 1) => {
    const names = [];
    for (let i = 0; i < count; i++) {
      const t = cursor.word(what);
      names.push({ text: scopedElement(t.text, card.scope), line: t.line });
    }
    references.push({ element, param: p, names, types, what });
  };
  const behavioural = (b: BehaviouralSource): NetlistElement => {
    blocks.push(...b.chain.blocks);
    probes.push(...b.chain.probes);
    if (b.control) references.push({ element: b.element, param: 'control', names: [b.control], types: ['V', 'L', 'E', 'H'], what: `controlling element of ${name}` });
    return b.element;
  };
  const read = Object.hasOwn(CARD_READERS, letter) ? CARD_READERS[letter] : undefined;
  if (!read) {
    const what = UNSUPPORTED_LETTERS[letter];
    throw lineError(
      'SPICE_UNSUPPORTED',
      nameToken.line,
      what
        ? `${name}: ${what} is not supported by the SPICE reader (supported: R L C K V I E F G H B S W D X)`
        : `${name}: unknown element letter '${nameToken.text[0]}'`,
      ctx.fileName,
      name,
    );
  }
  const [element, ...companions] = read({ cursor, ctx, name, letter, reference, behavioural });
  cursor.end(`the ${name} card`);
  return { element, companions, references, blocks, probes };
}

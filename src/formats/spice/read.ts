// SPICE deck → pesim netlist (the reader's entry point). The deck's includes are expanded
// (includes.ts) and its `.subckt` definitions taken out (subckt.ts); then three passes over the cards:
// 1. control cards: `.param` definitions, `.model`s, `.global`, `.ic`, and the cards that are skipped
//    with a warning (`.control` blocks, output and other analysis cards, `.backanno`) or rejected;
// 2. `.tran` and `.options` (their values may use parameters defined anywhere);
// 3. element cards (X instances flattened first, then cards.ts), then references between elements,
//    `.ic` values, and the output blocks (outputs.ts) after the blocks of behavioural sources.
// Mappings: `.tran TSTEP TSTOP [TSTART [TMAX]] [UIC]` → dt = TSTEP, or TMAX when given and smaller
// (TSTEP 0, as LTspice writes it: TMAX); tEnd = TSTOP. `.options method=trap` → trapezoidal (also the
// default, as in SPICE), `method=gear` → gear-shichman (backward-euler with `maxord=1`).
import { assertNetlistShape, type ControlBlock, type Netlist, type NetlistElement, type SolverMethod } from '../netlist.js';
import type { CurrentProbe } from './behavioural.js';
import { NetlistError } from '../errors.js';
import { type Card, lexDeck, lineError, isIdentifier } from './lexer.js';
import { FUNCTIONS, ParameterTable } from './expressions.js';
import { readFuncCard } from './functions.js';
import { CardCursor, type ReadContext } from './cursor.js';
import { readModelCard, type SpiceModel } from './models.js';
import { type ElementContext, type PendingReference, readElementCard } from './cards.js';
import type { TranTimes } from './sources.js';
import { outputBlocks } from './outputs.js';
import { type DeckFileReader, expandIncludes } from './includes.js';
import { collectSubcircuits, expandInstance, type Definitions } from './subckt.js';
import { nodeName } from './scope.js';
import { applyInitialConditions, emptyInitialConditions, readIcCard } from './initial-conditions.js';

export interface SpiceReadOptions {
  /** Reads files the deck includes (`.include`, `.lib`, PWL files), by path relative to the deck. */
  files?: DeckFileReader;
}

export interface SpiceReadResult {
  netlist: Netlist;
  warnings: string[];
}

const OUTPUT_CARDS = new Set(['.meas', '.measure', '.print', '.save', '.plot', '.probe', '.four', '.fourier', '.width', '.op']);
const OTHER_ANALYSES = new Set(['.ac', '.dc', '.noise', '.tf', '.sens', '.disto', '.pz', '.sp', '.pss']);
const IGNORED_CARDS = new Set(['.temp', '.nodeset', '.endc']);

interface Tran extends TranTimes {
  uic: boolean;
}

/** True when `name=` starts at tokens[j] (not `>=`, `<=`, `!=` or `==` inside an expression). */
function startsDefinition(tokens: Card['tokens'], j: number): boolean {
  const t = tokens[j];
  return t.kind === 'word' && isIdentifier(t.text) && tokens[j + 1]?.kind === 'punct' && tokens[j + 1].text === '='
    && !(tokens[j + 2]?.kind === 'punct' && tokens[j + 2].text === '=');
}

function readParamCard(card: Card, params: ParameterTable, fileName?: string): void {
  const tokens = card.tokens.slice(1);
  let i = 0;
  while (i < tokens.length) {
    if (tokens[i].kind === 'punct' && tokens[i].text === ',') { i++; continue; }
    const name = tokens[i];
    if (name.kind !== 'word' || !isIdentifier(name.text) || tokens[i + 1]?.text !== '=') {
      throw lineError('SPICE_SYNTAX', name.line, `.param: expected name=value, got '${name.text}'`, fileName);
    }
    let j = i + 2;
    const parts: string[] = [];
    while (j < tokens.length && !startsDefinition(tokens, j)) {
      const t = tokens[j];
      parts.push(t.kind === 'expr' ? `(${t.text})` : t.text);
      j++;
    }
    while (parts[parts.length - 1] === ',') parts.pop();
    if (parts.length === 0) throw lineError('SPICE_SYNTAX', name.line, `.param ${name.text}: missing value`, fileName);
    // Joined without spaces, so that `a >= b` and `a == b` (split at '=' by the lexer) stay operators.
    params.define(name.text, parts.join(''), { line: name.line, fileName });
    i = j;
  }
}

function readTran(card: Card, ctx: ReadContext): Tran {
  const cursor = new CardCursor(card, ctx);
  cursor.next();
  const values: number[] = [];
  let uic = false;
  while (!cursor.atEnd()) {
    if (cursor.peek()!.lower === 'uic') { cursor.next(); uic = true; continue; }
    if (values.length >= 4) throw cursor.error(`.tran: unexpected '${cursor.peek()!.text}'`, 'SPICE_UNSUPPORTED');
    values.push(cursor.number('.tran value'));
  }
  const [given, tstop, tstart = 0, tmax = 0] = values;
  if (given !== undefined && tstop === undefined) {
    throw lineError('SPICE_SYNTAX', card.line, '.tran TSTOP alone (LTspice) gives no step: pesim runs at a fixed step, write .tran TSTEP TSTOP or .tran 0 TSTOP 0 TMAX', ctx.fileName);
  }
  if (given === undefined || tstop === undefined) throw lineError('SPICE_SYNTAX', card.line, '.tran needs TSTEP and TSTOP', ctx.fileName);
  // LTspice writes `.tran 0 TSTOP TSTART TMAX`: the step is TMAX.
  const tstep = given === 0 && tmax > 0 ? tmax : given;
  if (!(tstep > 0) || !(tstop > 0)) throw lineError('SPICE_SYNTAX', card.line, '.tran: TSTEP (or, when it is 0, TMAX) and TSTOP must be greater than 0', ctx.fileName);
  if (tmax < 0 || tstart < 0 || tstart >= tstop) throw lineError('SPICE_SYNTAX', card.line, '.tran: TSTART must be in [0, TSTOP) and TMAX not negative', ctx.fileName);
  if (tstart > 0) cursor.warn(`.tran TSTART = ${tstart} s: pesim records from t = 0`, card.line);
  const dt = tmax > 0 && tmax < tstep ? tmax : tstep;
  return { tstep, tstop, dt, uic };
}

type Options = Map<string, { value: string; line: number }>;

function readOptions(card: Card, ctx: ReadContext, options: Options): void {
  const cursor = new CardCursor(card, ctx);
  cursor.next();
  while (!cursor.atEnd()) {
    const key = cursor.word('option name');
    if (cursor.isPunct('=')) {
      cursor.next();
      const value = cursor.next();
      if (!value || value.kind === 'punct') throw cursor.error(`.options ${key.text}: missing value`);
      options.set(key.lower, { value: value.lower, line: key.line });
    } else {
      options.set(key.lower, { value: '', line: key.line });
    }
  }
}

function solverFrom(options: Options, ctx: ReadContext): SolverMethod {
  for (const [key, { line }] of options) {
    if (key !== 'method' && key !== 'maxord') {
      ctx.warnings.push(`${ctx.fileName ? `${ctx.fileName}:` : 'line '}${line}: .options ${key} ignored`);
    }
  }
  const method = options.get('method');
  if (!method || method.value === 'trap' || method.value === 'trapezoidal') return 'trapezoidal';
  if (method.value === 'gear') return options.get('maxord')?.value === '1' ? 'backward-euler' : 'gear-shichman';
  throw lineError('SPICE_UNSUPPORTED', method.line, `.options method=${method.value} is not supported (trap or gear)`, ctx.fileName);
}

function resolveReferences(elements: NetlistElement[], pending: PendingReference[], lines: Map<NetlistElement, number>, fileName?: string): void {
  const byName = new Map<string, NetlistElement>();
  for (const element of elements) {
    const key = element.name.toLowerCase();
    const first = byName.get(key);
    if (first) {
      throw lineError('SPICE_SYNTAX', lines.get(element)!, `element name ${element.name} is already used on line ${lines.get(first)}`, fileName, element.name);
    }
    byName.set(key, element);
  }
  for (const ref of pending) {
    const resolved = ref.names.map(({ text, line }) => {
      const target = byName.get(text.toLowerCase());
      if (!target) throw lineError('UNKNOWN_REFERENCE', line, `${ref.element.name}: ${ref.what} '${text}' is not defined`, fileName, ref.element.name);
      if (!ref.types.includes(target.type)) {
        throw lineError('SPICE_SYNTAX', line, `${ref.element.name}: ${ref.what} '${text}' is a ${target.type} element, expected ${ref.types.join(' or ')}`, fileName, ref.element.name);
      }
      return target.name;
    });
    if (ref.param === 'inductors') {
      if (resolved[0] === resolved[1]) throw lineError('SPICE_SYNTAX', ref.names[1].line, `${ref.element.name}: couples ${resolved[0]} with itself`, fileName, ref.element.name);
      ref.element.params!.inductors = resolved;
    } else {
      ref.element.params!.control = resolved[0];
    }
  }
}

/** Points the AMP blocks of `i(name)` in expressions at their element (names are case-insensitive). */
function resolveProbes(elements: NetlistElement[], probes: CurrentProbe[], fileName?: string): void {
  const byName = new Map(elements.map((e) => [e.name.toLowerCase(), e]));
  for (const probe of probes) {
    const wanted = String(probe.block.params!.element);
    const target = byName.get(wanted.toLowerCase());
    if (!target) throw lineError('UNKNOWN_REFERENCE', probe.line, `i(${probe.text}): element '${wanted}' is not defined`, fileName);
    probe.block.params!.element = target.name;
  }
}

/** The dot cards of a deck read, and its element cards set aside for after the models and subcircuits. */
interface DeckCards {
  ctx: ReadContext;
  models: Map<string, SpiceModel>;
  globals: Set<string>;
  initialConditions: ReturnType<typeof emptyInitialConditions>;
  elementCards: Card[];
  tranCard?: Card;
  optionCards: Card[];
  title: string | undefined;
  where(line: number): string;
  addModel(card: Card): void;
}

/** Reads one dot card into the deck (parameters, models, functions, analyses, options, skipped cards). */
function readDotCard(deck: DeckCards, card: Card): void {
  const { ctx, where } = deck;
  const { warnings, fileName } = ctx;
  const head = card.tokens[0];
  const keyword = head.lower;
  if (keyword === '.param') readParamCard(card, ctx.params, card.file ?? fileName);
  else if (keyword === '.model') deck.addModel(card);
  else if (keyword === '.func') {
    const { name, fn } = readFuncCard(card, (n) => Object.hasOwn(FUNCTIONS, n), card.file ?? fileName);
    ctx.params.defineFunction(name, fn);
  }
  else if (keyword === '.global') for (const t of card.tokens.slice(1)) deck.globals.add(nodeName(t.text));
  else if (keyword === '.tran') {
    if (deck.tranCard) warnings.push(`${where(card.line)}: second .tran replaces the one on line ${deck.tranCard.line}`);
    deck.tranCard = card;
  } else if (keyword === '.options' || keyword === '.option' || keyword === '.opt' || keyword === '.opts') deck.optionCards.push(card);
  else if (keyword === '.control') warnings.push(`${where(card.line)}: .control block (lines ${card.line}–${card.endLine}) skipped`);
  else if (OUTPUT_CARDS.has(keyword)) warnings.push(`${where(card.line)}: ${head.text} skipped (every node voltage and source/inductor current is recorded in scope SPICE)`);
  else if (OTHER_ANALYSES.has(keyword)) warnings.push(`${where(card.line)}: ${head.text} analysis skipped (only .tran is simulated)`);
  else if (IGNORED_CARDS.has(keyword)) warnings.push(`${where(card.line)}: ${head.text} ignored`);
  else if (keyword === '.title') deck.title = card.tokens.slice(1).map((t) => t.text).join(' ');
  else if (keyword === '.ic') readIcCard(card, card.file ? { ...ctx, fileName: card.file } : ctx, deck.initialConditions);
  else if (keyword === '.backanno') warnings.push(`${where(card.line)}: .backanno skipped (LTspice schematic annotation)`);
  else {
    throw lineError('SPICE_UNSUPPORTED', card.line, `${head.text} is not supported by the SPICE reader`, fileName);
  }
}

function readDotCards(cards: Card[], ctx: ReadContext, title: string | undefined): DeckCards {
  const { fileName, warnings } = ctx;
  const models = new Map<string, SpiceModel>();
  const where = (line: number) => `${fileName ? `${fileName}:` : 'line '}${line}`;
  const deck: DeckCards = {
    ctx, models, globals: new Set<string>(), initialConditions: emptyInitialConditions(), elementCards: [], optionCards: [], title, where,
    addModel: (card) => {
      const model = readModelCard(card, card.file ? { ...ctx, fileName: card.file } : ctx);
      const previous = models.get(model.name.toLowerCase());
      if (previous) warnings.push(`${where(card.line)}: .model ${model.name} replaces the one on line ${previous.line}`);
      models.set(model.name.toLowerCase(), model);
    },
  };
  for (const card of cards) {
    if (card.tokens[0].lower.startsWith('.')) readDotCard(deck, card);
    else deck.elementCards.push(card);
  }
  return deck;
}

/** The element cards (subcircuit instances expanded): elements with their references, blocks and probes resolved. */
function readElementCards(deck: DeckCards, definitions: Definitions, tran: ElementContext['tran']): { elements: NetlistElement[]; blocks: ControlBlock[] } {
  const { ctx } = deck;
  const { fileName } = ctx;
  const subcircuitModels: Card[] = [];
  const sink = { models: subcircuitModels, readParam: readParamCard };
  const flatCards = deck.elementCards.flatMap((card) => card.tokens[0].lower.startsWith('x')
    ? expandInstance(card, (name) => definitions.get(name), { ...ctx, globals: deck.globals }, sink)
    : [card]);
  for (const card of new Set(subcircuitModels)) deck.addModel(card);
  const elementCtx: ElementContext = { ...ctx, models: deck.models, tran };
  const elements: NetlistElement[] = [];
  const pending: PendingReference[] = [];
  const lines = new Map<NetlistElement, number>();
  const blocks: ControlBlock[] = [];
  const probes: CurrentProbe[] = [];
  for (const card of flatCards) {
    const read = readElementCard(card, elementCtx);
    for (const element of [read.element, ...read.companions]) {
      elements.push(element);
      lines.set(element, card.line);
    }
    pending.push(...read.references);
    blocks.push(...read.blocks);
    probes.push(...read.probes);
  }
  resolveReferences(elements, pending, lines, fileName);
  resolveProbes(elements, probes, fileName);
  applyInitialConditions(elements, deck.initialConditions, ctx);
  return { elements, blocks };
}

/** Reads a SPICE deck (the subset in docs/spice.md) into a pesim netlist. */
export function readSpice(text: string, fileName?: string, deckOptions: SpiceReadOptions = {}): SpiceReadResult {
  const lexed = lexDeck(text, fileName);
  const { cards, definitions } = collectSubcircuits(expandIncludes(lexed.cards, deckOptions.files, fileName), fileName);
  const warnings: string[] = [];
  const params = new ParameterTable();
  const ctx: ReadContext = { params, fileName, warnings, files: deckOptions.files };
  const deck = readDotCards(cards, ctx, lexed.title);
  const { tranCard } = deck;
  if (!tranCard) {
    throw new NetlistError('SPICE_SYNTAX', `${fileName ? `${fileName}: ` : ''}no .tran card: the deck must give .tran TSTEP TSTOP`, [
      { field: '.tran', message: 'missing .tran card' },
    ]);
  }
  const tran = readTran(tranCard, ctx);
  const options: Options = new Map();
  for (const card of deck.optionCards) readOptions(card, ctx, options);
  const solver = solverFrom(options, ctx);

  const { elements, blocks } = readElementCards(deck, definitions, tran);
  if (!tran.uic && elements.some((e) => e.type === 'C' || e.type === 'L')) {
    warnings.push(`${deck.where(tranCard.line)}: .tran without UIC: pesim starts from the IC= values (0 when absent), not from a DC operating point`);
  }

  const parameters = params.all();
  const { title } = deck;
  const netlist: Netlist = {
    format: 'pesim-netlist/1',
    ...(title ? { name: title } : {}),
    settings: { tEnd: tran.tstop, dt: tran.dt, solver },
    ...(Object.keys(parameters).length > 0 ? { parameters } : {}),
    elements,
    blocks: [...blocks, ...outputBlocks(elements, warnings)],
  };
  assertNetlistShape(netlist);
  return { netlist, warnings: [...new Set(warnings)] };
}

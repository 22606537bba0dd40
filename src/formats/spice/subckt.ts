// Subcircuits: `.subckt NAME port... [params:] [k=default ...]` … `.ends` definitions and
// `Xname node... NAME [params:] [k=value ...]` instances. Instances are flattened into the element
// cards of their bodies, each card carrying its instance scope (scope.ts: `X1.R1`, node `x1.mid`).
// Definitions may be nested (a definition inside another is visible only in that one's body) and
// instances may nest up to MAX_DEPTH levels. In a body, `.param` defines instance-local parameters
// and `.model` cards are read as the deck's own (model names are global, as in LTspice); any other
// dot card is an error. Instance values are evaluated in the scope of the instance card.
import { type Card, type Token, lineError } from './lexer.js';
import { ParameterTable } from './expressions.js';
import { CardCursor, type ReadContext } from './cursor.js';
import { type CardScope, scopedElement, scopedNode } from './scope.js';

const MAX_DEPTH = 20;

export interface SubcktDefinition {
  name: string;
  ports: string[];
  defaults: { name: string; expression: string; line: number }[];
  body: Card[];
  line: number;
  file?: string;
}

export type Definitions = Map<string, SubcktDefinition>;

/** What a body contributes besides its element cards. */
export interface FlattenSink {
  models: Card[];
  readParam: (card: Card, params: ParameterTable, fileName?: string) => void;
}

const where = (card: Card, fileName?: string) => card.file ?? fileName;

function expressionText(t: Token): string {
  return t.kind === 'expr' ? `(${t.text})` : t.text;
}

/** Reads `name=value` pairs (after an optional `params:`) from `tokens[start]` on. */
function assignments(tokens: Token[], start: number, what: string, fileName?: string): { name: string; expression: string; line: number; token: Token }[] {
  const result = [];
  let i = start;
  if (tokens[i]?.lower === 'params:') i++;
  while (i < tokens.length) {
    const key = tokens[i];
    if (key.kind === 'punct' && key.text === ',') { i++; continue; }
    const value = tokens[i + 2];
    if (key.kind !== 'word' || tokens[i + 1]?.text !== '=' || !value || value.kind === 'punct') {
      throw lineError('SPICE_SYNTAX', key.line, `${what}: expected name=value, got '${key.text}'`, fileName);
    }
    result.push({ name: key.lower, expression: expressionText(value), line: key.line, token: key });
    i += 3;
  }
  return result;
}

/** Index of the first `params:` or `name=` token at or after `from` (tokens.length when none). */
function firstAssignment(tokens: Token[], from: number): number {
  for (let i = from; i < tokens.length; i++) {
    if (tokens[i].lower === 'params:' || (tokens[i].kind === 'word' && tokens[i + 1]?.text === '=')) return i;
  }
  return tokens.length;
}

/** Removes the `.subckt` … `.ends` blocks from `cards`; returns the other cards and the definitions. */
export function collectSubcircuits(cards: Card[], fileName?: string): { cards: Card[]; definitions: Definitions } {
  const rest: Card[] = [];
  const definitions: Definitions = new Map();
  for (let i = 0; i < cards.length; i++) {
    const card = cards[i];
    const keyword = card.tokens[0].lower;
    if (keyword === '.ends') throw lineError('SPICE_SYNTAX', card.line, '.ends without a .subckt', where(card, fileName));
    if (keyword !== '.subckt') { rest.push(card); continue; }
    const file = where(card, fileName);
    const nameToken = card.tokens[1];
    if (!nameToken || nameToken.kind !== 'word') throw lineError('SPICE_SYNTAX', card.line, '.subckt: missing subcircuit name', file);
    const split = firstAssignment(card.tokens, 2);
    const ports = card.tokens.slice(2, split).map((t) => {
      if (t.kind !== 'word') throw lineError('SPICE_SYNTAX', t.line, `.subckt ${nameToken.text}: expected a port node, got '${t.text}'`, file);
      return t.lower;
    });
    const defaults = assignments(card.tokens, split, `.subckt ${nameToken.text}`, file);
    let depth = 1;
    let j = i + 1;
    for (; j < cards.length; j++) {
      const k = cards[j].tokens[0].lower;
      if (k === '.subckt') depth++;
      else if (k === '.ends' && --depth === 0) break;
    }
    if (j >= cards.length) throw lineError('SPICE_SYNTAX', card.line, `.subckt ${nameToken.text} without .ends`, file);
    const key = nameToken.lower;
    const previous = definitions.get(key);
    if (previous) throw lineError('SPICE_SYNTAX', card.line, `.subckt ${nameToken.text} is already defined on line ${previous.line}`, file);
    definitions.set(key, { name: nameToken.text, ports, defaults, body: cards.slice(i + 1, j), line: card.line, file: card.file });
    i = j;
  }
  return { cards: rest, definitions };
}

/**
 * Flattens one `X` card into the element cards of its subcircuit's body (recursively).
 * `lookup` finds definitions visible where the card is written.
 */
export function expandInstance(
  card: Card,
  lookup: (name: string) => SubcktDefinition | undefined,
  ctx: ReadContext & { globals: ReadonlySet<string> },
  sink: FlattenSink,
  depth = 1,
): Card[] {
  const file = where(card, ctx.fileName);
  const tokens = card.tokens;
  const instance = tokens[0];
  const split = firstAssignment(tokens, 1);
  const nameToken = tokens[split - 1];
  if (split < 2 || nameToken.kind !== 'word') throw lineError('SPICE_SYNTAX', card.line, `${instance.text}: missing subcircuit name`, file, instance.text);
  const definition = lookup(nameToken.lower);
  if (!definition) throw lineError('UNKNOWN_REFERENCE', nameToken.line, `${instance.text}: subcircuit '${nameToken.text}' is not defined`, file, instance.text);
  if (depth > MAX_DEPTH) throw lineError('SPICE_SYNTAX', card.line, `${instance.text}: subcircuits nested more than ${MAX_DEPTH} deep (a definition that instantiates itself?)`, file, instance.text);
  const nodeTokens = tokens.slice(1, split - 1);
  if (nodeTokens.length !== definition.ports.length) {
    throw lineError('SPICE_SYNTAX', card.line, `${instance.text}: subcircuit ${definition.name} has ${definition.ports.length} ports (${definition.ports.join(' ')}), the card connects ${nodeTokens.length} nodes`, file, instance.text);
  }
  const outer = card.scope;
  const outerParams = outer?.params ?? ctx.params;
  const params = new ParameterTable(outerParams);
  for (const d of definition.defaults) params.define(d.name, d.expression, { line: d.line, fileName: definition.file ?? ctx.fileName });
  const local = collectSubcircuits(definition.body, definition.file ?? ctx.fileName);
  for (const c of local.cards) if (c.tokens[0].lower === '.param') sink.readParam(c, params, c.file ?? ctx.fileName);
  const known = new Set(definition.defaults.map((d) => d.name));
  const cursorCtx = { ...ctx, params: outerParams, fileName: file };
  for (const a of assignments(tokens, split, instance.text, file)) {
    if (!known.has(a.name)) {
      const list = [...known].join(', ') || 'none';
      throw lineError('SPICE_SYNTAX', a.line, `${instance.text}: subcircuit ${definition.name} has no parameter '${a.token.text}' (its parameters: ${list})`, file, instance.text);
    }
    const value = new CardCursor(card, cursorCtx).valueOf(tokens[tokens.indexOf(a.token) + 2], `${instance.text} ${a.token.text}`).value;
    params.define(a.name, String(value), { line: a.line, fileName: file });
  }
  const scope: CardScope = {
    prefix: `${scopedElement(instance.text, outer)}.`,
    ports: new Map(definition.ports.map((p, i) => [p, scopedNode(nodeTokens[i].text, outer)])),
    globals: ctx.globals,
    params,
  };
  const innerLookup = (name: string) => local.definitions.get(name) ?? lookup(name);
  const result: Card[] = [];
  for (const c of local.cards) {
    const keyword = c.tokens[0].lower;
    if (keyword === '.param') continue;
    if (keyword === '.model') { sink.models.push(c); continue; }
    if (keyword.startsWith('.')) {
      throw lineError('SPICE_UNSUPPORTED', c.line, `${c.tokens[0].text} is not supported inside a subcircuit (.subckt ${definition.name})`, c.file ?? ctx.fileName);
    }
    const scoped: Card = { ...c, scope };
    if (keyword.startsWith('x')) result.push(...expandInstance(scoped, innerLookup, ctx, sink, depth + 1));
    else result.push(scoped);
  }
  return result;
}

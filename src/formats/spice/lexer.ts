// SPICE deck lexer: splits a deck into cards (logical lines) made of tokens that remember the
// physical line they came from. Handles the title line, `*` comment lines, inline comments (`;`
// anywhere, `$` after white space, `//` after white space), `+` continuation lines (comment and
// blank lines may sit between a card and its continuations), `.control ... .endc` blocks (kept as
// one untokenised card), `.end`, and numbers with SI suffixes.
// SPICE is case-insensitive: tokens keep their text, callers compare `lower`.
import { NetlistError } from '../errors.js';
import type { CardScope } from './scope.js';

export type TokenKind = 'word' | 'expr' | 'punct';

export interface Token {
  kind: TokenKind;
  /** Original text. For `expr` the expression without its `{}` or `''` delimiters. */
  text: string;
  /** Lower-case text for case-insensitive comparisons. */
  lower: string;
  /** 1-based physical line the token came from. */
  line: number;
}

export interface Card {
  /** 1-based physical line of the card's first line. */
  line: number;
  tokens: Token[];
  /** For a `.control` card: the line of its `.endc` (the lines between are not tokenised). */
  endLine?: number;
  /** The included file the card comes from (absent: the deck itself). */
  file?: string;
  /** The subcircuit instance the card belongs to (absent: the top level). */
  scope?: CardScope;
}

export interface LexedDeck {
  title: string;
  cards: Card[];
}

/** Builds a NetlistError whose details carry the line number (field `line N`). */
export function lineError(code: string, line: number, message: string, fileName?: string, component?: string): NetlistError {
  const where = `${fileName ? `${fileName}:` : 'line '}${line}`;
  const detail = { field: `line ${line}`, line, message, ...(component ? { component } : {}) };
  return new NetlistError(code, `${where}: ${message}`, [detail]);
}

/** Removes an inline comment (`;` anywhere, `$` or `//` at the start or after white space). */
function stripInlineComment(text: string): string {
  let quote = false;
  let braces = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "'" && braces === 0) quote = !quote;
    else if (ch === '{' && !quote) braces++;
    else if (ch === '}' && !quote && braces > 0) braces--;
    if (quote || braces > 0) continue;
    const afterSpace = i === 0 || /\s/.test(text[i - 1]);
    if (ch === ';') return text.slice(0, i);
    if (ch === '$' && afterSpace) return text.slice(0, i);
    if (ch === '/' && text[i + 1] === '/' && afterSpace) return text.slice(0, i);
  }
  return text;
}

/** Tokenises one physical line (without its comment). */
function tokenizeLine(text: string, line: number, fileName?: string): Token[] {
  const tokens: Token[] = [];
  const push = (kind: TokenKind, value: string) => tokens.push({ kind, text: value, lower: value.toLowerCase(), line });
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (/\s/.test(ch)) { i++; continue; }
    if (ch === '(' || ch === ')' || ch === '=' || ch === ',') { push('punct', ch); i++; continue; }
    if (ch === '{') {
      let depth = 0;
      let j = i;
      for (; j < text.length; j++) {
        if (text[j] === '{') depth++;
        else if (text[j] === '}' && --depth === 0) break;
      }
      if (j >= text.length) throw lineError('SPICE_SYNTAX', line, `unclosed '{' in expression`, fileName);
      push('expr', text.slice(i + 1, j).trim());
      i = j + 1;
      continue;
    }
    if (ch === "'") {
      const j = text.indexOf("'", i + 1);
      if (j < 0) throw lineError('SPICE_SYNTAX', line, `unclosed quote in expression`, fileName);
      push('expr', text.slice(i + 1, j).trim());
      i = j + 1;
      continue;
    }
    if (ch === '}') throw lineError('SPICE_SYNTAX', line, `unexpected '}' without a matching '{'`, fileName);
    let j = i;
    while (j < text.length && !/[\s(),={}']/.test(text[j])) j++;
    push('word', text.slice(i, j));
    i = j;
  }
  return tokens;
}

/**
 * Splits a deck into its title and cards. The first line is always the title (as in SPICE), except
 * in included files (`hasTitle` false). Reading stops at `.end`.
 */
export function lexDeck(source: string, fileName?: string, hasTitle = true): LexedDeck {
  const lines = source.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const title = hasTitle ? (lines[0] ?? '').trim() : '';
  const cards: Card[] = [];
  for (let index = hasTitle ? 1 : 0; index < lines.length; index++) {
    const lineNo = index + 1;
    const raw = lines[index];
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('*')) continue;
    if (/^\.control\b/i.test(trimmed)) {
      let end = index + 1;
      while (end < lines.length && !/^\.endc\b/i.test(lines[end].trim())) end++;
      if (end >= lines.length) throw lineError('SPICE_SYNTAX', lineNo, `.control block without .endc`, fileName);
      const token: Token = { kind: 'word', text: '.control', lower: '.control', line: lineNo };
      cards.push({ line: lineNo, tokens: [token], endLine: end + 1 });
      index = end;
      continue;
    }
    const text = stripInlineComment(trimmed);
    if (text.trim() === '') continue;
    if (text.startsWith('+')) {
      const previous = cards[cards.length - 1];
      if (!previous) throw lineError('SPICE_SYNTAX', lineNo, `continuation line '+' without a card before it`, fileName);
      previous.tokens.push(...tokenizeLine(text.slice(1), lineNo, fileName));
      continue;
    }
    const tokens = tokenizeLine(text, lineNo, fileName);
    if (tokens.length === 0) continue;
    if (tokens[0].lower === '.end') break;
    cards.push({ line: lineNo, tokens });
  }
  return { title, cards };
}

/** Scale suffixes as powers of ten (`mil` is 25.4e-6, handled apart). */
const SUFFIXES: ReadonlyArray<[string, number]> = [
  ['meg', 6], ['t', 12], ['g', 9], ['k', 3], ['m', -3], ['u', -6], ['µ', -6], ['n', -9], ['p', -12], ['f', -15], ['a', -18],
];

const NUMBER_PREFIX = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:e([+-]?\d+))?/i;

/**
 * Parses a SPICE number: a decimal literal, an optional scale suffix (f p n u m k meg g t, also mil
 * and a) and any unit letters after it (`10uF`, `1meg`, `4.7kOhm`, `5V`). As in SPICE, `1F` is one
 * femto, not one farad. The scale is applied to the decimal exponent, so `10u` is exactly 1e-5.
 * Returns undefined when the text is not a number.
 */
export function parseSpiceNumber(text: string): number | undefined {
  const match = NUMBER_PREFIX.exec(text);
  if (!match) return undefined;
  const mantissa = match[1];
  let exponent = match[2] !== undefined ? Number(match[2]) : 0;
  let factor = 1;
  let rest = text.slice(match[0].length).toLowerCase();
  if (rest.startsWith('mil')) {
    factor = 25.4e-6;
    rest = rest.slice(3);
  } else {
    for (const [suffix, power] of SUFFIXES) {
      if (rest.startsWith(suffix)) {
        exponent += power;
        rest = rest.slice(suffix.length);
        break;
      }
    }
  }
  if (!/^[a-zµΩ]*$/i.test(rest)) return undefined;
  const value = Number(`${mantissa}e${exponent}`) * factor;
  return Number.isFinite(value) ? value : undefined;
}

/** True when the token is a valid SPICE identifier (parameter or model name). */
export function isIdentifier(text: string): boolean {
  return /^[a-z_][a-z0-9_]*$/i.test(text);
}

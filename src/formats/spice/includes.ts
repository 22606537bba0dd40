// `.include FILE` (also `.inc`) and `.lib FILE NAME`: the cards of another file, read through the
// caller's file reader (paths relative to the deck; in an included file, relative to that file).
// `.lib FILE NAME` takes the cards between `.lib NAME` and `.endl` in FILE; `.lib FILE` (LTspice)
// takes the whole file, like `.include`; `.lib NAME` … `.endl`
// sections of a file brought in by `.include` are left out (they are reached only through
// `.lib FILE NAME`). Without a reader (a deck uploaded alone), a missing file, a missing section or
// includes nested more than MAX_DEPTH deep are errors naming the card's line.
import { posix } from 'node:path';
import { type Card, type Token, lexDeck, lineError } from './lexer.js';

/** Reads a file named by a path relative to the deck's folder; undefined when there is none. */
export type DeckFileReader = (path: string) => Uint8Array | undefined;

const MAX_DEPTH = 10;
const INCLUDE_CARDS = new Set(['.include', '.inc', '.lib']);

function pathOf(t: Token | undefined): string | undefined {
  if (!t || t.kind === 'punct') return undefined;
  return t.text.replace(/^"(.*)"$/, '$1');
}

/** The cards of a `.lib NAME` … `.endl` section (name undefined: every card outside sections). */
function section(cards: Card[], name: string | undefined): Card[] | undefined {
  const result: Card[] = [];
  let inside: string | undefined;
  let found = false;
  for (const card of cards) {
    const keyword = card.tokens[0].lower;
    if (keyword === '.lib' && card.tokens.length === 2 && inside === undefined) {
      inside = card.tokens[1].lower;
      found ||= inside === name;
    } else if (keyword === '.endl') {
      inside = undefined;
    } else if (inside === name) {
      result.push(card);
    }
  }
  return name === undefined || found ? result : undefined;
}

/** Replaces include cards by the cards of the files they name (recursively). */
export function expandIncludes(cards: Card[], reader: DeckFileReader | undefined, fileName?: string, base = '', depth = 0): Card[] {
  const result: Card[] = [];
  for (const card of cards) {
    const keyword = card.tokens[0].lower;
    if (!INCLUDE_CARDS.has(keyword)) { result.push(card); continue; }
    const file = card.file ?? fileName;
    const written = pathOf(card.tokens[1]);
    const sectionName = keyword === '.lib' ? card.tokens[2]?.lower : undefined;
    if (written === undefined || (keyword !== '.lib' && card.tokens.length > 2) || (keyword === '.lib' && card.tokens.length > 3)) {
      const usage = keyword === '.lib' ? '.lib FILE NAME' : `${keyword} FILE`;
      throw lineError('SPICE_SYNTAX', card.line, `${card.tokens[0].text}: expected ${usage}`, file);
    }
    if (!reader) {
      throw lineError('SPICE_UNSUPPORTED', card.line, `${card.tokens[0].text} ${written}: this deck was given without its folder, so included files cannot be read (inline the file, or run the deck with pesim run)`, file);
    }
    if (depth >= MAX_DEPTH) throw lineError('SPICE_SYNTAX', card.line, `${card.tokens[0].text} ${written}: includes nested more than ${MAX_DEPTH} deep (a file that includes itself?)`, file);
    const path = posix.isAbsolute(written) || /^[a-z]:[\\/]/i.test(written) ? written : posix.normalize(posix.join(base, written));
    const bytes = reader(path);
    if (!bytes) throw lineError('SPICE_SYNTAX', card.line, `${card.tokens[0].text}: file '${written}' not found`, file);
    const included = lexDeck(new TextDecoder().decode(bytes), path, false).cards.map((c) => ({ ...c, file: path }));
    const chosen = section(included, sectionName);
    if (!chosen) throw lineError('SPICE_SYNTAX', card.line, `.lib ${written}: no section '.lib ${card.tokens[2].text}' in the file`, file);
    result.push(...expandIncludes(chosen, reader, fileName, posix.dirname(path), depth + 1));
  }
  return result;
}

// Tokenizer of the .ipes text (GeckoCIRCUITS `TokenMap`): splits the file into top-level blocks
// (`e (3)` + `<ElementLK>` ... `<\ElementLK>`, wires, control blocks, ...) and the trailer, and gives
// each a key map with the GeckoCIRCUITS lookup rules: the key is the text before the first space,
// the first occurrence of a key wins (except `orientierung`: the last), `key[] /a/b` is a string
// array (`NIX_NIX_NIX` = empty string, `null` = no array), `key[] 1 2 3` a number array.
import { NetlistError } from '../errors.js';

export const NIX = 'NIX_NIX_NIX';

export type BlockKey = 'verbindungLK' | 'verbindungCONTROL' | 'verbindungTHERM' | 'e' | 'eTH' | 'c' | 'sp' | 'GeckoFileManager';

const OPENING_TAGS: Record<BlockKey, string> = {
  verbindungLK: 'Verbindung',
  verbindungCONTROL: 'Verbindung',
  verbindungTHERM: 'Verbindung',
  e: 'ElementLK',
  eTH: 'ElementTHERM',
  c: 'ElementCONTROL',
  sp: 'ElementSPECIAL',
  GeckoFileManager: 'GeckoFileManager',
};

/** Keys whose last occurrence wins (GeckoCIRCUITS repairs an old writer bug this way). */
const LAST_WINS = new Set(['orientierung']);

export function syntaxError(line: number, message: string, fileName?: string): NetlistError {
  const where = fileName ? `${fileName}:${line}` : `line ${line}`;
  return new NetlistError('IPES_SYNTAX', `${where}: ${message}`, [{ field: `line ${line}`, message, line }]);
}

interface Entry {
  value: string;
  line: number;
}

/** First-occurrence key map of one block (or of the trailer), with typed, line-aware readers. */
export class TokenMap {
  private readonly entries = new Map<string, Entry>();

  constructor(lines: readonly string[], firstLine: number, private readonly fileName?: string) {
    let verbatim: string | undefined;  // closing tag of the code section being skipped
    lines.forEach((text, i) => {
      // A Java block's code and compiled bytes are text, not `key value` lines (java-blocks.ts).
      if (verbatim !== undefined) {
        if (text.trim() === verbatim) verbatim = undefined;
        return;
      }
      const opening = /^<(sourceCode|staticCode|importCode|staticVariables|classBytes)>\s*$/.exec(text);
      if (opening) {
        verbatim = `<\\${opening[1]}>`;
        return;
      }
      if (text.length === 0 || /^[\s\d]/.test(text)) return;
      const space = text.indexOf(' ');
      const key = space < 0 ? text.trimEnd() : text.slice(0, space);
      const value = space < 0 ? '' : text.slice(space + 1).replace(/\s+$/, '');
      if (!this.entries.has(key) || LAST_WINS.has(key)) this.entries.set(key, { value, line: firstLine + i });
    });
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  keys(): string[] {
    return [...this.entries.keys()];
  }

  line(key: string): number | undefined {
    return this.entries.get(key)?.line;
  }

  text(key: string): string | undefined {
    return this.entries.get(key)?.value;
  }

  /** A label-like string: `NIX_NIX_NIX` is the empty string. */
  label(key: string): string | undefined {
    const value = this.text(key);
    return value === undefined ? undefined : value === NIX ? '' : value;
  }

  private fail(key: string, message: string): never {
    throw syntaxError(this.line(key) ?? 0, `${key}: ${message}`, this.fileName);
  }

  /**
   * The first token of a value line. GeckoCIRCUITS (`TokenMap.readDataLine` for a number or a
   * boolean) splits the line at spaces, skips the key and reads the next token only: in
   * `forwardVoltageDrop 0.6 0.6` the value is 0.6 and the rest is ignored.
   */
  private firstToken(key: string): string | undefined {
    const value = this.text(key);
    return value === undefined ? undefined : value.trim().split(/\s+/)[0];
  }

  number(key: string): number | undefined {
    const value = this.firstToken(key);
    if (value === undefined) return undefined;
    const parsed = parseJavaNumber(value);
    if (parsed === undefined) this.fail(key, `'${value}' is not a number`);
    return parsed;
  }

  requiredNumber(key: string, blockLine: number): number {
    const value = this.number(key);
    if (value === undefined) throw syntaxError(blockLine, `block has no '${key}' line`, this.fileName);
    return value;
  }

  integer(key: string): number | undefined {
    const value = this.number(key);
    if (value !== undefined && !Number.isInteger(value)) this.fail(key, `'${this.firstToken(key)}' is not an integer`);
    return value;
  }

  boolean(key: string): boolean | undefined {
    const value = this.firstToken(key);
    if (value === undefined) return undefined;
    if (value === 'true') return true;
    if (value === 'false') return false;
    const n = parseJavaNumber(value);
    if (n === undefined) this.fail(key, `'${value}' is not a boolean`);
    return n > 0.5;
  }

  /** `key[] v1 v2 ...` (the key is given without `[]`). */
  numbers(key: string): number[] | undefined {
    const value = this.text(`${key}[]`);
    if (value === undefined || value.trim() === 'null') return undefined;
    return value.split(/\s+/).filter((part) => part.length > 0).map((part) => {
      const parsed = parseJavaNumber(part);
      if (parsed === undefined) this.fail(`${key}[]`, `'${part}' is not a number`);
      return parsed;
    });
  }

  /** `key[] /s1/s2` (the key is given without `[]`); `NIX_NIX_NIX` → ''. */
  strings(key: string): string[] | undefined {
    const value = this.text(`${key}[]`);
    if (value === undefined || value.trim() === 'null') return undefined;
    const slash = value.indexOf('/');
    if (slash < 0) return [];
    return value.slice(slash + 1).split('/').map((part) => (part === NIX ? '' : part));
  }
}

/** Java `Double.parseDouble` for the values GeckoCIRCUITS writes (`1.0E-6`, `0.0010`, `Infinity`). */
export function parseJavaNumber(text: string): number | undefined {
  const t = text.trim().replace(/[dDfF]$/, '');
  if (t === 'NaN') return NaN;
  if (/^[+-]?Infinity$/.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return undefined;
  return Number(t);
}

export interface RawBlock {
  key: BlockKey;
  /** 1-based line number of the header line (`e (3)`). */
  line: number;
  /** The block's lines from the header to the closing tag, as in the file. */
  lines: string[];
  tokens: TokenMap;
}

export interface ScannedIpes {
  blocks: RawBlock[];
  /** Key map of the lines outside blocks and outside `<section>`s (the global settings). */
  trailer: TokenMap;
  /** Top-level `<section>` contents by tag name (`scripterCode`, ...). */
  sections: Map<string, string[]>;
}

function blockKeyOf(line: string): BlockKey | undefined {
  const key = line.split(' ', 1)[0];
  return Object.prototype.hasOwnProperty.call(OPENING_TAGS, key) ? (key as BlockKey) : undefined;
}

/** Splits .ipes text into blocks, sections and trailer lines. */
export function scanIpes(text: string, fileName?: string): ScannedIpes {
  const lines = text.split('\n');
  const blocks: RawBlock[] = [];
  const sections = new Map<string, string[]>();
  const trailerLines: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    const key = blockKeyOf(line);
    if (key && lines[i + 1]?.trimEnd() === `<${OPENING_TAGS[key]}>`) {
      const closing = `<\\${OPENING_TAGS[key]}>`;
      let end = i + 2;
      while (end < lines.length && !lines[end].startsWith(closing)) end++;
      if (end >= lines.length) throw syntaxError(i + 1, `'${line.trim()}' block has no closing ${closing}`, fileName);
      const body = lines.slice(i + 2, end);
      blocks.push({ key, line: i + 1, lines: lines.slice(i, end + 1), tokens: new TokenMap(body, i + 3, fileName) });
      i = end + 1;
      continue;
    }
    const section = /^<([A-Za-z_]\w*)>\s*$/.exec(line);
    if (section) {
      const closing = `<\\${section[1]}>`;
      let end = i + 1;
      while (end < lines.length && !lines[end].startsWith(closing)) end++;
      if (end >= lines.length) throw syntaxError(i + 1, `section <${section[1]}> has no closing ${closing}`, fileName);
      sections.set(section[1], lines.slice(i + 1, end));
      i = end + 1;
      continue;
    }
    // Keep line numbering: blank out block-free lines we do not read.
    trailerLines[i] = line;
    i++;
  }
  const filled = Array.from({ length: lines.length }, (_, k) => trailerLines[k] ?? '');
  return { blocks, trailer: new TokenMap(filled, 1, fileName), sections };
}

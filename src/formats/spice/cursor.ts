// A cursor over the tokens of one SPICE card, shared by the element, source, model and control-card
// readers: reads words, numeric values (numbers with suffixes, `{expr}`, `'expr'`, or a bare
// `.param` name), `key=value` pairs and parenthesised argument lists, and builds errors that name
// the physical line of the offending token.
import type { NetlistError } from '../errors.js';
import type { ParameterTable } from './expressions.js';
import type { DeckFileReader } from './includes.js';
import { type Card, type Token, isIdentifier, lineError, parseSpiceNumber } from './lexer.js';

/** A numeric card value; `ref` is set when the value is exactly a `.param` name (`{r}`, `'r'`). */
export interface NumericValue {
  value: number;
  ref?: string;
}

export interface ReadContext {
  params: ParameterTable;
  fileName?: string;
  warnings: string[];
  /** Reads files the deck names (includes, PWL files); absent for a deck given without its folder. */
  files?: DeckFileReader;
}

export class CardCursor {
  private pos = 0;
  private readonly tokens: Token[];

  constructor(readonly card: Card, readonly ctx: ReadContext) {
    // Commas only separate values in the cards read through a cursor.
    this.tokens = card.tokens.filter((t) => !(t.kind === 'punct' && t.text === ','));
  }

  get line(): number {
    return this.card.line;
  }

  /** Line of the next token (or of the last one when at the end). */
  get currentLine(): number {
    return (this.tokens[this.pos] ?? this.tokens[this.tokens.length - 1])?.line ?? this.card.line;
  }

  error(message: string, code = 'SPICE_SYNTAX', component?: string): NetlistError {
    return lineError(code, this.currentLine, message, this.ctx.fileName, component);
  }

  warn(message: string, line = this.currentLine): void {
    this.ctx.warnings.push(`${this.ctx.fileName ? `${this.ctx.fileName}:` : 'line '}${line}: ${message}`);
  }

  atEnd(): boolean {
    return this.pos >= this.tokens.length;
  }

  peek(offset = 0): Token | undefined {
    return this.tokens[this.pos + offset];
  }

  next(): Token | undefined {
    return this.tokens[this.pos++];
  }

  isPunct(text: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t !== undefined && t.kind === 'punct' && t.text === text;
  }

  /** True when the next tokens are `word =`. */
  isKeyValue(): boolean {
    return this.peek()?.kind === 'word' && this.isPunct('=', 1);
  }

  word(what: string): Token {
    const t = this.next();
    if (!t || t.kind !== 'word') {
      this.pos--;
      throw this.error(t ? `expected ${what}, got '${t.text}'` : `missing ${what}`);
    }
    return t;
  }

  /** True when the next token can be read as a value. */
  isValueNext(): boolean {
    const t = this.peek();
    if (!t || this.isKeyValue()) return false;
    if (t.kind === 'expr') return true;
    if (t.kind !== 'word') return false;
    return parseSpiceNumber(t.text) !== undefined || (isIdentifier(t.text) && this.ctx.params.has(t.text));
  }

  /** Converts a token to a value (numbers, expressions, bare parameter names). */
  valueOf(t: Token, what: string): NumericValue {
    const origin = { line: t.line, fileName: this.ctx.fileName };
    if (t.kind === 'expr') {
      const value = this.ctx.params.evaluate(t.text, origin);
      return isIdentifier(t.text) && this.ctx.params.isDeckParameter(t.text) ? { value, ref: t.lower } : { value };
    }
    if (t.kind === 'word') {
      const number = parseSpiceNumber(t.text);
      if (number !== undefined) return { value: number };
      if (isIdentifier(t.text) && this.ctx.params.has(t.text)) {
        const value = this.ctx.params.get(t.text)!;
        return this.ctx.params.isDeckParameter(t.text) ? { value, ref: t.lower } : { value };
      }
    }
    throw lineError('SPICE_SYNTAX', t.line, `${what}: '${t.text}' is not a number`, this.ctx.fileName);
  }

  value(what: string): NumericValue {
    const t = this.next();
    if (!t) throw this.error(`missing ${what}`);
    return this.valueOf(t, what);
  }

  number(what: string): number {
    return this.value(what).value;
  }

  /** Reads `key = value` pairs until the end of the card. */
  keyValues(what: string): Map<string, { token: Token; value: Token }> {
    const result = new Map<string, { token: Token; value: Token }>();
    while (!this.atEnd()) {
      if (!this.isKeyValue()) {
        throw this.error(`expected name=value in ${what}, got '${this.peek()!.text}'`);
      }
      const key = this.next()!;
      this.next();
      const value = this.next();
      if (!value || value.kind === 'punct') throw this.error(`missing value for '${key.text}' in ${what}`);
      result.set(key.lower, { token: key, value });
    }
    return result;
  }

  /**
   * Reads the arguments of a function-like specification: `NAME(a b c)` or `NAME a b c` (to the end
   * of the card). The keyword itself must already be consumed.
   */
  argumentTokens(what: string): Token[] {
    const args: Token[] = [];
    if (this.isPunct('(')) {
      this.next();
      for (;;) {
        const t = this.next();
        if (!t) throw this.error(`missing ')' after the arguments of ${what}`);
        if (t.kind === 'punct' && t.text === ')') break;
        if (t.kind === 'punct' && t.text === '(') throw lineError('SPICE_SYNTAX', t.line, `unexpected '(' in ${what}`, this.ctx.fileName);
        args.push(t);
      }
      return args;
    }
    while (!this.atEnd() && this.peek()!.kind !== 'punct') args.push(this.next()!);
    return args;
  }

  /** Fails when tokens remain. */
  end(what: string): void {
    const t = this.peek();
    if (t) throw lineError('SPICE_UNSUPPORTED', t.line, `unexpected '${t.text}' in ${what}`, this.ctx.fileName);
  }
}

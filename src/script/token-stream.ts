// The parser's view of the token list: look-ahead, matching, and "expected X" errors that point
// just after the previous token (where the missing `;` or `)` belongs) or at the unexpected token.
import { ScriptError, type Position } from './errors.js';
import type { Token } from './lexer.js';

export class TokenStream {
  private index = 0;

  constructor(private readonly tokens: Token[]) {}

  peek(ahead = 0): Token {
    return this.tokens[Math.min(this.index + ahead, this.tokens.length - 1)];
  }

  next(): Token {
    const token = this.peek();
    if (token.kind !== 'eof') this.index++;
    return token;
  }

  /** True when the next token is the operator or keyword `text`. */
  is(text: string, ahead = 0): boolean {
    const t = this.peek(ahead);
    return (t.kind === 'op' || t.kind === 'keyword') && t.text === text;
  }

  /** Consumes the operator or keyword `text` when it is next. */
  accept(text: string): boolean {
    if (!this.is(text)) return false;
    this.index++;
    return true;
  }

  /** Consumes `text` or fails with "expected 'text' <context>". */
  expect(text: string, context: string): Token {
    if (this.is(text)) return this.next();
    throw this.missing(`'${text}' ${context}`);
  }

  identifier(context: string): Token {
    if (this.peek().kind === 'ident') return this.next();
    throw this.missing(`a name ${context}`);
  }

  /**
   * "expected X": at the end of the previous token when the next one is on a later line (a missing
   * `;` at a line end), else at the unexpected token, which the message names.
   */
  missing(what: string): ScriptError {
    const token = this.peek();
    const previous = this.index > 0 ? this.tokens[this.index - 1] : undefined;
    const found = token.kind === 'eof' ? 'the end of the script' : `'${token.text}'`;
    if (previous && token.pos.line > previous.pos.line) {
      const at: Position = { ...previous.pos, column: previous.pos.column + previous.length };
      return new ScriptError('syntax', `expected ${what}`, at);
    }
    return new ScriptError('syntax', `expected ${what}, found ${found}`, token.pos);
  }
}

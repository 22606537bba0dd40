// Lexer of the scripting language (Java's lexical grammar, the subset scripts use): numbers with
// exponents and type suffixes, strings and characters with Java escapes, identifiers, keywords,
// operators, and `//` and `/* */` comments. Tokens carry their line and column.
import { ScriptError, type Position, type SourceText } from './errors.js';

export type TokenKind = 'int' | 'long' | 'double' | 'string' | 'char' | 'ident' | 'keyword' | 'op' | 'eof';

export interface Token {
  kind: TokenKind;
  /** The token's text; for strings and characters the unescaped value. */
  text: string;
  /** Numeric value of number tokens. */
  value: number;
  pos: Position;
  /** Characters the token spans in the source. */
  length: number;
}

export const KEYWORDS = new Set([
  'int', 'long', 'short', 'byte', 'double', 'float', 'boolean', 'String', 'void', 'var', 'final', 'static',
  'if', 'else', 'for', 'while', 'do', 'break', 'continue', 'return', 'new', 'true', 'false', 'null', 'import',
]);

// Longest first, so that the first match is the longest operator.
const OPERATORS = [
  '>>>=', '<<=', '>>=', '>>>', '++', '--', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '==', '!=', '<=', '>=',
  '&&', '||', '<<', '>>', '+', '-', '*', '/', '%', '=', '<', '>', '!', '~', '&', '|', '^', '?', ':', ';', ',', '.',
  '(', ')', '{', '}', '[', ']',
];

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '0': '\0', '"': '"', "'": "'", '\\': '\\' };

export function tokenize(source: SourceText): Token[] {
  const text = source.text;
  const tokens: Token[] = [];
  let i = 0;
  let line = source.firstLine;
  let lineStart = 0;
  const pos = (at: number): Position => ({ source, line, column: at - lineStart + 1 });
  const fail = (at: number, message: string): never => {
    throw new ScriptError('syntax', message, pos(at));
  };

  while (i < text.length) {
    const c = text[i];
    if (c === '\n') {
      i++;
      line++;
      lineStart = i;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f') {
      i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const start = pos(i);
      i += 2;
      while (i < text.length && !(text[i] === '*' && text[i + 1] === '/')) {
        if (text[i] === '\n') {
          line++;
          lineStart = i + 1;
        }
        i++;
      }
      if (i >= text.length) throw new ScriptError('syntax', 'comment /* is not closed by */', start);
      i += 2;
      continue;
    }
    const start = i;
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(text[i + 1] ?? ''))) {
      tokens.push(readNumber());
      tokens[tokens.length - 1].length = i - start;
      continue;
    }
    if (/[A-Za-z_$]/.test(c)) {
      while (i < text.length && /[A-Za-z0-9_$]/.test(text[i])) i++;
      const word = text.slice(start, i);
      tokens.push({ kind: KEYWORDS.has(word) ? 'keyword' : 'ident', text: word, value: 0, pos: pos(start), length: i - start });
      continue;
    }
    if (c === '"' || c === "'") {
      tokens.push(readQuoted(c));
      tokens[tokens.length - 1].length = i - start;
      continue;
    }
    const op = OPERATORS.find((o) => text.startsWith(o, i));
    if (!op) fail(i, `unexpected character '${c}'`);
    tokens.push({ kind: 'op', text: op!, value: 0, pos: pos(start), length: op!.length });
    i += op!.length;
  }
  tokens.push({ kind: 'eof', text: 'end of input', value: 0, pos: pos(i), length: 0 });
  return tokens;

  function readNumber(): Token {
    const start = i;
    const at = pos(start);
    if (text[i] === '0' && /[xX]/.test(text[i + 1] ?? '')) {
      i += 2;
      while (/[0-9a-fA-F_]/.test(text[i] ?? '')) i++;
      const digits = text.slice(start + 2, i).replace(/_/g, '');
      if (digits === '') fail(start, 'hexadecimal number without digits');
      const isLong = /[lL]/.test(text[i] ?? '');
      if (isLong) i++;
      return { kind: isLong ? 'long' : 'int', text: text.slice(start, i), value: isLong ? parseInt(digits, 16) : parseInt(digits, 16) | 0, pos: at, length: 0 };
    }
    while (/[0-9_]/.test(text[i] ?? '')) i++;
    let isDouble = false;
    if (text[i] === '.' && !/[A-Za-z_$]/.test(text[i + 1] ?? '')) {
      isDouble = true;
      i++;
      while (/[0-9_]/.test(text[i] ?? '')) i++;
    }
    if (/[eE]/.test(text[i] ?? '')) {
      isDouble = true;
      i++;
      if (/[+-]/.test(text[i] ?? '')) i++;
      if (!/[0-9]/.test(text[i] ?? '')) fail(i, 'exponent of a number has no digits');
      while (/[0-9]/.test(text[i] ?? '')) i++;
    }
    const digits = text.slice(start, i).replace(/_/g, '');
    const suffix = text[i] ?? '';
    let kind: TokenKind = isDouble ? 'double' : 'int';
    if (/[dDfF]/.test(suffix)) {
      kind = 'double';
      i++;
    } else if (/[lL]/.test(suffix) && !isDouble) {
      kind = 'long';
      i++;
    }
    if (/[A-Za-z_$0-9]/.test(text[i] ?? '')) fail(i, `unexpected '${text[i]}' after the number ${text.slice(start, i)}`);
    const value = Number(digits);
    if (kind === 'int' && value > 2147483648) fail(start, `integer number too large: ${digits} (write ${digits}L or ${digits}.0)`);
    return { kind, text: text.slice(start, i), value, pos: at, length: 0 };
  }

  function readQuoted(quote: string): Token {
    const start = i;
    const at = pos(start);
    i++;
    let value = '';
    while (text[i] !== quote) {
      if (i >= text.length || text[i] === '\n') fail(start, quote === '"' ? 'string is not closed by "' : "character literal is not closed by '");
      if (text[i] === '\\') {
        const e = text[i + 1] ?? '';
        if (e === 'u') {
          const hex = /^u+([0-9a-fA-F]{4})/.exec(text.slice(i + 1));
          if (!hex) fail(i, 'escape \\u needs four hexadecimal digits');
          value += String.fromCharCode(parseInt(hex![1], 16));
          i += 1 + hex![0].length;
          continue;
        }
        if (!(e in ESCAPES)) fail(i, `unknown escape sequence \\${e} (Java knows \\n \\t \\r \\b \\f \\0 \\" \\' \\\\ \\uXXXX)`);
        value += ESCAPES[e];
        i += 2;
        continue;
      }
      value += text[i];
      i++;
    }
    i++;
    if (quote === "'" && value.length !== 1) fail(start, 'a character literal holds exactly one character (use "..." for strings)');
    return { kind: quote === '"' ? 'string' : 'char', text: value, value: 0, pos: at, length: 0 };
  }
}

// Multi-line input at the interactive prompt: an input is complete when its braces, parentheses
// and brackets are closed and no comment is left open; until then the prompt asks for more lines.
import { ScriptError } from './errors.js';
import { tokenize } from './lexer.js';

const OPENING: Record<string, number> = { '{': 1, '(': 1, '[': 1, '}': -1, ')': -1, ']': -1 };

export function isCompleteInput(text: string): boolean {
  let tokens;
  try {
    tokens = tokenize({ name: '<prompt>', text, firstLine: 1 });
  } catch (error) {
    // An open /* comment waits for more lines; other lexical errors are reported when run.
    return !(error instanceof ScriptError && error.reason.startsWith('comment /*'));
  }
  let depth = 0;
  for (const token of tokens) if (token.kind === 'op' && token.text in OPENING) depth += OPENING[token.text];
  return depth <= 0;
}

// Multi-line input at the interactive prompt: an input is complete when its braces, parentheses
// and brackets are closed and no comment is left open; until then the prompt asks for more lines.
// Strings and chars are skipped; an unclosed one makes the input complete (the compiler reports it).

const OPENING: Record<string, number> = { '{': 1, '(': 1, '[': 1, '}': -1, ')': -1, ']': -1 };

export function isCompleteInput(text: string): boolean {
  let depth = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) return false;
      i = end + 2;
      continue;
    } else if (c === '"' || c === "'") {
      i++;
      while (i < text.length && text[i] !== c && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
      if (i >= text.length || text[i] !== c) return true;
    } else if (c in OPENING) {
      depth += OPENING[c];
    }
    i++;
  }
  return depth <= 0;
}

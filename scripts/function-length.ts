// Lists the functions of src/ (TypeScript) and native/ (C++) longer than a limit (default 80 lines),
// so that "no function is longer than 80 lines" stays true:
//   node --import tsx scripts/function-length.ts [--limit 80]
// TypeScript functions are found with the compiler's parser (declarations, methods, accessors,
// constructors, function expressions and arrow functions; a function nested in another counts within
// it and on its own). C++ functions are found by matching braces in the text stripped of comments,
// strings and preprocessor lines: a `{` whose head ends like a function's (`)`, `) const`, an
// initialiser list, `-> type`) outside any other function's body. Lambdas inside a function count
// within it. Prints `lines path:line name` for each, longest first; exits 1 when any is found.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export interface LongFunction {
  /** Path from the repository root. */
  path: string;
  /** First line (1-based). */
  line: number;
  lines: number;
  name: string;
}

const root = resolve(fileURLToPath(import.meta.url), '../..');

function filesUnder(dir: string, extensions: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : filesUnder(path, extensions);
    return extensions.test(entry.name) ? [path] : [];
  });
}

function tsName(node: ts.Node, file: ts.SourceFile): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name) return named.name.getText(file);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText(file);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  return `(anonymous at line ${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1})`;
}

/** The TypeScript functions of `text` longer than `limit` lines. */
export function longTsFunctions(path: string, text: string, limit: number): LongFunction[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body) {
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > limit) found.push({ path, line: first + 1, lines, name: tsName(node, file) });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/**
 * `text` with comments, string and character literals (raw strings included) and preprocessor lines
 * blanked out, newlines kept, so that braces and line numbers can be read from it.
 */
export function stripCpp(text: string): string {
  const out = text.split('');
  const blank = (from: number, to: number): void => {
    for (let i = from; i < to; i++) if (out[i] !== '\n') out[i] = ' ';
  };
  let i = 0;
  let lineStart = true;
  while (i < text.length) {
    const c = text[i];
    if (lineStart && /^[ \t]*#/.test(text.slice(i, text.indexOf('\n', i) + 1 || undefined))) {
      let end = i;
      do end = text.indexOf('\n', end + 1); while (end > 0 && text[end - 1] === '\\');
      end = end < 0 ? text.length : end;
      blank(i, end);
      i = end;
      continue;
    }
    lineStart = c === '\n';
    if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      blank(i, end < 0 ? text.length : end);
      i = end < 0 ? text.length : end;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2) + 2 || text.length;
      blank(i, end);
      i = end;
    } else if (c === 'R' && text[i + 1] === '"' && !/\w/.test(text[i - 1] ?? '')) {
      const open = text.indexOf('(', i);
      const delimiter = text.slice(i + 2, open);
      const close = text.indexOf(`)${delimiter}"`, open);
      const end = close < 0 ? text.length : close + delimiter.length + 2;
      blank(i, end);
      i = end;
    } else if (c === '"' || (c === "'" && !/[0-9a-fA-F]/.test(text[i - 1] ?? ''))) {
      let end = i + 1;
      while (end < text.length && text[end] !== c && text[end] !== '\n') end += text[end] === '\\' ? 2 : 1;
      blank(i, end + 1);
      i = end + 1;
    } else {
      i++;
    }
  }
  return out.join('');
}

const SCOPE_HEAD = /\b(namespace|class|struct|union|enum)\b[^()]*$|\bextern\s*$/;
// `f(...)`, `f(...) const noexcept override`, `-> T`, `: a_(x), b_(y)`, `TEST(Suite, Name)`.
const FUNCTION_HEAD = /\)\s*(const|noexcept|override|final|mutable|&|&&|\s)*(->[^;{}=]*)?$|\)\s*:\s*[\s\S]*\)$|\)\s*:\s*[\s\S]*\}$/;

/** The C++ functions of `text` longer than `limit` lines. */
export function longCppFunctions(path: string, text: string, limit: number): LongFunction[] {
  const code = stripCpp(text);
  const found: LongFunction[] = [];
  // Each open brace: whether it opens a function body (outermost only) and where.
  // `init`: a member's brace initialiser in a constructor's initialiser list (`: b_{a} {`).
  const stack: { kind: 'scope' | 'function' | 'init' | 'other'; start: number; name: string }[] = [];
  let headStart = 0;
  const lineOf = (at: number): number => code.slice(0, at).split('\n').length;
  const inFunction = (): boolean => stack.some((s) => s.kind === 'function');
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    if (c === ';') {
      headStart = i + 1;
    } else if (c === '{') {
      if (inFunction()) {
        stack.push({ kind: 'other', start: i, name: '' });
      } else {
        const head = code.slice(headStart, i).trim();
        if (SCOPE_HEAD.test(head)) {
          stack.push({ kind: 'scope', start: i, name: '' });
        } else if (/\)\s*:[^;]*\w$/.test(head)) {
          stack.push({ kind: 'init', start: i, name: '' });
          continue; // the head goes on after the initialiser
        } else if (FUNCTION_HEAD.test(head) && !/=\s*[[{]?[^()]*$/.test(head.split('(')[0])) {
          const name = /([~\w:<>]+)\s*\(/.exec(head)?.[1] ?? head.slice(0, 40);
          stack.push({ kind: 'function', start: i, name });
        } else {
          stack.push({ kind: 'other', start: i, name: '' });
        }
      }
      headStart = i + 1;
    } else if (c === '}') {
      const open = stack.pop();
      if (open?.kind === 'init') continue;
      if (open?.kind === 'function') {
        // From the line the head starts on to the closing brace.
        const headAt = code.lastIndexOf(open.name, open.start);
        const first = lineOf(headAt >= 0 ? headAt : open.start);
        const lines = lineOf(i) - first + 1;
        if (lines > limit) found.push({ path, line: first, lines, name: open.name });
      }
      headStart = i + 1;
    }
  }
  return found;
}

/** Every function of src/ and native/ longer than `limit` lines, longest first. */
export function longFunctions(limit = 80): LongFunction[] {
  const ts = filesUnder(join(root, 'src'), /\.ts$/).map((path) => longTsFunctions(relative(root, path), readFileSync(path, 'utf8'), limit));
  const cpp = filesUnder(join(root, 'native'), /\.(cpp|cc|hpp|h)$/).map((path) => longCppFunctions(relative(root, path), readFileSync(path, 'utf8'), limit));
  return [...ts, ...cpp].flat().sort((a, b) => b.lines - a.lines || a.path.localeCompare(b.path));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--limit');
  const limit = at >= 0 ? Number(process.argv[at + 1]) : 80;
  const all = longFunctions(limit);
  for (const f of all) console.log(`${String(f.lines).padStart(4)} ${f.path}:${f.line} ${f.name}`);
  process.exitCode = all.length > 0 ? 1 : 0;
}

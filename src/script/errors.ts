// Errors of the scripting language: every error carries the position it arose at (file, line,
// column) and is shown as `file:line:column: message`, the source line and a caret under the column.
import { PesimError } from '../errors/pesim-error.js';

/** A piece of script text and where it came from (a file, or a section of an .ipes file). */
export interface SourceText {
  /** Shown in messages: the file name, or `<prompt>` for interactive input. */
  name: string;
  text: string;
  /** Line number of the text's first line in the file (1 for a whole file). */
  firstLine: number;
}

export interface Position {
  source: SourceText;
  /** 1-based line within the file (firstLine already added). */
  line: number;
  /** 1-based column. */
  column: number;
}

export type ScriptErrorKind = 'syntax' | 'compile' | 'runtime' | 'interrupted' | 'step-limit';

/** Code SCRIPT_SYNTAX, SCRIPT_COMPILE, SCRIPT_RUNTIME, SCRIPT_INTERRUPTED or SCRIPT_STEP_LIMIT (from `kind`). */
export class ScriptError extends PesimError {
  readonly kind: ScriptErrorKind;
  readonly position: Position | undefined;
  /** The message without position (for tests and for wrapping). */
  readonly reason: string;

  constructor(kind: ScriptErrorKind, reason: string, position?: Position) {
    super(`SCRIPT_${kind.toUpperCase().replace('-', '_')}`, position ? `${where(position)}: ${reason}` : reason, { line: position?.line });
    this.kind = kind;
    this.reason = reason;
    this.position = position;
  }
}

export function where(p: Position): string {
  return `${p.source.name}:${p.line}:${p.column}`;
}

/** The source line of a position (tabs kept, so the caret line reuses them to stay aligned). */
function sourceLine(p: Position): string {
  const lines = p.source.text.split('\n');
  return lines[p.line - p.source.firstLine] ?? '';
}

/** `file:line:column: message`, then the source line and a caret under the column. */
export function formatScriptError(error: ScriptError): string {
  const p = error.position;
  if (!p) return error.reason;
  const line = sourceLine(p).replace(/\s+$/, '');
  const pad = line.slice(0, p.column - 1).replace(/[^\t]/g, ' ');
  return `${where(p)}: ${error.reason}\n    ${line}\n    ${pad}^`;
}

// Runs script text (or the script of an .ipes file) in a fresh ScriptContext and returns what it
// printed (or the error it stopped with).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { ScriptContext, type ScriptOptions } from '../../../src/script/context.js';
import { formatScriptError, ScriptError } from '../../../src/script/errors.js';

export const BUCK_IPES = fileURLToPath(new URL('../../fixtures/gecko/buck_simple.ipes', import.meta.url));

export async function runScript(text: string, options: Partial<ScriptOptions> = {}): Promise<string> {
  let out = '';
  const context = new ScriptContext({ write: (t) => (out += t), ...options });
  await context.run({ name: 'test.pss', text, firstLine: 1 });
  return out;
}

/** The ScriptError a script stops with, and its formatted text; fails when it does not stop with one. */
export async function scriptError(text: string, options: Partial<ScriptOptions> = {}): Promise<{ error: ScriptError; text: string; output: string }> {
  let output = '';
  const context = new ScriptContext({ write: (t) => (output += t), ...options });
  try {
    await context.run({ name: 'test.pss', text, firstLine: 1 });
  } catch (error) {
    if (error instanceof ScriptError) return { error, text: formatScriptError(error), output };
    throw error;
  }
  throw new Error(`the script ran without error; it printed: ${output}`);
}

/** test/fixtures/gecko/buck_simple.ipes with the given script sections, written as plain text to a new folder. */
export function ipesWith(declarations: string, code: string): string {
  const text = gunzipSync(readFileSync(BUCK_IPES)).toString('utf8')
    .replace(/<scripterDeclarations>\n[\s\S]*?\n<\\scripterDeclarations>/, `<scripterDeclarations>\n${declarations}\n<\\scripterDeclarations>`)
    .replace(/<scripterCode>\n[\s\S]*?\n<\\scripterCode>/, `<scripterCode>\n${code}\n<\\scripterCode>`);
  const file = join(mkdtempSync(join(tmpdir(), 'pesim-gecko-')), 'model.ipes');
  writeFileSync(file, text);
  return file;
}

/** Runs the script embedded in an .ipes file as `pesim script FILE.ipes` does; returns what it printed. */
export async function runIpes(file: string): Promise<string> {
  let out = '';
  await new ScriptContext({ write: (t) => (out += t) }).runIpes(file);
  return out;
}

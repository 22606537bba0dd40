// Runs script text in a fresh ScriptContext and returns what it printed (or the error it stopped with).
import { ScriptContext, type ScriptOptions } from '../../../src/script/context.js';
import { formatScriptError, ScriptError } from '../../../src/script/errors.js';

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

// The interactive prompt of `pesim script` (no file): reads statements line by line, with history
// (up/down arrows) and multi-line input while braces or parentheses are open, and runs each
// complete input on the script thread; variables and the loaded circuit persist between inputs.
// A bare expression (`1.0 / 3`) prints its value.
// Ctrl-C stops a running input, discards an unfinished one, or, at an empty prompt, quits; so does
// Ctrl-D.
import { createInterface } from 'node:readline';
import { isCompleteInput } from '../script/repl-input.js';
import { report, type ScriptThread } from './script-thread.js';

const PROMPT = 'pesim> ';
const CONTINUATION = '...> ';

export async function startPrompt(thread: ScriptThread, circuit: string | undefined): Promise<number> {
  const terminal = process.stdin.isTTY === true;
  const rl = createInterface({ input: process.stdin, output: process.stdout, prompt: PROMPT, terminal, historySize: 1000 });
  // Taken at once, so that lines arriving while the circuit loads are kept, not dropped.
  const lines = rl[Symbol.asyncIterator]();
  let buffer = '';
  let firstLine = 1;
  let lineNo = 0;
  const onInterrupt = (): void => {
    if (thread.busy) thread.stop();
    else if (buffer !== '') {
      buffer = '';
      process.stdout.write('\n');
      rl.setPrompt(PROMPT);
      rl.prompt();
    } else rl.close();
  };
  rl.on('SIGINT', onInterrupt);
  process.on('SIGINT', onInterrupt);
  try {
    if (terminal) process.stdout.write('pesim script: Java-like statements, e.g. print(1.0 / 3); Ctrl-D or Ctrl-C to quit\n');
    if (circuit) report(await thread.run({ type: 'circuit', path: circuit }));
    if (terminal) rl.prompt();
    for (let next = await lines.next(); !next.done; next = await lines.next()) {
      const line = next.value as string;
      lineNo++;
      if (buffer === '') firstLine = lineNo;
      buffer += `${line}\n`;
      if (!isCompleteInput(buffer)) {
        rl.setPrompt(CONTINUATION);
        if (terminal) rl.prompt();
        continue;
      }
      const text = buffer;
      buffer = '';
      if (text.trim() !== '') report(await thread.run({ type: 'source', source: { name: '<prompt>', text, firstLine } }));
      rl.setPrompt(PROMPT);
      if (terminal) rl.prompt();
    }
    return 0;
  } finally {
    process.off('SIGINT', onInterrupt);
    await thread.close();
  }
}

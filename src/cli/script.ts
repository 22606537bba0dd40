// `pesim script [FILE]`: runs a script file (or the GeckoSCRIPT embedded in an .ipes file against
// that circuit), or, without a file, an interactive prompt. The interpreter runs on a worker thread
// so that Ctrl-C stops even a loop that never waits: the first Ctrl-C stops the script and a running
// simulation (exit status 130), a second one ends the process at once.
// The interpreter, the readers and the prompt are imported when the command runs (see main.ts).
import { existsSync, readFileSync } from 'node:fs';
import { CommanderError, type Command } from 'commander';
import { examples } from './help.js';

interface ScriptCommandOptions {
  circuit?: string;
  maxSteps?: string;
  outputDir?: string;
}

function parseMaxSteps(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`--max-steps expects a positive whole number of statements, got '${value}'`);
  return n;
}

async function isIpes(file: string): Promise<boolean> {
  if (/\.ipes$/i.test(file)) return true;
  const { detectFormat } = await import('../formats/read.js');
  try {
    return detectFormat(readFileSync(file).subarray(0, 4096)) === 'ipes';
  } catch {
    return false;
  }
}

function checkOutputDir(folder: string | undefined): string | undefined {
  if (folder !== undefined && !existsSync(folder)) throw new Error(`--output-dir ${folder}: no such folder`);
  return folder;
}

async function runFile(file: string, o: ScriptCommandOptions, maxSteps: number | undefined): Promise<number> {
  if (!existsSync(file)) throw new Error(`cannot read the script ${file}: no such file`);
  const ipes = await isIpes(file);
  if (ipes && o.circuit) throw new Error('--circuit cannot be used with an .ipes file: its script runs against the circuit of that file');
  const { INTERRUPTED_EXIT, report, ScriptThread } = await import('./script-thread.js');
  const thread = new ScriptThread(file, maxSteps, checkOutputDir(o.outputDir));
  let interrupts = 0;
  const onSigint = (): void => {
    interrupts++;
    if (interrupts > 1) process.exit(INTERRUPTED_EXIT);
    process.stderr.write('\nstopping the script (Ctrl-C again to quit at once)\n');
    thread.stop();
  };
  process.on('SIGINT', onSigint);
  try {
    if (o.circuit) {
      const loaded = await thread.run({ type: 'circuit', path: o.circuit });
      if (loaded.error) return report(loaded);
    }
    return report(await thread.run({ type: 'file', path: file, ipes }));
  } finally {
    process.off('SIGINT', onSigint);
    await thread.close();
  }
}

export function registerScript(program: Command): void {
  program
    .command('script')
    .description('run a script (.pss or any text), or the GeckoSCRIPT of an .ipes file against its circuit; without a file, an interactive prompt')
    .argument('[file]', 'script file, or .ipes file with an embedded script')
    .option('--circuit <path>', 'load this circuit file before the script runs')
    .option('--max-steps <n>', 'stop the script after N executed statements')
    .option('--output-dir <folder>', "the folder the script's PrintWriter and FileWriter may write in (default: the script's folder; at the prompt, the working directory)")
    .addHelpText('after', examples(
      ['pesim script sweep.pss', 'run a script file'],
      ['pesim script buck.ipes', 'run the GeckoSCRIPT embedded in an .ipes file against its circuit'],
      ['pesim script --circuit buck.ipes', 'an interactive prompt with a circuit loaded'],
      ['pesim script sweep.pss --max-steps 100000', 'stop a runaway script after 100 000 statements'],
      ['pesim script sweep.pss --output-dir results', 'let the script write its files into results/'],
    ))
    .action(async (file: string | undefined, o: ScriptCommandOptions) => {
      const maxSteps = parseMaxSteps(o.maxSteps);
      const startInteractive = async (): Promise<number> => {
        const [{ startPrompt }, { ScriptThread }] = await Promise.all([import('./script-prompt.js'), import('./script-thread.js')]);
        return startPrompt(new ScriptThread(undefined, maxSteps, checkOutputDir(o.outputDir)), o.circuit);
      };
      const status = file === undefined ? await startInteractive() : await runFile(file, o, maxSteps);
      if (status !== 0) throw new CommanderError(status, 'pesim.script', 'the script failed');
    });
}

// The `pesim` command line: subcommands are registered here, each implemented in its own file.
import { Command, CommanderError } from 'commander';
import { registerJobq } from './jobq.js';
import { registerRun } from './run.js';
import { registerScript } from './script.js';
import { registerServe } from './serve.js';
import { registerValidate } from './validate.js';
import { registerWorker } from './worker.js';

export async function main(argv: string[]): Promise<number> {
  const program = new Command('pesim')
    .description('Power-electronics circuit simulator: native MNA engine, HTTP services, scripting')
    .version('0.1.0')
    .exitOverride()
    .showHelpAfterError();
  registerServe(program);
  registerJobq(program);
  registerRun(program);
  registerValidate(program);
  registerScript(program);
  registerWorker(program);
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    const e = error as Error & { code?: string; details?: { field: string; message: string }[] };
    console.error(`pesim: ${e.message}`);
    for (const detail of e.details ?? []) console.error(`  ${detail.field}: ${detail.message}`);
    return 1;
  }
}

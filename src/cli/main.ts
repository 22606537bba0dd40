// The `pesim` command line: subcommands are registered here, each implemented in its own file.
// A command file imports only what its options and help need; its action imports the modules that
// do the work (`await import(...)`), so that every command starts without loading the others
// (test/unit/cli-startup.test.ts keeps it so; bench/cli-startup.ts measures it).
import { Command, CommanderError } from 'commander';
import { commanderExitCode, EXIT_CODES_HELP, failureExitCode, failureHint } from './exit-codes.js';
import { packageVersion } from './version.js';
import { registerInfo } from './info.js';
import { registerJobq } from './jobq.js';
import { registerRun } from './run.js';
import { registerScript } from './script.js';
import { registerServe } from './serve.js';
import { registerValidate } from './validate.js';
import { registerWorker } from './worker.js';

export async function main(argv: string[]): Promise<number> {
  const program = new Command('pesim')
    .description('Power-electronics circuit simulator: native MNA engine, HTTP services, scripting')
    .version(packageVersion())
    .exitOverride()
    .showHelpAfterError()
    .addHelpText('after', `\nRun \`pesim help COMMAND\` for a command's options and examples.\n\n${EXIT_CODES_HELP}`);
  registerServe(program);
  registerJobq(program);
  registerRun(program);
  registerValidate(program);
  registerInfo(program);
  registerScript(program);
  registerWorker(program);
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return commanderExitCode(error);
    const e = error as Error & { code?: string; details?: { field: string; message: string }[] };
    console.error(`pesim: ${e.message}`);
    for (const detail of e.details ?? []) console.error(`  ${detail.field}: ${detail.message}`);
    const hint = failureHint(e);
    if (hint) console.error(`pesim: ${hint}`);
    return failureExitCode(e);
  }
}

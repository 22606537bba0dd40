// The exit codes of the `pesim` command (documented in docs/cli.md and in `pesim --help`), and the
// mapping from what ended a command to its code.
import { CommanderError } from 'commander';

export const EXIT = {
  /** The command did what was asked. */
  ok: 0,
  /** The command failed: unreadable or invalid circuit file, bad option value, simulation error, I/O error. */
  failure: 1,
  /** The command line itself is wrong: unknown command or option, missing argument. */
  usage: 2,
  /** The native engine cannot be loaded (no prebuilt binary fits and no local build). */
  engineMissing: 3,
  /** Interrupted: a script stopped by Ctrl-C, or a service interrupted during its start-up or again before it had stopped. */
  interrupted: 130,
} as const;

export const EXIT_CODES_HELP = `Exit codes:
  0    success (also --help and --version)
  1    failure: invalid circuit file or option value, simulation error, I/O error
  2    usage error: unknown command or option, missing argument
  3    the native engine cannot be loaded (no prebuilt binary fits this machine and no local build)
  130  interrupted: a script stopped by Ctrl-C, or a service interrupted during its start-up or twice before it had stopped`;

/**
 * Commander's own exits (codes `commander.*`): help and version are successes, every other parser
 * complaint is a usage error. A command that ends with its own CommanderError keeps its exit code.
 */
export function commanderExitCode(error: CommanderError): number {
  if (error.exitCode === 0) return EXIT.ok;
  return error.code.startsWith('commander.') ? EXIT.usage : error.exitCode;
}

/**
 * What to do about an error when there is more to say than its message: the SQLite store of the services
 * (better-sqlite3) is an optional dependency, absent where its native build could not install.
 */
export function failureHint(error: { code?: string; message: string }): string | undefined {
  if (error.code === 'ERR_MODULE_NOT_FOUND' && error.message.includes("'better-sqlite3'")) {
    return 'the services need better-sqlite3, an optional dependency that did not install here: `npm install better-sqlite3` (needs its prebuilt binary or a C++ compiler)';
  }
  return undefined;
}

/** The exit code of an error thrown by a command's action. */
export function failureExitCode(error: { code?: string }): number {
  return error.code === 'ADDON_NOT_BUILT' ? EXIT.engineMissing : EXIT.failure;
}

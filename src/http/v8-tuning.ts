// V8 tuning for the long-running services (`pesim serve`, `pesim jobq`). V8 optimises a
// function with TurboFan once it has spent an "interrupt budget" of executed bytecode (132 KiB by
// default, a setting made for web pages). At the request rates of a simulation service, a few
// hundred per second, most of the request path (Koa, tsoa, the store, the scheduler) then runs in
// the interpreter and the baseline compiler for thousands of requests; with an 8 KiB budget it is
// optimised within the first few hundred (the HTTP section of `npm run bench`, bench/http.ts,
// measures the submit-to-completed overhead with and without it).
import { setFlagsFromString } from 'node:v8';

/** The services' budget [bytes of bytecode]. */
export const SERVICE_INTERRUPT_BUDGET = 8 * 1024;

export interface V8TuningOptions {
  env?: NodeJS.ProcessEnv;
  /** The node command line's V8 options: a budget given there is kept. */
  execArgv?: readonly string[];
  setFlags?: (flags: string) => void;
}

/**
 * Sets V8's interrupt budget for a service process, before it handles requests: PESIM_V8_INTERRUPT_BUDGET
 * (bytes; 0 keeps V8's own) or SERVICE_INTERRUPT_BUDGET. Returns the budget set, undefined when
 * none was (0, or `--interrupt-budget` on the node command line). Process-wide: call it from the
 * command that starts the service, not from code that embeds one.
 */
export function tuneV8ForService(options: V8TuningOptions = {}): number | undefined {
  const env = options.env ?? process.env;
  const execArgv = options.execArgv ?? process.execArgv;
  const given = env.PESIM_V8_INTERRUPT_BUDGET;
  let budget = SERVICE_INTERRUPT_BUDGET;
  if (given !== undefined && given.trim() !== '') {
    budget = Number(given);
    if (!Number.isSafeInteger(budget) || budget < 0) {
      throw new Error(`PESIM_V8_INTERRUPT_BUDGET must be a non-negative integer number of bytes (got ${JSON.stringify(given)}); 0 keeps V8's default`);
    }
  }
  if (budget === 0 || execArgv.some((arg) => /^--interrupt[-_]budget(=|$)/.test(arg))) return undefined;
  (options.setFlags ?? setFlagsFromString)(`--interrupt-budget=${budget}`);
  return budget;
}

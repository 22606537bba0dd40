// V8 tuning for the long-running services (`pesim serve`, `pesim jobq`). V8 optimises a
// function with TurboFan once it has spent an "interrupt budget" of executed bytecode (132 KiB by
// default). PESIM_V8_INTERRUPT_BUDGET sets another budget for a service process. The services
// keep V8's own by default: an 8 KiB budget (the default until the scheduler committed a lone
// run's writes at once) shortened no submit-to-completed latency any more (bench/http.ts, steady
// state p50 3.5 ms against 3.1 ms with V8's own) and cost ≈ 0.3 ms of CPU per run of a sweep on
// V8's compiler threads (the flag is the process's: every simulation thread re-optimised too;
// 0.44 against 0.12 ms a run at two threads).
import { setFlagsFromString } from 'node:v8';

/** The services' budget [bytes of bytecode]; 0: V8's own. */
export const SERVICE_INTERRUPT_BUDGET = 0;

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

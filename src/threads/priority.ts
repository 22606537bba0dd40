// Scheduling priority of simulation threads. With every core simulating, a service thread that
// competes with them on equal terms answers a status request only after the simulations' time
// slices (a 100 000-run sweep on two cores: status reads of 30–150 ms and more). Simulation threads
// therefore run "nicer" than the service's thread, so that the scheduler lets the service's short
// bursts of work go first; the simulations lose nothing while the service is idle. Linux gives
// each thread a nice value of its own (setpriority with the thread's id, which os.setPriority
// passes through); elsewhere the threads keep the process's priority.
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** Nice increment of the simulation threads unless PESIM_SIMULATION_NICE says otherwise. */
export const DEFAULT_SIMULATION_NICE = 10;

/** PESIM_SIMULATION_NICE (an integer from 0, equal priority, to 19), or the default; anything else stops the start-up. */
export function simulationNice(env: NodeJS.ProcessEnv = process.env): number {
  const value = env.PESIM_SIMULATION_NICE;
  if (value === undefined || value === '') return DEFAULT_SIMULATION_NICE;
  const nice = Number(value);
  if (!Number.isInteger(nice) || nice < 0 || nice > 19) {
    throw new Error(`PESIM_SIMULATION_NICE must be an integer from 0 to 19 (got ${JSON.stringify(value)})`);
  }
  return nice;
}

/** The calling thread's id on Linux (its entry under /proc/<pid>/task), else undefined. */
function threadId(): number | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Lowers the calling thread's priority by `increment` nice levels (at most to 19); returns the
 * thread's nice value afterwards, or undefined where threads have no priority of their own. Only
 * lowering is asked for, which needs no privilege.
 */
export function lowerThreadPriority(increment: number): number | undefined {
  const tid = threadId();
  if (tid === undefined || !(increment > 0)) return tid === undefined ? undefined : getPriority(tid);
  try {
    setPriority(tid, Math.min(19, getPriority(tid) + increment));
    return getPriority(tid);
  } catch {
    return undefined;
  }
}

/** The calling thread's nice value, or undefined where threads have no priority of their own. */
export function threadNice(): number | undefined {
  const tid = threadId();
  return tid === undefined ? undefined : getPriority(tid);
}

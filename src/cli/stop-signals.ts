// SIGINT and SIGTERM for the long-running commands (`pesim serve`, `pesim jobq`, `pesim worker`).
// The handlers go in before the command starts its service. A signal during the start-up ends the
// command at once (status 130: nothing runs yet that would need to finish). Once the command is
// ready (`ready()`, called just before it prints its ready line), the first signal stops it in
// order and a second one exits at once. Installed only after the ready line, as before, a signal
// sent as soon as the line appeared could find the process still without its handlers (it may lose
// the CPU between the two) and kill it outright, without its clean stop.
import { EXIT } from './exit-codes.js';

export interface StopSignals {
  /** The command is ready: from now on the first signal stops it in order. */
  ready(): void;
  /** Resolves with the first SIGINT or SIGTERM after ready(). */
  readonly stopped: Promise<NodeJS.Signals>;
}

export function stopSignals(): StopSignals {
  let ready = false;
  let received = false;
  const stopped = new Promise<NodeJS.Signals>((resolve) => {
    const stop = (signal: NodeJS.Signals): void => {
      if (!ready || received) {
        console.error(ready ? `pesim: ${signal} again, exiting without waiting` : `pesim: ${signal} during the start-up, exiting`);
        process.exit(EXIT.interrupted);
      }
      received = true;
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  return { ready: () => void (ready = true), stopped };
}

// What built-in functions act on: the remote-control session (one implementation of the
// operations, shared with the XML-RPC server), the runner that records probed block outputs, and
// the output stream.
import type { RemoteOperations } from '../remote/types.js';
import type { ProbingRunner } from './probe-runner.js';

export interface ScriptHost {
  session: RemoteOperations;
  probes: ProbingRunner;
  write(text: string): void;
}

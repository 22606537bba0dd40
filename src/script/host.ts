// What host functions act on: the remote-control session (one implementation of the operations,
// shared with the XML-RPC server), the runner that records probed block outputs, the step-wise
// run, and the output stream; and the shape of a host function, the functions a script calls beyond Java's library.
import type { RemoteOperations } from '../remote/types.js';
import type { HostSignature } from '../engine/java-script.js';
import type { GeckoStepping } from './gecko-stepping.js';
import type { ProbingRunner } from './probe-runner.js';

export interface ScriptHost {
  session: RemoteOperations;
  probes: ProbingRunner;
  /** GeckoSCRIPT's step-wise run (initSimulation ... endSimulation) and continueSimulation. */
  stepping: GeckoStepping;
  write(text: string): void;
}

export type Signature = HostSignature;

/** A function scripts call by name: its overloads (Java type names) and its implementation. */
export interface Builtin {
  name: string;
  signatures: Signature[];
  /** The arguments as the overload's types give them (numbers, strings, arrays; Object as its text). May return a promise. */
  call(args: unknown[]): unknown;
}

export type Builtins = Map<string, Builtin>;

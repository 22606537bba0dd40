// The one error model of pesim. Every failure a caller may act on is a PesimError: a stable `code`
// (NETLIST_INVALID, TASK_NOT_FOUND, NO_CIRCUIT, ...) that callers and the services' formatters test
// instead of messages, the structured facts of the failure (the field, line, component, task and its
// state, ...) and the error it was caused by. Each layer declares its codes and subclasses; each
// service maps codes to its statuses and response shapes (src/server/error-format.ts,
// src/jobq/errors.ts, src/rmi/faults.ts) and never rewrites a message.

/** One problem of a request or a file: the field (or file) at fault, with the line and component when known. */
export interface ErrorDetail {
  /** The field at fault (`parameters.R.1.R`, `file`, ...). */
  field: string;
  message: string;
  /** Line of the file at fault (parse errors). */
  line?: number;
  /** Component at fault (model errors). */
  component?: string;
}

/** What is known of a failure beyond its code and message; every member optional. */
export interface ErrorFacts {
  /** The request field or setting at fault. */
  field?: string;
  /** Line of the file at fault (1-based). */
  line?: number;
  /** The component (`R.1`) or element at fault. */
  component?: string;
  /** The circuit node at fault. */
  node?: string;
  /** Simulated time of the failure [s]. */
  time?: number;
  /** The task (simulation) concerned. */
  taskId?: string;
  /** The task's state when the operation was refused. */
  state?: string;
  /** Several problems at once, each with its field. */
  details?: ErrorDetail[];
  /** The error this one was caused by. */
  cause?: unknown;
}

export class PesimError extends Error {
  readonly code: string;
  // Declared only: set when known, so that an error holds just the facts it has.
  declare readonly field?: string;
  declare readonly line?: number;
  declare readonly component?: string;
  declare readonly node?: string;
  declare readonly time?: number;
  declare readonly taskId?: string;
  declare readonly state?: string;
  declare readonly details?: ErrorDetail[];

  constructor(code: string, message: string, facts: ErrorFacts = {}) {
    super(message, facts.cause === undefined ? undefined : { cause: facts.cause });
    this.name = new.target.name;
    this.code = code;
    const { cause: _cause, ...known } = facts;
    for (const [key, value] of Object.entries(known)) if (value !== undefined) Object.assign(this, { [key]: value });
  }
}

/** True for a PesimError with one of `codes` (any code when none is given). */
export function hasCode(error: unknown, ...codes: string[]): error is PesimError {
  return error instanceof PesimError && (codes.length === 0 || codes.includes(error.code));
}

// Errors of the remote-control operations as XML-RPC faults: each RemoteError code has its own
// fault code (listed in docs/remote-control.md and in system.methodHelp), and the fault string starts with the
// code's name so that clients reading only faultString still see it. Anything unexpected becomes
// INTERNAL_ERROR without internals.
import { RemoteError, type RemoteErrorCode } from '../remote/types.js';
import { QueueFullError } from '../jobs/errors.js';
import { FAULT, XmlRpcFault } from '../xmlrpc/values.js';

export const REMOTE_FAULT_CODES: Record<RemoteErrorCode, number> = {
  NO_CIRCUIT: 1,
  NO_RESULT: 2,
  PATH_OUTSIDE_ROOT: 3,
  FILE_NOT_FOUND: 4,
  CIRCUIT_INVALID: 5,
  UNKNOWN_COMPONENT: 6,
  UNKNOWN_PARAMETER: 7,
  UNKNOWN_CHANNEL: 8,
  INVALID_ARGUMENT: 9,
  BUSY: 10,
  CANCELLED: 11,
  SIMULATION_FAILED: 12,
};

/** One line per fault code, for system.methodHelp and docs/remote-control.md. */
export const FAULT_TABLE: readonly string[] = [
  ...Object.entries(REMOTE_FAULT_CODES).map(([name, code]) => `${code} ${name}`),
  `${FAULT.PARSE_ERROR} PARSE_ERROR`,
  `${FAULT.INVALID_REQUEST} INVALID_REQUEST`,
  `${FAULT.METHOD_NOT_FOUND} METHOD_NOT_FOUND`,
  `${FAULT.INVALID_PARAMS} INVALID_PARAMS`,
  `${FAULT.INTERNAL_ERROR} INTERNAL_ERROR`,
  `${FAULT.TOO_LARGE} TOO_LARGE`,
  `${FAULT.QUEUE_FULL} QUEUE_FULL`,
];

export function remoteFault(error: RemoteError): XmlRpcFault {
  return new XmlRpcFault(REMOTE_FAULT_CODES[error.code], `${error.code}: ${error.message}`);
}

/** The fault for any error thrown by a method; `log` receives the ones that are not the caller's fault. */
export function toFault(error: unknown, log: (error: unknown) => void): XmlRpcFault {
  if (error instanceof XmlRpcFault) return error;
  if (error instanceof RemoteError) return remoteFault(error);
  // By code, not class: the server module is imported on demand, and a test runner may load it
  // with its own copy of the job runtime's error classes.
  if (error instanceof QueueFullError || (error instanceof Error && (error as { code?: unknown }).code === 'QUEUE_FULL')) {
    return new XmlRpcFault(FAULT.QUEUE_FULL, `QUEUE_FULL: ${error.message}`);
  }
  log(error);
  return new XmlRpcFault(FAULT.INTERNAL_ERROR, 'INTERNAL_ERROR: the server failed while handling the call; its log has the details');
}

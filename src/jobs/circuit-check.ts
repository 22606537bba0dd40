// The one rule both services apply to a submitted circuit: it has been read (parse errors name the
// line), and the engine validates it with the request's parameter overrides before it is queued
// (floating nodes, source loops, unknown components or parameters), so the same bad circuit is the
// same 4xx on the simulation service and the job queue. Each service renders a CircuitProblem in its
// own error shape (src/circuits/circuit-errors.ts, src/jobq/prepare.ts).
import { EngineError } from '../engine/errors.js';
import type { ErrorDetail } from '../errors/pesim-error.js';
import { validateNetlist } from '../engine/simulate.js';
import { NetlistError } from '../formats/errors.js';
import type { Netlist, ParameterOverrides } from '../formats/netlist.js';

export type CircuitProblemDetail = ErrorDetail;

/**
 * `parameter`: an override names no parameter or is out of range (a 400 naming the key);
 * `circuit`: the file does not read or the circuit cannot be simulated (a 422).
 */
export interface CircuitProblem {
  kind: 'parameter' | 'circuit';
  message: string;
  details: CircuitProblemDetail[];
}

/** What a request submitted: the circuit and its parameter overrides. */
export interface Submitted {
  netlist: Netlist;
  overrides: ParameterOverrides;
}

/**
 * The override key that set the parameter an engine error names (`R.1.R` set directly, or `$Vin`
 * when the parameter refers to that global), so the error names the request's field, not the model.
 */
function overrideAtFault(error: EngineError, submitted: Submitted | undefined): string | undefined {
  if (!submitted || !error.element || !error.field) return undefined;
  const key = `${error.element}.${error.field}`;
  if (Object.hasOwn(submitted.overrides, key)) return key;
  const owner = [...submitted.netlist.elements, ...(submitted.netlist.blocks ?? []), ...(submitted.netlist.thermal ?? [])].find((item) => item.name === error.element);
  const value = owner?.params?.[error.field];
  return typeof value === 'string' && value.startsWith('$') && Object.hasOwn(submitted.overrides, value) ? value : undefined;
}

/**
 * What a reader or engine failure about a circuit means for a request; undefined for other errors.
 * With `submitted`, a parameter out of range that an override set is the override's problem.
 */
export function circuitProblemOf(error: unknown, submitted?: Submitted): CircuitProblem | undefined {
  if (error instanceof NetlistError) {
    const parameter = error.code === 'UNKNOWN_PARAMETER' || (error.code === 'PARAMETER_OUT_OF_RANGE' && error.details.length > 0 && !error.details[0].line);
    const details = error.details.map((d) => ({
      field: d.field,
      message: d.message,
      ...(d.line !== undefined ? { line: d.line } : {}),
      ...(d.component !== undefined ? { component: d.component } : {}),
    }));
    return { kind: parameter ? 'parameter' : 'circuit', message: error.message, details: details.length > 0 ? details : [{ field: 'circuit', message: error.message }] };
  }
  if (error instanceof EngineError && error.code !== 'CANCELLED') {
    const key = error.code === 'PARAMETER_OUT_OF_RANGE' ? overrideAtFault(error, submitted) : undefined;
    if (key) return { kind: 'parameter', message: error.message, details: [{ field: key, message: error.message }] };
    const component = error.element ?? error.node;
    return { kind: 'circuit', message: error.message, details: [{ field: error.field ?? component ?? 'circuit', message: error.message, ...(component ? { component } : {}) }] };
  }
  return undefined;
}

/** Validates a circuit with its overrides in the engine; throws the reader's or engine's error. */
export function checkSubmittedCircuit(netlist: Netlist, parameters: ParameterOverrides): string[] {
  return validateNetlist(netlist, parameters);
}

// Engine failures as JavaScript classes, chosen by the `code` the addon sets (native/addon/errors.cc).
import { PesimError } from '../errors/pesim-error.js';

export type EngineErrorCode =
  | 'NETLIST_INVALID' | 'UNKNOWN_ELEMENT_TYPE' | 'MISSING_PARAMETER' | 'PARAMETER_OUT_OF_RANGE'
  | 'UNKNOWN_REFERENCE' | 'UNKNOWN_PARAMETER' | 'FLOATING_NODE' | 'VOLTAGE_SOURCE_LOOP'
  | 'CURRENT_SOURCE_CUTSET' | 'ALGEBRAIC_LOOP' | 'SINGULAR_MATRIX' | 'SWITCH_ITERATION_LIMIT'
  | 'CANCELLED' | 'OUT_OF_MEMORY' | 'ENGINE_ERROR' | 'ANALYSIS_INVALID' | 'ENCODE_INVALID'
  | 'CODE_INVALID' | 'CODE_FAILED' | 'STEADY_STATE_UNSUPPORTED';

/** Any failure reported by the engine. `element`/`node` name what is at fault, `time` when. */
export class EngineError extends PesimError {
  declare readonly code: EngineErrorCode;
  readonly element?: string;

  constructor(code: EngineErrorCode, message: string, at: { element?: string; node?: string; time?: number; field?: string } = {}) {
    super(code, message, { node: at.node, time: at.time, field: at.field });
    this.element = at.element;
  }
}

/** The circuit cannot be simulated as given (checked before the first step). */
export class CircuitError extends EngineError {}
/** The equations have no unique solution at `time`. */
export class SingularMatrixError extends EngineError {}
/** Switch states did not settle within the iteration limit at `time`. */
export class SwitchIterationError extends EngineError {}
/** The run was cancelled. */
export class CancelledError extends EngineError {}
/** The Java code of a JAVA block threw while running (`element`, `time`; the message names the line). */
export class CodeFailedError extends EngineError {}

const CIRCUIT_CODES = new Set<string>([
  'NETLIST_INVALID', 'UNKNOWN_ELEMENT_TYPE', 'MISSING_PARAMETER', 'PARAMETER_OUT_OF_RANGE', 'UNKNOWN_REFERENCE',
  'UNKNOWN_PARAMETER', 'FLOATING_NODE', 'VOLTAGE_SOURCE_LOOP', 'CURRENT_SOURCE_CUTSET', 'ALGEBRAIC_LOOP',
  'CODE_INVALID',
  // No periodic steady state to look for (docs/steady-state.md): the same on every attempt.
  'STEADY_STATE_UNSUPPORTED',
]);

/** True for failures that repeat on every attempt (invalid circuit, singular matrix). */
export function isDeterministicFailure(error: unknown): boolean {
  return error instanceof CircuitError || error instanceof SingularMatrixError || error instanceof SwitchIterationError ||
    error instanceof CodeFailedError;
}

/** Wraps an error thrown by the addon in the matching class; other errors pass through. */
export function toEngineError(error: unknown): unknown {
  if (error instanceof EngineError || !(error instanceof Error)) return error;
  const raw = error as Error & { code?: string; element?: string; node?: string; time?: number; field?: string };
  if (typeof raw.code !== 'string') return error;
  const at = { element: raw.element, node: raw.node, time: raw.time, field: raw.field };
  const code = raw.code as EngineErrorCode;
  if (CIRCUIT_CODES.has(code)) return new CircuitError(code, raw.message, at);
  if (code === 'SINGULAR_MATRIX') return new SingularMatrixError(code, raw.message, at);
  if (code === 'SWITCH_ITERATION_LIMIT') return new SwitchIterationError(code, raw.message, at);
  if (code === 'CANCELLED') return new CancelledError(code, raw.message, at);
  if (code === 'CODE_FAILED') return new CodeFailedError(code, raw.message, at);
  return new EngineError(code, raw.message, at);
}

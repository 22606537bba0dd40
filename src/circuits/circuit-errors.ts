// Turning reader and engine failures about a circuit into the service's errors: unreadable files
// and unsimulatable circuits are 422 CIRCUIT_INVALID (details name the line or the component),
// unknown parameter keys are 400 VALIDATION_ERROR naming the key under `field`.
import { AppError, type ErrorDetail } from '../http/errors.js';
import { circuitProblemOf, type Submitted } from '../jobs/circuit-check.js';

/**
 * The AppError for a NetlistError or EngineError about a circuit; other errors pass through.
 * `submitted`: the circuit and overrides of the request, so an override out of range is named.
 */
export function circuitProblem(error: unknown, parameterField = 'parameters', submitted?: Submitted): unknown {
  const problem = circuitProblemOf(error, submitted);
  if (!problem) return error;
  if (problem.kind === 'parameter') {
    const details: ErrorDetail[] = problem.details.map((d) => ({ field: `${parameterField}.${d.field}`, message: d.message }));
    return new AppError(400, 'VALIDATION_ERROR', problem.message, details);
  }
  return new AppError(422, 'CIRCUIT_INVALID', problem.message, problem.details);
}

export function circuitNotFound(id: string): AppError {
  return new AppError(404, 'CIRCUIT_NOT_FOUND', `No circuit ${id}; GET /api/v1/circuits lists the loaded circuits`);
}

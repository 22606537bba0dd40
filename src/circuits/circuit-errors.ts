// Turning reader and engine failures about a circuit into the service's errors: unreadable files
// and unsimulatable circuits are 422 CIRCUIT_INVALID (details name the line or the component),
// unknown parameter keys are 400 VALIDATION_ERROR naming the key under `field`.
import { EngineError } from '../engine/index.js';
import { NetlistError } from '../formats/errors.js';
import { AppError, type ErrorDetail } from '../http/errors.js';

/** The AppError for a NetlistError or EngineError about a circuit; other errors pass through. */
export function circuitProblem(error: unknown, parameterField = 'parameters'): unknown {
  if (error instanceof NetlistError) {
    if (error.code === 'UNKNOWN_PARAMETER' || (error.code === 'PARAMETER_OUT_OF_RANGE' && error.details.length > 0 && !error.details[0].line)) {
      const details: ErrorDetail[] = error.details.map((d) => ({ field: `${parameterField}.${d.field}`, message: d.message }));
      return new AppError(400, 'VALIDATION_ERROR', error.message, details);
    }
    const details: ErrorDetail[] = error.details.map((d) => ({
      field: d.field,
      message: d.message,
      ...(d.line !== undefined ? { line: d.line } : {}),
      ...(d.component !== undefined ? { component: d.component } : {}),
    }));
    return new AppError(422, 'CIRCUIT_INVALID', error.message, details.length > 0 ? details : [{ field: 'circuit', message: error.message }]);
  }
  if (error instanceof EngineError && error.code !== 'CANCELLED') {
    const component = error.element ?? error.node;
    const detail: ErrorDetail = { field: error.field ?? component ?? 'circuit', message: error.message, ...(component ? { component } : {}) };
    return new AppError(422, 'CIRCUIT_INVALID', error.message, [detail]);
  }
  return error;
}

export function circuitNotFound(id: string): AppError {
  return new AppError(404, 'CIRCUIT_NOT_FOUND', `No circuit ${id}; GET /api/v1/circuits lists the loaded circuits`);
}

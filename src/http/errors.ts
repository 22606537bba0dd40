// The simulation service's application error: what a controller or service throws when a request
// cannot be served, with its HTTP status. The error middleware renders it as docs/spec/decisions.md
// §1.1's body `{error, message, details?, path, timestamp}` with `status`.
import { PesimError, type ErrorDetail } from '../errors/pesim-error.js';

export type { ErrorDetail };

export class AppError extends PesimError {
  constructor(
    readonly status: number,
    code: string,
    message: string,
    details?: ErrorDetail[],
    /** Extra response headers (Retry-After for QUEUE_FULL). */
    readonly headers?: Record<string, string>,
  ) {
    super(code, message, { details });
  }
}

export const validationError = (message: string, details?: ErrorDetail[]): AppError => new AppError(400, 'VALIDATION_ERROR', message, details);

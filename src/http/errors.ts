// The simulation service's application error: what a controller or service throws when a request
// cannot be served. The error middleware renders it as docs/spec/decisions.md §1.1's body
// `{error, message, details?, path, timestamp}` with `status`.

export interface ErrorDetail {
  /** The request field at fault (`parameters.R.1.R`, `file` line 12, ...). */
  field: string;
  message: string;
  /** Line of the circuit file at fault (parse errors). */
  line?: number;
  /** Component at fault (model errors). */
  component?: string;
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    /** Extra response headers (Retry-After for QUEUE_FULL). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const validationError = (message: string, details?: ErrorDetail[]): AppError => new AppError(400, 'VALIDATION_ERROR', message, details);

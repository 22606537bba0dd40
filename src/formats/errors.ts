// Errors raised while reading or checking circuit descriptions, before the engine sees them.
// `details` names the field (or file line) at fault so services can report it as is.
import { PesimError, type ErrorDetail } from '../errors/pesim-error.js';

export type { ErrorDetail };

export class NetlistError extends PesimError {
  declare readonly details: ErrorDetail[];

  constructor(code: string, message: string, details: ErrorDetail[] = []) {
    super(code, message, { details });
  }
}

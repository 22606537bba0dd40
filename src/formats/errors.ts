// Errors raised while reading or checking circuit descriptions, before the engine sees them.
// `details` names the field (or file line) at fault so services can report it as is.

export interface ErrorDetail {
  field: string;
  message: string;
  line?: number;
  component?: string;
}

export class NetlistError extends Error {
  readonly code: string;
  readonly details: ErrorDetail[];

  constructor(code: string, message: string, details: ErrorDetail[] = []) {
    super(message);
    this.name = 'NetlistError';
    this.code = code;
    this.details = details;
  }
}

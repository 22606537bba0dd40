// Errors of the result storage formats: a file that cannot be read back as a result
// (CORRUPT_RESULT), a format/compression pair that is not offered (UNSUPPORTED_COMBINATION), and a
// result that is not writable as it stands (INVALID_RESULT). All are JobErrors with a `code`.
import { PesimError } from '../../../errors/pesim-error.js';
import { JobError } from '../../errors.js';

/** The file is truncated, is garbage, or is not a pesim result of the expected format. */
export class CorruptResultError extends JobError {
  constructor(readonly path: string, readonly format: string, readonly detail: string) {
    super('CORRUPT_RESULT', `Result file ${path} is not a readable ${format} result: ${detail}`);
  }
}

/** The format cannot store with the requested compression (or either name is unknown). */
export class UnsupportedCombinationError extends JobError {
  constructor(readonly format: string, readonly compression: string, readonly supported: readonly string[]) {
    super(
      'UNSUPPORTED_COMBINATION',
      supported.length > 0
        ? `Storage format ${format} does not support ${compression} compression; ${format} supports ${supported.join(', ')}`
        : `Unknown storage format ${format} (with ${compression} compression); the formats are parquet, hdf5 and csv`,
    );
  }
}

/** The result handed to writeResult is inconsistent (e.g. a signal's length differs from time's). */
export class InvalidResultError extends JobError {
  constructor(detail: string) {
    super('INVALID_RESULT', `Cannot store the result: ${detail}`);
  }
}

/**
 * Thrown by the format readers for content problems; readResult turns it (and every other failure
 * while decoding) into a CorruptResultError naming the file and the format.
 */
export class DecodeError extends PesimError {
  constructor(message: string) {
    super('RESULT_UNDECODABLE', message);
  }
}

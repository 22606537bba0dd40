// tsoa validates every `number` in a request body by formatting it as a string and matching it
// with validator.js's isFloat, then parsing it back: about 3 µs per number, 30 s for the 10 M
// samples an analysis request may carry. A JSON body's numbers are finite doubles already, and
// String → toFloat gives the same double back, so for a number without range validators the result
// is the value itself. This installs that shortcut once in front of tsoa's own check; strings
// (coerced query parameters) and numbers with minimum/maximum still take tsoa's path.
import { ValidationService } from '@tsoa/runtime';

type ValidateFloat = ValidationService['validateFloat'];

const installed = Symbol.for('pesim.tsoa.fastFloat');
const prototype = ValidationService.prototype as ValidationService & { [installed]?: true };

if (!prototype[installed]) {
  const tsoaValidateFloat: ValidateFloat = prototype.validateFloat;
  prototype.validateFloat = function fastValidateFloat(this: ValidationService, ...args: Parameters<ValidateFloat>): ReturnType<ValidateFloat> {
    const [, value, , , validators] = args;
    if (typeof value === 'number' && Number.isFinite(value) && !validators) return value;
    return tsoaValidateFloat.apply(this, args);
  };
  prototype[installed] = true;
}

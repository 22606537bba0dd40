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

// An array of such numbers (the samples of a signal) is validated element by element too, with a
// field name made for each (`data.$1234`): 2.3 M strings and calls for a 46 MB body, ≈ 0.2 s of
// work and as much again of garbage collection on the event loop. An array whose elements are all
// finite numbers, checked against a `double` element schema without validators, is returned as
// it is; anything else (a string among the numbers, a range on the elements) takes tsoa's path.
type ValidateArray = ValidationService['validateArray'];
const installedArrays = Symbol.for('pesim.tsoa.fastFloatArray');
const arrayPrototype = ValidationService.prototype as ValidationService & { [installedArrays]?: true };

function allFiniteNumbers(values: unknown[]): boolean {
  for (const value of values) if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  return true;
}

if (!arrayPrototype[installedArrays]) {
  const tsoaValidateArray: ValidateArray = arrayPrototype.validateArray;
  arrayPrototype.validateArray = function fastValidateArray(this: ValidationService, ...args: Parameters<ValidateArray>): ReturnType<ValidateArray> {
    const [, value, , , schema, validators] = args;
    const element = schema as { dataType?: string; validators?: unknown } | undefined;
    if (!validators && Array.isArray(value) && element?.dataType === 'double' && !element.validators && allFiniteNumbers(value)) return value;
    return tsoaValidateArray.apply(this, args);
  };
  arrayPrototype[installedArrays] = true;
}

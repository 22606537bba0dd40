// The shortcut in front of tsoa's float validation: numbers pass as themselves, everything else
// still gets tsoa's verdict (strings in bodies refused, coerced strings parsed, ranges checked).
import { expect } from 'chai';
import { ValidationService, type FieldErrors } from '@tsoa/runtime';
import '../../../src/http/tsoa/fast-float.js';

describe('tsoa float validation shortcut', () => {
  const strict = new ValidationService({}, { noImplicitAdditionalProperties: 'ignore', bodyCoercion: false });
  const coercing = new ValidationService({}, { noImplicitAdditionalProperties: 'ignore', bodyCoercion: true });

  // -0 tells the two paths apart: tsoa's String → toFloat round trip returns +0.
  it('returns body numbers as they are, without errors', () => {
    const errors: FieldErrors = {};
    for (const value of [0, -0, 1e-300, 1.7976931348623157e308, -2.5, 5e-324]) {
      expect(Object.is(strict.validateFloat('x', value, errors, true), value)).to.equal(true);
    }
    expect(errors).to.deep.equal({});
  });

  it('still refuses a string in a body without coercion, and names the field', () => {
    const errors: FieldErrors = {};
    expect(strict.validateFloat('data.$3', '1.5', errors, true, undefined, 'body.')).to.equal(undefined);
    expect(errors).to.have.property('body.data.$3');
  });

  it('still parses coerced strings and applies minimum and maximum', () => {
    const errors: FieldErrors = {};
    expect(coercing.validateFloat('q', '2.5', errors, false)).to.equal(2.5);
    expect(strict.validateFloat('h', 5, errors, true, { minimum: { value: 10 } })).to.equal(undefined);
    expect(errors).to.have.property('h');
  });

  it('returns an array of body numbers as it is, and still names a bad element or a range', () => {
    const errors: FieldErrors = {};
    const samples = [0, -0, 1.5, -2.5e-300];
    expect(strict.validateArray('data', samples, errors, true, { dataType: 'double' })).to.equal(samples);
    expect(errors).to.deep.equal({});
    expect(strict.validateArray('data', [1, '2', 3], errors, true, { dataType: 'double' })).to.equal(undefined);
    expect(errors).to.have.property('data.$1');
    const ranged = strict.validateArray('h', [1, 20], errors, true, { dataType: 'double', validators: { maximum: { value: 10 } } });
    expect(ranged).to.equal(undefined);
    expect(errors).to.have.property('h.$1');
  });
});

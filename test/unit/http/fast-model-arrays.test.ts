// The shortcut in front of tsoa's validation of large arrays of models: an element it accepts is
// one tsoa accepts without an error and returns unchanged; every other array gets tsoa's own
// verdict and field paths. The models are the job queue's SimulationRequest as tsoa generates it
// (src/generated/jobq/routes.ts), plus constructs the shortcut leaves to tsoa.
import { expect } from 'chai';
import { ValidationService, type FieldErrors, type TsoaRoute } from '@tsoa/runtime';
import { acceptorFor, FAST_ARRAY_MIN } from '../../../src/http/tsoa/fast-model-arrays.js';

const models: TsoaRoute.Models = {
  SteadyStateOptions: {
    dataType: 'refObject',
    properties: { period: { dataType: 'double' }, temperatures: { dataType: 'boolean' }, jacobian: { dataType: 'string' } },
    additionalProperties: true,
  },
  SimulationRequest: {
    dataType: 'refObject',
    properties: {
      model_file: { dataType: 'string', required: true },
      parameters: { dataType: 'nestedObjectLiteral', nestedProperties: {}, additionalProperties: { dataType: 'double' } },
      output_variables: { dataType: 'array', array: { dataType: 'string' } },
      priority: { dataType: 'string' },
      metadata: { dataType: 'nestedObjectLiteral', nestedProperties: {}, additionalProperties: { dataType: 'any' } },
      steady: { dataType: 'union', subSchemas: [{ dataType: 'boolean' }, { ref: 'SteadyStateOptions' }] },
    },
    additionalProperties: true,
  },
  // Left to tsoa: a default it fills in, an enum, validators.
  WithDefault: { dataType: 'refObject', properties: { n: { dataType: 'double', default: 3 } }, additionalProperties: true },
  WithEnum: { dataType: 'refObject', properties: { p: { dataType: 'refEnum', ref: 'Level' } }, additionalProperties: true },
  Level: { dataType: 'refEnum', enums: ['LOW', 'HIGH'] },
  // Other keys not allowed: ignored with `noImplicitAdditionalProperties: 'ignore'`, refused with 'throw-on-extras'.
  Closed: { dataType: 'refObject', properties: { model_file: { dataType: 'string', required: true } }, additionalProperties: false },
  WithRange: { dataType: 'refObject', properties: { n: { dataType: 'double', validators: { minimum: { value: 0 } } } }, additionalProperties: true },
};

const element = (ref: string): TsoaRoute.PropertySchema => ({ dataType: 'refObject', ref });
const tsoa = new ValidationService(models, { noImplicitAdditionalProperties: 'ignore', bodyCoercion: false });

/** tsoa's own verdict on one element (validateModel is not the patched method), on a copy. */
function tsoaVerdict(ref: string, value: unknown): { errors: FieldErrors; result: unknown } {
  const errors: FieldErrors = {};
  const copy: unknown = value === undefined ? undefined : structuredClone(value);
  const result: unknown = tsoa.validateModel({ name: '$0', value: copy, modelDefinition: models[ref], fieldErrors: errors, isBodyParam: true });
  return { errors, result };
}

const requests: unknown[] = [
  { model_file: 'rc.json' },
  { model_file: 'rc.json', parameters: { 'R.1.R': 100, 'C.1.C': -0 }, priority: 'HIGH', output_variables: ['SCOPE.1.ch1', 'a'] },
  { model_file: 'rc.json', metadata: { user: { name: 'x', tags: [1, null] } }, steady: true, extra: { anything: [1] } },
  { model_file: 'rc.json', steady: false, priority: 'URGENT' }, // a priority the service refuses itself (400)
  // tsoa refuses these:
  { parameters: { 'R.1.R': 1 } },
  { model_file: 7 },
  { model_file: 'rc.json', parameters: { 'R.1.R': '100' } },
  { model_file: 'rc.json', parameters: { 'R.1.R': null } },
  { model_file: 'rc.json', parameters: [1] },
  { model_file: 'rc.json', output_variables: 'SCOPE.1.ch1' },
  { model_file: 'rc.json', output_variables: ['a', 2] },
  { model_file: 'rc.json', priority: 1 },
  { model_file: 'rc.json', metadata: 'x' },
  { model_file: 'rc.json', steady: 'yes' },
  { model_file: 'rc.json', steady: { period: 'x' } },
  null,
  'rc.json',
  [{ model_file: 'rc.json' }],
  // tsoa accepts these, but changes them or copies them: left to it.
  { model_file: 'rc.json', steady: { period: 1e-3 } },
  JSON.parse('{"model_file": "rc.json", "metadata": {"__proto__": {"polluted": true}}}') as unknown,
  JSON.parse('{"model_file": "rc.json", "parameters": {"__proto__": 1}}') as unknown,
];

describe('tsoa validation shortcut for large arrays of models', () => {
  it('accepts only elements tsoa accepts without an error and returns as they were', () => {
    const accept = acceptorFor(models, element('SimulationRequest'));
    const verdicts = requests.map((request) => {
      const accepted = accept(request);
      const { errors, result } = tsoaVerdict('SimulationRequest', request);
      if (accepted) {
        expect(errors, JSON.stringify(request)).to.deep.equal({});
        expect(result, JSON.stringify(request)).to.deep.equal(request);
      }
      return [accepted, Object.keys(errors).length === 0];
    });
    // Accepted: the four first; refused by tsoa: the fourteen that follow; valid but left to tsoa: the last three.
    expect(verdicts.map(([accepted]) => accepted)).to.deep.equal(requests.map((_, i) => i < 4));
    expect(verdicts.map(([, valid]) => valid)).to.deep.equal(requests.map((_, i) => i < 4 || i >= 18));
  });

  it('leaves defaults, enums and validators to tsoa', () => {
    expect(acceptorFor(models, element('WithDefault'))({})).to.equal(false);
    expect(tsoaVerdict('WithDefault', {}).result).to.deep.equal({ n: 3 });
    expect(acceptorFor(models, element('WithEnum'))({ p: 'LOW' })).to.equal(false);
    expect(acceptorFor(models, element('WithRange'))({ n: 1 })).to.equal(false);
  });

  const body = (count: number, bad?: number): unknown[] =>
    Array.from({ length: count }, (_, i) => ({ model_file: 'rc.json', parameters: { 'R.1.R': i === bad ? 'x' : 100 + i } }));

  it('returns a large valid array as it is', () => {
    const errors: FieldErrors = {};
    const value = body(FAST_ARRAY_MIN);
    expect(tsoa.validateArray('requests', value, errors, true, element('SimulationRequest'))).to.equal(value);
    expect(errors).to.deep.equal({});
  });

  it('gives a large array with a bad element tsoa’s errors, with the element’s field path', () => {
    const errors: FieldErrors = {};
    const bad = FAST_ARRAY_MIN + 12;
    expect(tsoa.validateArray('requests', body(FAST_ARRAY_MIN + 20, bad), errors, true, element('SimulationRequest'))).to.equal(undefined);
    expect(Object.keys(errors)).to.deep.equal([`requests.$${bad}.parameters.R.1.R`]);
    // tsoa's own message for that element.
    const alone: FieldErrors = {};
    tsoa.validateModel({ name: `$${bad}`, value: body(bad + 1, bad)[bad], modelDefinition: models.SimulationRequest, fieldErrors: alone, isBodyParam: true, parent: 'requests.' });
    expect(errors).to.deep.equal(alone);
  });

  it('takes tsoa’s path for other settings (extras refused)', () => {
    const strict = new ValidationService(models, { noImplicitAdditionalProperties: 'throw-on-extras', bodyCoercion: false });
    const errors: FieldErrors = {};
    const value = body(FAST_ARRAY_MIN).map((item) => ({ ...(item as object), unknown_field: 1 }));
    expect(tsoa.validateArray('requests', value, errors, true, element('Closed'))).to.equal(value);
    expect(errors).to.deep.equal({});
    strict.validateArray('requests', value, errors, true, element('Closed'));
    expect(Object.keys(errors)).to.include('requests.$0.unknown_field');
  });
});

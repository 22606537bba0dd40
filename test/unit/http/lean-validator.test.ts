// The lean validator.js module that `pesim serve` installs before @tsoa/runtime loads
// (src/http/tsoa/lean-validator.ts): tsoa's checks that call validator.js (integers, floats,
// enums, ISO 8601 dates and date-times, string patterns) give the same values and the same errors
// as with the whole library, and only the files of the functions used are loaded. The lean module
// changes a process's require cache, so it runs in a child process on the compiled package.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** Runs tsoa's validations that use validator.js; prints their values and field errors as JSON. */
const CHECKS = `
  const { ValidationService } = await import('@tsoa/runtime');
  const service = new ValidationService({}, { noImplicitAdditionalProperties: 'throw-on-extras', bodyCoercion: true });
  const run = (check) => { const errors = {}; const value = check(errors); return { value: value instanceof Date ? value.toISOString() : value ?? null, errors }; };
  const results = [
    run((e) => service.validateInt('n', '12', e, false)),
    run((e) => service.validateInt('n', '1.5', e, false)),
    run((e) => service.validateInt('n', 7, e, true, { minimum: { value: 10, errorMsg: 'too small' } })),
    run((e) => service.validateFloat('f', '2.5', e, false)),
    run((e) => service.validateFloat('f', 'x2', e, false)),
    run((e) => service.validateEnum('e', 'b', e, ['a', 'b'])),
    run((e) => service.validateEnum('e', 'c', e, ['a', 'b'])),
    run((e) => service.validateDate('d', '2024-02-03', e, true)),
    run((e) => service.validateDate('d', '2024-02-30', e, true)),
    run((e) => service.validateDateTime('t', '2024-02-03T04:05:06.789Z', e, true)),
    run((e) => service.validateDateTime('t', 'yesterday', e, true)),
    run((e) => service.validateString('s', 'abc', e, { pattern: { value: '^a[b-c]+$' } })),
    run((e) => service.validateString('s', 'xbc', e, { pattern: { value: '^a[b-c]+$', errorMsg: 'must start with a' } })),
  ];`;

function child(lean: boolean): { installed?: boolean; results: unknown[]; libraryFiles: number } {
  const script = `
    const { createRequire } = await import('node:module');
    const installed = ${lean} ? (await import('./dist/src/http/tsoa/lean-validator.js')).installLeanValidator() : undefined;
    ${CHECKS}
    const libraryFiles = Object.keys(createRequire(process.cwd() + '/').cache).filter((f) => f.includes('/validator/lib/')).length;
    console.log(JSON.stringify({ installed, results, libraryFiles }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  expect(r.status, r.stderr).to.equal(0);
  return JSON.parse(r.stdout) as { installed?: boolean; results: unknown[]; libraryFiles: number };
}

describe('http: lean validator.js for tsoa', function () {
  this.timeout(60_000);
  before(function () {
    if (!existsSync(join(root, 'dist', 'src', 'http', 'tsoa', 'lean-validator.js'))) throw new Error('dist/ is not built: run `npm run build:ts`');
  });

  it('gives tsoa the same values and errors as the whole library, loading only the functions used', () => {
    const whole = child(false);
    const lean = child(true);
    expect(lean.installed).to.equal(true);
    expect(lean.results).to.deep.equal(whole.results);
    // The checks really pass and fail: a value, then an error for the field.
    expect(whole.results[0]).to.deep.equal({ value: 12, errors: {} });
    expect(Object.keys((whole.results[1] as { errors: object }).errors)).to.deep.equal(['n']);
    expect(whole.results[12]).to.deep.include({ errors: { s: { message: 'must start with a', value: 'xbc' } } });
    expect(whole.libraryFiles).to.be.greaterThan(100);
    expect(lean.libraryFiles).to.be.within(1, 12);
  });
});

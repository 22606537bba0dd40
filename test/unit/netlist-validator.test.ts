// The precompiled netlist validator of the build (dist/src/formats/netlist-validator.cjs, from
// scripts/build-validators.mjs) accepts and rejects exactly as the schema compiled by Ajv, with the
// same errors. Needs `npm run build:ts`.
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { NETLIST_VALIDATOR_OPTIONS, netlistSchema } from '../../src/formats/netlist.js';
import { buck, rcStep } from '../fixtures/circuits.js';

const precompiledFile = fileURLToPath(new URL('../../dist/src/formats/netlist-validator.cjs', import.meta.url));

describe('precompiled netlist validator', () => {
  it('gives the verdicts and errors of the schema compiled by Ajv', () => {
    if (!existsSync(precompiledFile)) throw new Error('dist/ is not built: run `npm run build:ts`');
    const precompiled = createRequire(import.meta.url)(precompiledFile) as ValidateFunction;
    const compiled = new Ajv(NETLIST_VALIDATOR_OPTIONS).compile(netlistSchema);
    const good = [rcStep('trapezoidal', 1e-5), buck()];
    const bad: unknown[] = [
      {}, { settings: { tEnd: -1, dt: 0 }, elements: [] }, { ...rcStep('trapezoidal', 1e-5), extra: 1 },
      { settings: { tEnd: 1, dt: 1e-3, solver: 'euler' }, elements: [{ name: 'R.1', type: 'R', nodes: ['a'], params: { R: 'x' } }] },
    ];
    for (const netlist of good) expect(precompiled(netlist), JSON.stringify(precompiled.errors)).to.equal(true);
    for (const netlist of bad) {
      expect(precompiled(netlist)).to.equal(compiled(netlist));
      expect(precompiled.errors).to.deep.equal(compiled.errors);
      expect(precompiled.errors?.length).to.be.greaterThan(0);
    }
  });
});

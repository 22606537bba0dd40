// The engine's checks of many override sets of one netlist (firstInvalidParameters, the addon's
// checkMany): the same answer as validating each set on its own, for overrides the engine refuses,
// overrides the resolver refuses, globals and the references to them.
import { expect } from 'chai';
import { firstInvalidParameters } from '../../src/engine/simulate.js';
import { loadBinding } from '../../src/engine/binding.js';
import type { Netlist, ParameterOverrides } from '../../src/formats/netlist.js';
import { rcStep, rcWithGlobals } from '../fixtures/circuits.js';
import { firstInvalidOneByOne as oneByOne } from '../fixtures/first-invalid.js';

describe('engine: checks of many override sets', () => {
  const cases: [string, () => Netlist, ParameterOverrides[]][] = [
    ['none refused', () => rcStep('backward-euler', 1e-5, 1e-4), [{ 'R.1.R': 10 }, { 'C.1.C': 2e-6 }, {}, { 'R.1.R': 5, 'C.1.C': 1e-9 }]],
    ['a value the engine refuses', () => rcStep('backward-euler', 1e-5, 1e-4), [{ 'R.1.R': 10 }, { 'C.1.C': 2e-6 }, { 'R.1.R': -1 }, { 'R.1.R': 7 }]],
    ['an unknown key after a refused value', () => rcStep('backward-euler', 1e-5, 1e-4), [{ 'R.1.R': 10 }, { 'R.1.R': -1 }, { 'R.9.R': 1 }]],
    ['an unknown key before a refused value', () => rcStep('backward-euler', 1e-5, 1e-4), [{ 'R.1.R': 10 }, { 'R.1.X': 1 }, { 'R.1.R': -5 }]],
    ['a non-finite value', () => rcStep('backward-euler', 1e-5, 1e-4), [{ 'R.1.R': 10 }, { 'R.1.R': Number.NaN }]],
    ['globals and their references', rcWithGlobals, [{ $Rv: 50 }, { $Cv: 2e-6, $Rv: 1 }, { 'R.1.R': 30 }, { $Cv: -1 }, { $Rv: 10 }]],
    ['a direct override of a referenced parameter wins over its global', rcWithGlobals, [{ 'C.1.C': 1e-6, $Cv: -1 }, { $Rv: -1, 'R.1.R': 5 }, { $Rv: -1 }]],
    ['an unknown global', rcWithGlobals, [{ $Rv: 5 }, { $Nope: 1 }]],
    ['a reference to an undefined global that an override replaces', () => {
      const n = rcWithGlobals();
      n.elements[1].params = { R: '$Missing' };
      return n;
    }, [{ 'R.1.R': 5 }, { 'R.1.R': 6 }, { 'C.1.C': 1e-6 }]],
    ['no sets', () => rcStep('backward-euler', 1e-5, 1e-4), []],
  ];
  for (const [what, netlist, sets] of cases) {
    it(`gives the set by set answer: ${what}`, () => {
      const n = netlist();
      const expected = oneByOne(n, sets);
      expect(firstInvalidParameters(n, sets)).to.equal(expected);
    });
  }

  it('leaves the netlist it checks as it was', () => {
    const n = rcWithGlobals();
    const before = structuredClone(n);
    firstInvalidParameters(n, [{ $Rv: 5 }, { 'C.1.C': 3e-6 }]);
    expect(n).to.deep.equal(before);
  });

  it('the addon names what is wrong with the assignments it is given', () => {
    const base = rcStep('backward-euler', 1e-5, 1e-4);
    const call = (lists: number[], items: number[], nameIds: number[]): unknown => {
      try {
        return loadBinding().checkMany(base, ['R'], Int32Array.of(lists.length), Int32Array.from(lists), Int32Array.from(items), Int32Array.from(nameIds), Float64Array.from(lists.map(() => 1)));
      } catch (error) {
        return (error as { field?: string }).field;
      }
    };
    expect(call([0], [1], [0])).to.equal(-1);
    expect(call([0], [9], [0])).to.equal('items[0]');
    expect(call([3], [0], [0])).to.equal('items[0]');
    expect(call([0], [1], [4])).to.equal('nameIds[0]');
  });
});

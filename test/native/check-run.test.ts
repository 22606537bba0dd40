// The engine's checks of a sweep's sets in run form (firstInvalidParameterRun: one key list, the
// values in one array, the keys resolved once by OverrideResolver.assignmentPlan): the same first
// failing set as validating each set on its own and as firstInvalidParameters of the decoded sets,
// and the same assignments as resolving each set; the cases the plan leaves open take the
// set-by-set path.
import { expect } from 'chai';
import { firstInvalidParameterRun, firstInvalidParameters } from '../../src/engine/simulate.js';
import { assignmentArrays } from '../../src/engine/assignment-arrays.js';
import { OverrideResolver } from '../../src/formats/overrides.js';
import type { Netlist, ParameterOverrides } from '../../src/formats/netlist.js';
import { rcStep, rcWithGlobals } from '../fixtures/circuits.js';
import { firstInvalidOneByOne as oneByOne } from '../fixtures/first-invalid.js';

/** A run: the keys and the values of sets that all have these keys in this order. */
function run(keys: string[], rows: number[][]): { keys: string[]; values: Float64Array; sets: ParameterOverrides[] } {
  return { keys, values: Float64Array.from(rows.flat()), sets: rows.map((row) => Object.fromEntries(keys.map((key, j) => [key, row[j]]))) };
}

const rc = (): Netlist => rcStep('backward-euler', 1e-5, 1e-4);

describe('engine: checks of a sweep run', () => {
  const cases: [string, () => Netlist, ReturnType<typeof run>][] = [
    ['none refused', rc, run(['R.1.R', 'C.1.C'], [[10, 1e-6], [5, 2e-6], [7, 1e-9]])],
    ['a value the engine refuses', rc, run(['R.1.R'], [[10], [20], [-1], [7], [-2]])],
    ['a non-finite value after a refused one', rc, run(['R.1.R'], [[10], [-1], [Number.NaN]])],
    ['a non-finite value before a refused one', rc, run(['R.1.R', 'C.1.C'], [[10, 1e-6], [Number.POSITIVE_INFINITY, 1e-6], [-1, 1e-6]])],
    ['an unknown key', rc, run(['R.1.R', 'R.9.R'], [[10, 1], [20, 1]])],
    ['an unknown parameter', rc, run(['R.1.X'], [[1]])],
    ['globals and their references', rcWithGlobals, run(['$Rv', '$Cv'], [[50, 1e-6], [1, 2e-6], [10, -1], [3, 1e-6]])],
    ['a direct override of a referenced parameter wins over its global', rcWithGlobals, run(['C.1.C', '$Cv'], [[1e-6, -1], [-1, 1e-6]])],
    ['a global overridden and a reference left to the netlist', rcWithGlobals, run(['$Rv'], [[5], [-5], [6]])],
    ['an unknown global', rcWithGlobals, run(['$Rv', '$Nope'], [[5, 1]])],
    ['an inherited name as a global (left to the set-by-set path)', rcWithGlobals, run(['$toString'], [[1], [2]])],
    ['a reference to an undefined global that an override replaces (set by set)', () => {
      const n = rcWithGlobals();
      n.elements[1].params = { R: '$Missing' };
      return n;
    }, run(['R.1.R'], [[5], [6], [-1]])],
  ];
  for (const [what, netlist, sets] of cases) {
    it(`gives the set by set answer: ${what}`, () => {
      const n = netlist();
      const expected = oneByOne(n, sets.sets);
      expect(firstInvalidParameters(n, sets.sets)).to.equal(expected);
      expect(firstInvalidParameterRun(n, sets.keys, sets.values)).to.equal(expected);
    });
  }

  it('makes the assignments resolving each set makes', () => {
    const n = rcWithGlobals();
    n.elements[0].params = { ...n.elements[0].params, value: '$Rv' }; // a second reference to $Rv
    const { keys, sets } = run(['R.1.R', '$Rv', '$Cv'], [[5, 50, 2e-6], [6, 60, 3e-6]]);
    const resolver = new OverrideResolver(n);
    const plan = resolver.assignmentPlan(keys)!;
    const planned = sets.map((set) => plan.map(({ list, index, param, key, value }) => ({ list, index, param, value: key < 0 ? value : set[keys[key]] })));
    expect(assignmentArrays(planned)).to.deep.equal(assignmentArrays(sets.map((set) => resolver.assignments(set).assignments)));
    expect(resolver.assignmentPlan(['$toString'])).to.equal(undefined);
    expect(() => resolver.assignmentPlan(['X.1.R'])).to.throw(/X.1.R/);
  });

  it('leaves the netlist it checks as it was', () => {
    const n = rcWithGlobals();
    const before = structuredClone(n);
    const { keys, values } = run(['$Rv', 'C.1.C'], [[5, 3e-6], [-1, 1e-6]]);
    expect(firstInvalidParameterRun(n, keys, values)).to.equal(1);
    expect(n).to.deep.equal(before);
  });
});

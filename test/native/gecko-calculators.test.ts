// Functions of the present inputs as GeckoCIRCUITS' calculators (control/calculators/*.java) compute
// them, at the edges where C's functions differ from Java's or from plain IEEE arithmetic: ROUND is
// Math.round, SIGN Math.signum, MIN/MAX Math.min/max (NaN wins), DIV turns 0/0 into 0 and x/0 into
// ±1e40, and the logic blocks meet the threshold 0.5 as each calculator does.
import { expect } from 'chai';
import { simulateSync } from '../../src/index.js';
import type { BlockType, ControlBlock, Netlist } from '../../src/formats/netlist.js';

const load: Netlist['elements'] = [
  { name: 'R.1', type: 'R', nodes: ['a', '0'], params: { R: 1 } },
  { name: 'V.1', type: 'V', nodes: ['a', '0'], params: { waveform: 'dc', value: 1 } },
];

/** Blocks giving `value` at `signal`: a CONST, or √−1 for NaN (a CONST must be finite). */
function source(value: number, signal: string): ControlBlock[] {
  if (!Number.isNaN(value)) return [{ name: `CONST.${signal}`, type: 'CONST', outputs: [signal], params: { value } }];
  return [
    { name: `CONST.${signal}`, type: 'CONST', outputs: [`${signal}_m`], params: { value: -1 } },
    { name: `SQRT.${signal}`, type: 'SQRT', inputs: [`${signal}_m`], outputs: [signal] },
  ];
}

/** The output of one `type` block per row of input values, as the engine computes it. */
function outputs(type: BlockType, rows: number[][]): number[] {
  const blocks: ControlBlock[] = rows.flatMap((row, r) => [
    ...row.flatMap((value, i) => source(value, `x${r}_${i}`)),
    { name: `${type}.${r}`, type, inputs: row.map((_, i) => `x${r}_${i}`), outputs: [`y${r}`] },
  ]);
  blocks.push({ name: 'SCOPE.1', type: 'SCOPE', inputs: rows.map((_, r) => `y${r}`) });
  const result = simulateSync({ settings: { tEnd: 1e-4, dt: 1e-5 }, elements: load, blocks });
  return rows.map((_, r) => result.signals[`SCOPE.1.ch${r + 1}`][result.time.length - 1]);
}

const ones = (values: number[]): number[][] => values.map((v) => [v]);

describe('GeckoCIRCUITS calculators at their edges', () => {
  it('ROUND rounds halves up as Math.round does, NaN to 0, saturating at ±2^63', () => {
    const values = [2.5, -2.5, -3.5, 0.49999999999999994, -0.5, 2.4, -2.6, 1e300, -1e300, NaN];
    expect(outputs('ROUND', ones(values))).to.deep.equal([3, -2, -3, 0, 0, 2, -3, 2 ** 63, -(2 ** 63), 0]);
    expect(Object.is(outputs('ROUND', [[-0]])[0], 0)).to.equal(true);  // a long has no −0
  });

  it('SIGN is Math.signum: NaN and ±0 pass through', () => {
    const [pos, neg, nan, negZero] = outputs('SIGN', ones([3, -0.1, NaN, -0]));
    expect([pos, neg]).to.deep.equal([1, -1]);
    expect(Number.isNaN(nan)).to.equal(true);
    expect(Object.is(negZero, -0)).to.equal(true);
  });

  it('DIV gives 0 for 0/0 and ±1e40 for x/0', () => {
    expect(outputs('DIV', [[0, 0], [2, 0], [-2, 0], [3, 2], [1e300, 1e-300]])).to.deep.equal([0, 1e40, -1e40, 1.5, 1e40]);
  });

  it('MIN and MAX give NaN when any input is NaN, and order −0 below +0', () => {
    expect(outputs('MAX', [[1, NaN, 3], [NaN, 1]]).every(Number.isNaN)).to.equal(true);
    expect(outputs('MIN', [[1, NaN], [NaN, 1, 2]]).every(Number.isNaN)).to.equal(true);
    expect(outputs('MAX', [[4, 7, -1]])).to.deep.equal([7]);
    expect(Object.is(outputs('MAX', [[-0, 0]])[0], 0)).to.equal(true);
    expect(Object.is(outputs('MIN', [[0, -0]])[0], -0)).to.equal(true);
  });

  it('AND of two needs both above 0.5; AND of three or more needs none below 0.5', () => {
    expect(outputs('AND', [[0.5, 1], [0.6, 1], [0.5, 1, 1], [0.49, 1, 1], [NaN, 1, 1]])).to.deep.equal([0, 1, 1, 0, 1]);
  });

  it('OR needs an input above 0.5; XOR and NOT count 0.5 as true', () => {
    expect(outputs('OR', [[0.5, 0.5], [0.5, 0.51]])).to.deep.equal([0, 1]);
    expect(outputs('XOR', [[0.5, 0], [0.5, 0.5], [0.49, 0]])).to.deep.equal([1, 0, 0]);
    expect(outputs('NOT', ones([0.5, 0.49, NaN]))).to.deep.equal([0, 1, 0]);
  });

  it('EQ of several inputs is 1 when all equal the first', () => {
    expect(outputs('EQ', [[2, 2, 2], [2, 2, 3], [1, 1]])).to.deep.equal([1, 0, 1]);
  });
});

// Functions of the present inputs as GeckoCIRCUITS' calculators (control/calculators/*.java) compute
// them, at the edges where C's functions differ from Java's or from plain IEEE arithmetic: ROUND is
// Math.round, SIGN Math.signum, MIN/MAX Math.min/max (NaN wins), DIV turns 0/0 into 0 and x/0 into
// ±1e40, and the logic blocks meet the threshold 0.5 as each calculator does.
import { expect } from 'chai';
import { simulateSync } from '../../src/index.js';
import type { BlockType, ControlBlock, Netlist } from '../../src/formats/netlist.js';
import { readIpesText, writeIpesText } from '../../src/formats/ipes/index.js';

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

  it('HYS sets its output by the sign of x when x equals h exactly, starting from `initial`', () => {
    const hys = (x: number, h: number, extra: Record<string, number> = {}): number[] => {
      const r = simulateSync({ settings: { tEnd: 3e-5, dt: 1e-5 }, elements: load, blocks: [
        ...source(x, 'x'),
        { name: 'HYS.1', type: 'HYS', inputs: ['x'], outputs: ['y'], params: { h, high: 1, low: -1, ...extra } },
        { name: 'SCOPE.1', type: 'SCOPE', inputs: ['y'] },
      ] });
      return Array.from(r.signals['SCOPE.1.ch1']);
    };
    expect(hys(0.2, 0.2).at(-1)).to.equal(1);
    expect(hys(-0.2, -0.2).at(-1)).to.equal(-1);
    expect(hys(0, 0, { initial: 1 }).at(-1)).to.equal(0);  // GeckoCIRCUITS: Math.signum(0)
    expect(hys(0.1, 0.2, { initial: 0 }).at(-1)).to.equal(0);  // inside the band: unchanged
    expect(hys(0.1, 0.2).at(-1)).to.equal(-1);
  });

  it('HYS is read from .ipes starting at 0, and written only when it does', () => {
    const hysteresis = (params: Record<string, number>): Netlist => ({ settings: { tEnd: 1e-4, dt: 1e-5 }, elements: load, blocks: [
      { name: 'CONST.1', type: 'CONST', outputs: ['x'], params: { value: 0.1 } },
      { name: 'HYS.1', type: 'HYS', inputs: ['x'], outputs: ['y'], params: { h: 0.2, high: 1, low: -1, ...params } },
      { name: 'SCOPE.1', type: 'SCOPE', inputs: ['y'] },
    ] });
    expect(() => writeIpesText(hysteresis({}))).to.throw(/starting at 0 \(set high: 1, low: -1, initial: 0\)/);
    const { netlist } = readIpesText(writeIpesText(hysteresis({ initial: 0 })), 'hys.ipes');
    expect(netlist.blocks?.find((b) => b.type === 'HYS')?.params).to.deep.equal({ h: 0.2, high: 1, low: -1, initial: 0 });
  });

  it('DELAY with GeckoCIRCUITS timing is (int)(delay/dt) steps, and no delay under one step', () => {
    const dt = 1e-8;
    const delayed = (delay: number, timing: 'gecko' | 'exact'): number => {
      const r = simulateSync({ settings: { tEnd: 10 * dt, dt, timing }, elements: load, blocks: [
        { name: 'TIME.1', type: 'TIME', outputs: ['t'] },
        { name: 'DELAY.1', type: 'DELAY', inputs: ['t'], outputs: ['y'], params: { delay } },
        { name: 'SUB.1', type: 'SUB', inputs: ['t', 'y'], outputs: ['lag'] },
        { name: 'SCOPE.1', type: 'SCOPE', inputs: ['lag'] },
      ] });
      return Math.round(r.signals['SCOPE.1.ch1'].at(-1)! / dt);  // the lag in steps
    };
    expect(delayed(3e-8, 'gecko')).to.equal(2);  // 3e-8 / 1e-8 = 2.9999999999999996
    expect(delayed(3e-8, 'exact')).to.equal(3);
    expect(delayed(2.5e-8, 'gecko')).to.equal(2);
    expect(delayed(0.5e-8, 'gecko')).to.equal(0);
    expect(delayed(0.5e-8, 'exact')).to.equal(1);
  });

  it('PD starts from a previous value of 0 with GeckoCIRCUITS timing (a spike gain·x(0)/dt), from x(0) otherwise', () => {
    const firstOutput = (timing: 'gecko' | 'exact'): number => {
      const r = simulateSync({ settings: { tEnd: 5e-6, dt: 1e-6, timing }, elements: load, blocks: [
        { name: 'CONST.1', type: 'CONST', outputs: ['x'], params: { value: 0.7 } },
        { name: 'PD.1', type: 'PD', inputs: ['x'], outputs: ['y'], params: { gain: 1e-5 } },
        { name: 'SCOPE.1', type: 'SCOPE', inputs: ['y'] },
      ] });
      return r.signals['SCOPE.1.ch1'][0];
    };
    expect(firstOutput('gecko')).to.be.closeTo(7, 1e-12);
    expect(firstOutput('exact')).to.equal(0);
  });
});

// The ROUND block is GeckoCIRCUITS' RoundCalculator, java.lang.Math.round: ties round up, NaN gives
// 0 and the result saturates at ±2^63, so a negative half differs from C's round (−2.5 → −2).
import { expect } from 'chai';
import { simulateSync } from '../../src/index.js';
import type { ControlBlock, Netlist } from '../../src/formats/netlist.js';

const load: Netlist['elements'] = [
  { name: 'R.1', type: 'R', nodes: ['a', '0'], params: { R: 1 } },
  { name: 'V.1', type: 'V', nodes: ['a', '0'], params: { waveform: 'dc', value: 1 } },
];

/** ROUND of each input block's output, as the engine computes it. */
function rounded(inputs: ControlBlock[]): number[] {
  const blocks: ControlBlock[] = inputs.flatMap((input, i) => [
    input,
    { name: `ROUND.${i}`, type: 'ROUND', inputs: [input.outputs![0]], outputs: [`y${i}`] },
  ] satisfies ControlBlock[]);
  blocks.push({ name: 'SCOPE.1', type: 'SCOPE', inputs: inputs.map((_, i) => `y${i}`) });
  const r = simulateSync({ settings: { tEnd: 1e-4, dt: 1e-5 }, elements: load, blocks });
  return inputs.map((_, i) => r.signals[`SCOPE.1.ch${i + 1}`][r.time.length - 1]);
}

const constant = (value: number, i: number): ControlBlock => ({ name: `CONST.${i}`, type: 'CONST', outputs: [`x${i}`], params: { value } });

describe('ROUND block', () => {
  it('rounds halves up as Math.round does', () => {
    const values = [2.5, -2.5, -3.5, 0.49999999999999994, -0.5, 2.4, -2.6, 1e300, -1e300];
    const expected = [3, -2, -3, 0, 0, 2, -3, 2 ** 63, -(2 ** 63)];
    expect(rounded(values.map(constant))).to.deep.equal(expected);
  });

  it('gives +0 for −0 and 0 for NaN (round(√−1)), as a long has neither', () => {
    expect(Object.is(rounded([constant(-0, 0)])[0], 0)).to.equal(true);
    const r = simulateSync({
      settings: { tEnd: 1e-4, dt: 1e-5 },
      elements: load,
      blocks: [
        constant(-1, 0),
        { name: 'SQRT.1', type: 'SQRT', inputs: ['x0'], outputs: ['nan'] },
        { name: 'ROUND.1', type: 'ROUND', inputs: ['nan'], outputs: ['y'] },
        { name: 'SCOPE.1', type: 'SCOPE', inputs: ['y'] },
      ],
    });
    expect(r.signals['SCOPE.1.ch1'][r.time.length - 1]).to.equal(0);
  });
});

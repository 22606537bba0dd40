// The FLOOR block (y = ⌊x⌋) through the engine, read from and written to SPICE behavioural
// expressions, and refused by the .ipes writer (GeckoCIRCUITS has no such block).
import { expect } from 'chai';
import { simulateSync } from '../../src/index.js';
import type { ControlBlock, Netlist } from '../../src/formats/netlist.js';
import { readSpice, voltageLabel, writeSpice } from '../../src/formats/spice/index.js';
import { writeIpesText } from '../../src/formats/ipes/index.js';

const load: Netlist['elements'] = [
  { name: 'R.1', type: 'R', nodes: ['a', '0'], params: { R: 1 } },
  { name: 'V.1', type: 'V', nodes: ['a', '0'], params: { waveform: 'dc', value: 1 } },
];

function netlist(blocks: ControlBlock[], elements = load): Netlist {
  return { settings: { tEnd: 1e-4, dt: 1e-5 }, elements, blocks };
}

/** ⌊x⌋ of each value, as the engine computes it. */
function floors(values: number[]): number[] {
  const blocks: ControlBlock[] = values.flatMap((value, i) => [
    { name: `CONST.${i}`, type: 'CONST', outputs: [`x${i}`], params: { value } },
    { name: `FLOOR.${i}`, type: 'FLOOR', inputs: [`x${i}`], outputs: [`y${i}`] },
  ] satisfies ControlBlock[]);
  blocks.push({ name: 'SCOPE.1', type: 'SCOPE', inputs: values.map((_, i) => `y${i}`) });
  const r = simulateSync(netlist(blocks));
  return values.map((_, i) => r.signals[`SCOPE.1.ch${i + 1}`][r.time.length - 1]);
}

describe('FLOOR block', () => {
  it('gives the largest integer not above its input', () => {
    const [up, down, whole, small, negativeZero] = floors([2.5, -2.5, 3, -1e-12, -0]);
    expect([up, down, whole, small]).to.deep.equal([2, -3, 3, -1]);
    expect(Object.is(negativeZero, -0)).to.equal(true);
  });

  it('passes NaN through (⌊√−1⌋)', () => {
    const r = simulateSync(netlist([
      { name: 'CONST.1', type: 'CONST', outputs: ['x'], params: { value: -1 } },
      { name: 'SQRT.1', type: 'SQRT', inputs: ['x'], outputs: ['nan'] },
      { name: 'FLOOR.1', type: 'FLOOR', inputs: ['nan'], outputs: ['y'] },
      { name: 'SCOPE.1', type: 'SCOPE', inputs: ['y'] },
    ]));
    expect(Number.isNaN(r.signals['SCOPE.1.ch1'][r.time.length - 1])).to.equal(true);
  });

  it('takes exactly one input', () => {
    const blocks: ControlBlock[] = [
      { name: 'CONST.1', type: 'CONST', outputs: ['x'], params: { value: 1 } },
      { name: 'FLOOR.1', type: 'FLOOR', inputs: ['x', 'x'], outputs: ['y'] },
    ];
    expect(() => simulateSync(netlist(blocks))).to.throw(/FLOOR\.1: a FLOOR block takes 1 input\(s\), got 2/);
  });

  it('is read from floor() of a circuit quantity in a SPICE behavioural source', () => {
    const deck = ['* floor of a node voltage', 'V1 x 0 DC 2.7', 'R1 x 0 1', 'B1 y 0 V={floor(v(x))}', 'R2 y 0 1', '.tran 1u 10u', '.end'].join('\n');
    const { netlist: read } = readSpice(deck);
    expect(read.blocks?.map((b) => b.type)).to.include('FLOOR');
    const r = simulateSync(read);
    const y = r.channels.find((c) => c.label === voltageLabel('y'))!;
    expect(r.signals[y.key][r.time.length - 1]).to.equal(2);
  });

  it('is written to SPICE as floor() and refused by the .ipes writer', () => {
    const n = netlist([
      { name: 'TIME.1', type: 'TIME', outputs: ['t'] },
      { name: 'GAIN.1', type: 'GAIN', inputs: ['t'], outputs: ['k'], params: { k: 1e5 } },
      { name: 'FLOOR.1', type: 'FLOOR', inputs: ['k'], outputs: ['steps'] },
    ], [
      { name: 'R.1', type: 'R', nodes: ['a', '0'], params: { R: 1 } },
      { name: 'V.1', type: 'V', nodes: ['a', '0'], params: { waveform: 'signal', signal: 'steps' } },
    ]);
    // The source follows the control one step late, as in pesim: time − dt.
    expect(writeSpice(n)).to.include('floor(100000 * ((time - 0.00001)))');
    expect(() => writeIpesText(n)).to.throw(/GeckoCIRCUITS has no FLOOR block/);
  });
});

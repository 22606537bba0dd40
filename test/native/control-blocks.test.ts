// The new control blocks through the addon: settings.seed reaches the RANDOM blocks (same seed,
// same walk; another seed, another walk; a non-integer seed is refused), and a PWL source given as
// JSON lists interpolates (0 → 2 over 1 ms: 1 at 0.5 ms).
import { expect } from 'chai';
import { simulateSync } from '../../src/index.js';
import type { Netlist } from '../../src/formats/netlist.js';

function circuit(seed?: number): Netlist {
  return {
    settings: { tEnd: 1e-3, dt: 1e-5, ...(seed === undefined ? {} : { seed }) },
    elements: [{ name: 'R.1', type: 'R', nodes: ['a', '0'], params: { R: 1 } }, { name: 'V.1', type: 'V', nodes: ['a', '0'], params: { waveform: 'dc', value: 1 } }],
    blocks: [
      { name: 'RND.1', type: 'RANDOM', outputs: ['r'] },
      { name: 'PWL.1', type: 'PWL', outputs: ['p'], params: { times: [0, 1e-3], values: [0, 2] } },
      { name: 'SCOPE.1', type: 'SCOPE', inputs: ['r', 'p'] },
    ],
  };
}

describe('control blocks through the addon: RANDOM seed, PWL', () => {
  it('repeats a random walk for the same seed and changes it with the seed', () => {
    const walk = (seed?: number): number[] => Array.from(simulateSync(circuit(seed)).signals['SCOPE.1.ch1']);
    expect(walk()).to.deep.equal(walk());
    expect(walk(5)).to.deep.equal(walk(5));
    expect(walk(5)).to.not.deep.equal(walk(6));
    expect(() => simulateSync(circuit(1.5))).to.throw(/seed/);
  });

  it('interpolates a PWL table', () => {
    const r = simulateSync(circuit());
    const i = r.time.findIndex((t) => t >= 0.5e-3 - 1e-12);
    expect(r.signals['SCOPE.1.ch2'][i]).to.be.closeTo(1, 1e-9);
  });
});

describe('control blocks through the addon: inverse trigonometry (GeckoCIRCUITS ASIN, ACOS, TAN)', () => {
  it('asin(0.5) = π/6, acos(0.5) = π/3, tan(0.5); asin(2) is NaN as in Java', () => {
    const n: Netlist = {
      settings: { tEnd: 1e-4, dt: 1e-5 },
      elements: [{ name: 'R.1', type: 'R', nodes: ['a', '0'], params: { R: 1 } }, { name: 'V.1', type: 'V', nodes: ['a', '0'], params: { waveform: 'dc', value: 1 } }],
      blocks: [
        { name: 'CONST.1', type: 'CONST', outputs: ['h'], params: { value: 0.5 } },
        { name: 'CONST.2', type: 'CONST', outputs: ['two'], params: { value: 2 } },
        { name: 'ASIN.1', type: 'ASIN', inputs: ['h'], outputs: ['as'] },
        { name: 'ACOS.1', type: 'ACOS', inputs: ['h'], outputs: ['ac'] },
        { name: 'TAN.1', type: 'TAN', inputs: ['h'], outputs: ['ta'] },
        { name: 'ASIN.2', type: 'ASIN', inputs: ['two'], outputs: ['nan'] },
        { name: 'SCOPE.1', type: 'SCOPE', inputs: ['as', 'ac', 'ta', 'nan'] },
      ],
    };
    const r = simulateSync(n);
    const last = (k: number): number => r.signals[`SCOPE.1.ch${k}`][r.time.length - 1];
    expect(last(1)).to.be.closeTo(Math.PI / 6, 1e-15);
    expect(last(2)).to.be.closeTo(Math.PI / 3, 1e-15);
    expect(last(3)).to.be.closeTo(Math.tan(0.5), 1e-15);
    expect(Number.isNaN(last(4))).to.equal(true);
  });
});

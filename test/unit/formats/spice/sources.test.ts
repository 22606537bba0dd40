// Source waveforms read into tables: PWL with r= and td=, PWL from a file, EXP, damped SIN and
// PULSE with a pulse count, each checked point by point against its SPICE definition.
import { expect } from 'chai';
import { readSpice } from '../../../../src/formats/spice/index.js';
import { deck, element, expectLineError } from './helpers.js';

function table(line: string, tran = '.tran 1u 1m'): { times: number[]; values: number[] } {
  const p = element(deck(`${line}\nR1 a 0 1`, tran).netlist, 'V1').params as { waveform: string; times: number[]; values: number[] };
  expect(p.waveform).to.equal('pwl');
  return p;
}

/** Linear interpolation in a table, holding the ends. */
function at(p: { times: number[]; values: number[] }, t: number): number {
  if (t <= p.times[0]) return p.values[0];
  const i = p.times.findIndex((x) => x >= t);
  if (i < 0) return p.values[p.values.length - 1];
  const [t0, t1, v0, v1] = [p.times[i - 1], p.times[i], p.values[i - 1], p.values[i]];
  return v0 + ((v1 - v0) * (t - t0)) / (t1 - t0);
}

describe('SPICE source tables', () => {
  it('repeats a PWL carrier from r= until TSTOP and delays it by td=', () => {
    const carrier = table('V1 a 0 PWL(0 -1 100u 1 200u -1) r=0');
    expect(carrier.times[carrier.times.length - 1]).to.be.at.least(1e-3);
    for (const [t, v] of [[0, -1], [50e-6, 0], [100e-6, 1], [250e-6, 0], [900e-6, 1], [975e-6, -0.5]]) expect(at(carrier, t)).to.be.closeTo(v, 1e-9);
    const delayed = table('V1 a 0 PWL(0 0 1u 1 2u 0 3u 1) r=1u td=10u');
    for (const [t, v] of [[5e-6, 0], [10.5e-6, 0.5], [13e-6, 1], [14e-6, 0], [15.5e-6, 0.5], [101e-6, 1]]) expect(at(delayed, t)).to.be.closeTo(v, 1e-6);
    const saw = table('V1 a 0 PWL(0 0 10u 1) r=0', '.tran 1u 30u');
    expect(at(saw, 15e-6)).to.be.closeTo(0.5, 1e-6);
    expectLineError(() => deck('V1 a 0 PWL(0 0 10u 1) r=5u\nR1 a 0 1'), 2, /r=0.000005 must be one of the PWL times/);
  });

  it('reads PWL pairs from a file beside the deck', () => {
    const files = (path: string) => (path === 'data/wave.txt' ? Buffer.from('* t v\n0 0\n1m, 2\n\n2m 0 ; end\n') : undefined);
    const { netlist } = readSpice('t\nV1 a 0 PWL file=data/wave.txt\nR1 a 0 1\n.tran 1u 2m\n', 'deck.cir', { files });
    expect(netlist.elements[0].params).to.deep.equal({ waveform: 'pwl', times: [0, 1e-3, 2e-3], values: [0, 2, 0] });
    expectLineError(() => readSpice('t\nV1 a 0 PWL file=none.txt\n.tran 1u 2m\n', 'deck.cir', { files }), 2, /PWL file 'none.txt' not found/);
    expectLineError(() => readSpice('t\nV1 a 0 PWL file=none.txt\n.tran 1u 2m\n'), 2, /without its folder/);
  });

  it('samples EXP, damped SIN and counted PULSE at the steps', () => {
    const exp = table('V1 a 0 EXP(0 5 10u 20u 100u 50u)');
    for (const t of [5e-6, 30e-6, 150e-6]) {
      const rise = 5 * (1 - Math.exp(-(t - 10e-6) / 20e-6));
      const expected = t < 10e-6 ? 0 : t < 100e-6 ? rise : rise - 5 * (1 - Math.exp(-(t - 100e-6) / 50e-6));
      expect(at(exp, t)).to.be.closeTo(expected, 1e-9);
    }
    const sine = table('V1 a 0 SIN(1 2 1k 0 500 90)');
    for (const t of [0, 123e-6, 700e-6]) expect(at(sine, t)).to.be.closeTo(1 + 2 * Math.exp(-500 * t) * Math.sin(2 * Math.PI * 1000 * t + Math.PI / 2), 1e-9);
    const pulses = table('V1 a 0 PULSE(0 1 10u 1u 1u 3u 10u 2)');
    for (const [t, v] of [[12e-6, 1], [22e-6, 1], [32e-6, 0], [500e-6, 0]]) expect(at(pulses, t)).to.equal(v);
  });
});

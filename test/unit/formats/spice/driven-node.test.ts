// A V source between the reference and a node that only VSW controls read (the PULSE gate drive of
// bench/peers/buck.cir) drives that node: neither the node potential nor the source current is an
// unknown (engine: Circuit::findDrivenNodes, VoltageSource "drives"). The waveforms must equal those
// of the same circuit in which the node is also loaded (1 GΩ to the reference), which keeps both
// unknowns in the system; the driven node reads exactly u(t) and the source current exactly 0.
import { expect } from 'chai';
import type { SimulationResult } from '../../../../src/engine/index.js';
import { BUCK_DECK, channelOf, runDeck } from './helpers.js';

const BUCK = BUCK_DECK;
const run = runDeck;
const channel = channelOf;

function expectSameWaveforms(a: SimulationResult, b: SimulationResult, labels: string[]): void {
  expect(a.time.length).to.equal(b.time.length);
  for (const label of labels) {
    const x = channel(a, label);
    const y = channel(b, label);
    let worst = 0;
    let scale = 0;
    for (let i = 0; i < x.length; i++) {
      worst = Math.max(worst, Math.abs(x[i] - y[i]));
      scale = Math.max(scale, Math.abs(y[i]));
    }
    expect(worst, label).to.be.below(1e-9 * scale);
  }
}

// SPICE PULSE(0 1 0 1n 1n 25u 50u) at the recorded times (dt = 100 ns never falls on an edge ramp).
const gate = (t: number): number => ((t % 50e-6) <= 25e-6 + 1e-9 + 1e-15 ? 1 : 0);

describe('SPICE gate source driving a node read only by VSW controls', () => {
  const driven = run(BUCK);
  const loaded = run(BUCK.replace('R1 out 0 5', 'R1 out 0 5\nRG g 0 1e9'));

  it('leaves the node and the source current out of the unknowns', () => {
    expect(driven.stats.unknowns).to.equal(5);
    expect(loaded.stats.unknowns).to.equal(7);
    expect(driven.stats.switchingEvents).to.equal(loaded.stats.switchingEvents);
  });

  it('gives the waveforms of the circuit that keeps them as unknowns', () => {
    expectSameWaveforms(driven, loaded, ['V(in)', 'V(sw)', 'V(out)', 'I(V1)', 'I(L1)']);
  });

  it('records the source value as the node voltage and no source current', () => {
    const vg = channel(driven, 'V(g)');
    const ig = channel(driven, 'I(VG)');
    let highs = 0;
    for (let i = 1; i < vg.length; i++) {
      // Within rounding of t modulo the period at the start of each period (the rise ramp's foot).
      expect(Math.abs(vg[i] - gate(driven.time[i])), `V(g) at ${driven.time[i]}`).to.be.below(1e-9);
      expect(ig[i]).to.equal(0);
      if (vg[i] > 0.5) highs++;
    }
    expect(highs / vg.length).to.be.within(0.45, 0.55);
  });

  it('handles the source written from the node to the reference with the opposite sign', () => {
    const reversed = run(BUCK.replace('VG g 0 PULSE(0 1 0 1n 1n 25u 50u)', 'VG 0 g PULSE(0 -1 0 1n 1n 25u 50u)'));
    expect(reversed.stats.unknowns).to.equal(5);
    expectSameWaveforms(reversed, driven, ['V(g)', 'V(sw)', 'V(out)', 'I(L1)']);
  });

  it('keeps a source whose node another element loads in the system', () => {
    const shared = run(BUCK.replace('S1 in sw g 0 SWMOD', 'S1 in sw g 0 SWMOD\nCG g 0 1n'));
    expect(shared.stats.unknowns).to.equal(7);
    expectSameWaveforms(shared, driven, ['V(sw)', 'V(out)', 'I(L1)']);
  });
});

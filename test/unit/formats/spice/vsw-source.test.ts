// A VSW whose control terminals are an independent V source's terminals (a PULSE gate drive) takes
// its state from the source value before the solve (engine: VoltageControlledSwitch::decide). The
// waveforms must equal those of the same circuit in which the control voltage reaches the switch
// through a 0 V source, where the switch is decided after each solve as before.
import { expect } from 'chai';
import { BUCK_DECK, channelOf, runDeck } from './helpers.js';

const BUCK = BUCK_DECK;
const run = runDeck;
const channel = channelOf;

describe('SPICE VSW driven directly by a PULSE source', () => {
  it('switches at the same steps as the switch decided after the solve, with fewer solves', () => {
    const direct = run(BUCK);
    // The same control voltage through a 0 V source: the VSW's control nodes are no source's terminals.
    const indirect = run(BUCK.replace('S1 in sw g 0 SWMOD', 'VX g gx DC 0\nS1 in sw gx 0 SWMOD'));
    expect(direct.time.length).to.equal(indirect.time.length);
    for (const label of ['V(out)', 'V(sw)', 'I(L1)']) {
      const a = channel(direct, label);
      const b = channel(indirect, label);
      let worst = 0;
      let scale = 0;
      for (let i = 0; i < a.length; i++) {
        worst = Math.max(worst, Math.abs(a[i] - b[i]));
        scale = Math.max(scale, Math.abs(b[i]));
      }
      expect(worst, label).to.be.below(1e-9 * scale);
    }
    // 2 ms at 20 kHz: 40 rising and 40 falling edges no longer need a second solve.
    expect(indirect.stats.extraSolves - direct.stats.extraSolves).to.be.at.least(79);
    expect(direct.stats.switchingEvents).to.equal(indirect.stats.switchingEvents);
  });
});

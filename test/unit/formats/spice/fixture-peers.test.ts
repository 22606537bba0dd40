// The converter decks of test/fixtures/spice in pesim and in ngspice (the LTspice netlist against
// its hand-written ngspice form): averages and RMS within 0.5 %, ripple and THD within 5 % of
// ngspice's. Skipped, with a message, when ngspice is not installed.
import { expect } from 'chai';
import { FIXTURE_DECKS } from '../../../../bench/peers/fixture-decks.js';
import { deckMetrics, hasNgspice, runNgspiceDeck, runPesim } from '../../../../bench/peers/compare.js';
import { NGSPICE } from '../../../../src/formats/spice/ngspice.js';

const TOLERANCE = { avg: 0.005, rms: 0.005, ripple: 0.05, thd: 0.05 };

describe('SPICE fixture decks: pesim against ngspice', function () {
  this.timeout(300_000);
  before(function () {
    if (!hasNgspice()) {
      console.log(`      (skipped: ngspice not found at ${NGSPICE}; install it with apt-get install ngspice)`);
      this.skip();
    }
  });

  for (const deck of FIXTURE_DECKS) {
    it(`${deck.file}: ${deck.metrics.map((m) => `${m.kind} ${m.signal}`).join(', ')}`, async () => {
      const ours = deckMetrics(deck, runPesim(deck, 1));
      const theirs = deckMetrics(deck, await runNgspiceDeck(deck));
      deck.metrics.forEach((m, i) => {
        const label = `${m.kind} ${m.signal}: pesim ${ours[i]}, ngspice ${theirs[i]}`;
        expect(Number.isFinite(theirs[i]) && theirs[i] !== 0, label).to.equal(true);
        expect(Math.abs(ours[i] - theirs[i]) / Math.abs(theirs[i]), label).to.be.below(TOLERANCE[m.kind]);
      });
    });
  }
});

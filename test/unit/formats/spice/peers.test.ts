// pesim against ngspice on the benchmark decks (bench/peers): the buck at 100 ns and the diode
// bridge, each deck read through pesim's SPICE reader and run unchanged in `ngspice -b`. Output
// voltage average within 0.5 % and ripple (peak to peak) within 5 % of ngspice's. Skipped, with a
// message, when ngspice is not installed (`.ci/run` installs it).
import { expect } from 'chai';
import { DECKS, type PeerDeck } from '../../../../bench/peers/decks.js';
import { deckMetrics, hasNgspice, runNgspiceDeck, runPesim } from '../../../../bench/peers/compare.js';
import { NGSPICE } from '../../../../src/formats/spice/ngspice.js';

const AVERAGE_TOLERANCE = 0.005;
const RIPPLE_TOLERANCE = 0.05;

function deck(file: string): PeerDeck {
  const found = DECKS.find((d) => d.file === file);
  expect(found, file).to.not.equal(undefined);
  return found!;
}

async function compare(file: string, signal: string): Promise<{ avg: [number, number]; ripple: [number, number] }> {
  const d = deck(file);
  const ours = deckMetrics(d, runPesim(d, 1));
  const theirs = deckMetrics(d, await runNgspiceDeck(d));
  const at = (kind: string) => d.metrics.findIndex((m) => m.signal === signal && m.kind === kind);
  return { avg: [ours[at('avg')], theirs[at('avg')]], ripple: [ours[at('ripple')], theirs[at('ripple')]] };
}

describe('pesim against ngspice on the benchmark decks', function () {
  this.timeout(120_000);
  before(function () {
    if (!hasNgspice()) {
      console.log(`      (skipped: ngspice not found at ${NGSPICE}; install it with apt-get install ngspice)`);
      this.skip();
    }
  });

  it('buck 48 V → 24 V at 100 ns: Vout average within 0.5 %, ripple within 5 %', async () => {
    const { avg, ripple } = await compare('buck.cir', 'V(out)');
    // Both near D·Vin less the diode's share (0.5·48 − 0.5·0.55 ≈ 23.7 V).
    expect(avg[1]).to.be.within(23.3, 24);
    expect(Math.abs(avg[0] - avg[1]) / avg[1]).to.be.below(AVERAGE_TOLERANCE);
    // Ripple of an LC filter: ΔiL/(8·f·C) with ΔiL = (Vin − Vout)·D/(f·L) ≈ 6 A → ≈ 0.38 V.
    expect(ripple[1]).to.be.within(0.3, 0.45);
    expect(Math.abs(ripple[0] - ripple[1]) / ripple[1]).to.be.below(RIPPLE_TOLERANCE);
  });

  it('diode bridge 230 V / 1000 µF / 100 Ω: output average within 0.5 %, ripple within 5 %', async () => {
    const { avg, ripple } = await compare('rectifier.cir', 'V(p,n)');
    // Near the peak (325 V) less two diode drops and half the ripple.
    expect(avg[1]).to.be.within(300, 323);
    expect(Math.abs(avg[0] - avg[1]) / avg[1]).to.be.below(AVERAGE_TOLERANCE);
    expect(ripple[1]).to.be.within(15, 40);
    expect(Math.abs(ripple[0] - ripple[1]) / ripple[1]).to.be.below(RIPPLE_TOLERANCE);
  });
});

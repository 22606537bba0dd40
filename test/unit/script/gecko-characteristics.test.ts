// GeckoSCRIPT's signal statistics against GeckoCIRCUITS' own: the corpus file 003 is simulated and
// every scope channel's characteristics over GeckoCIRCUITS' window are compared with what its
// CharacteristicsCalculator gave (test/fixtures/gecko-probes/characteristics-003.json) — THD and
// klirr of the window as one period, ripple as AC RMS over the signed average, and its "shape".
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { readIpes } from '../../../src/formats/ipes/index.js';
import { simulateSync } from '../../../src/index.js';
import { geckoCharacteristics } from '../../../src/script/gecko-characteristics.js';

interface Reference {
  file: string;
  windowStart: number;
  tEnd: number;
  channels: Record<string, { scope: string; channel: number; avg: number; rms: number; thd: number; klirr: number; ripple: number; shape: number }>;
}

describe('script: GeckoSCRIPT statistics as GeckoCIRCUITS computes them', () => {
  it('matches GeckoCIRCUITS on every channel of 003 (THD, klirr, ripple, shape, average, RMS)', () => {
    const ref = JSON.parse(readFileSync(new URL('../../fixtures/gecko-probes/characteristics-003.json', import.meta.url), 'utf8')) as Reference;
    const { netlist } = readIpes(readFileSync(new URL(`../../fixtures/gecko-corpus/${ref.file}`, import.meta.url)), ref.file);
    const result = simulateSync({ ...netlist, settings: { ...netlist.settings, maxPoints: 10_000_000 } });
    for (const [key, gecko] of Object.entries(ref.channels)) {
      const c = geckoCharacteristics(result.time, result.signals[`${gecko.scope}.ch${gecko.channel}`], ref.windowStart, ref.tEnd);
      for (const field of ['avg', 'rms', 'thd', 'klirr', 'ripple', 'shape'] as const) {
        expect(c[field], `${key} ${field}`).to.be.closeTo(gecko[field], 2e-3 * Math.abs(gecko[field]) + 1e-6 * gecko.rms);
      }
    }
  });
});

// Block semantics at their edges against GeckoCIRCUITS itself: the small circuits of
// test/fixtures/gecko-probes (written by pesim's .ipes writer) were run in GeckoCIRCUITS, and its
// scope samples are stored beside them (ORIGIN.md there). Each sample pesim computes must be
// GeckoCIRCUITS' to its float32 scope storage; a value GeckoCIRCUITS stores as ±∞ or NaN (null in
// the JSON) must be one in float32 for pesim too.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { readIpes } from '../../../../src/formats/ipes/index.js';
import { simulateSync } from '../../../../src/index.js';

const DIR = new URL('../../../fixtures/gecko-probes/', import.meta.url);
const PROBES = ['edges', 'var', 'dyn', 'sig', 'sig2', 'pwr', 'converters', 'sources', 'thermal', 'controlled', 'transforms', 'pmsm', 'preset', 'pwr-gear'];

/** Where a channel is known to differ, and by how much (a fraction of its full scale). */
interface Known {
  firstSamples?: number;     // the first samples are held to `firstTolerance` only
  firstTolerance?: number;
  tolerance?: number;        // every sample
}
const KNOWN: Record<string, Known> = {
  // The t = 0 value of the coupled inductors' node differs by 1.2e-6 (5.7e-5 V of 48 V: the
  // solution at t = 0 through the coupling); every later sample agrees to float32.
  'converters SCOPE.1.vq': { firstSamples: 1, firstTolerance: 2e-6 },
};
const FLOAT32_EPS = 2 ** -23;

interface Probe {
  time: number[];
  series: Record<string, Array<number | null>>;
}

/** Index of the time in `times` equal to t (to 1e-9 of a step's scale), −1 when there is none. */
function nearestIndex(times: Float64Array | number[], t: number): number {
  let lo = 0;
  let hi = times.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  for (const i of [lo - 1, lo]) {
    if (i >= 0 && Math.abs(times[i] - t) <= 1e-6 * Math.abs(times[1] - times[0])) return i;
  }
  return -1;
}

/** The tolerance of sample k of a channel, as a fraction of its full scale. */
function toleranceAt(known: Known, k: number): number {
  if (k < (known.firstSamples ?? 0)) return known.firstTolerance ?? 0;
  return known.tolerance ?? 4 * FLOAT32_EPS;
}

describe('GeckoCIRCUITS probes: every scope sample as GeckoCIRCUITS computes it', () => {
  for (const name of PROBES) {
    it(`${name}.ipes`, () => {
      const probe = JSON.parse(readFileSync(new URL(`${name}.gecko.json`, DIR), 'utf8')) as Probe;
      const { netlist } = readIpes(readFileSync(new URL(`${name}.ipes`, DIR)), `${name}.ipes`);
      const result = simulateSync(netlist);
      // GeckoCIRCUITS' stored series may skip a step; samples are matched by time.
      const at = probe.time.map((t) => nearestIndex(result.time, t));
      expect(at.filter((i) => i < 0).length, 'GeckoCIRCUITS samples without a pesim step').to.be.at.most(probe.time.length / 100);
      const channelIndex = new Map<string, number>();
      for (const [key, gecko] of Object.entries(probe.series)) {
        // Series are named SCOPE.n.<label> in input order; pesim numbers them SCOPE.n.ch1, ch2, …
        const scope = key.split('.').slice(0, 2).join('.');
        const index = (channelIndex.get(scope) ?? 0) + 1;
        channelIndex.set(scope, index);
        const pesim = result.signals[`${scope}.ch${index}`];
        const scale = Math.max(1e-30, ...gecko.map((v) => (v === null ? 0 : Math.abs(v))));
        const known = KNOWN[`${name} ${key}`] ?? {};
        probe.time.forEach((t, k) => {
          const i = at[k];
          if (i < 0) return;
          const g = gecko[k];
          if (g === null) expect(Number.isFinite(Math.fround(pesim[i])), `${key} at t = ${t}: ±∞/NaN`).to.equal(false);
          else expect(pesim[i], `${key} at t = ${t}`).to.be.closeTo(g, toleranceAt(known, k) * scale);
        });
      }
    });
  }
});

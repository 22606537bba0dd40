// The converter decks of test/fixtures/spice (subcircuits, a repeating PWL carrier, a behavioural
// comparator, a model library, an LTspice netlist) as peer decks: same key values as the others.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Metric, PeerDeck } from './decks.js';

export const FIXTURES_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/spice');

const vi = (v: string, i: string): Metric[] => [
  { signal: v, kind: 'avg' }, { signal: v, kind: 'ripple' }, { signal: i, kind: 'avg' }, { signal: i, kind: 'ripple' },
];

export const FIXTURE_DECKS: readonly PeerDeck[] = [
  { name: 'buck, subcircuit stage 20 ms @ 100 ns', file: 'buck-subckt.cir', dir: FIXTURES_DIR, from: 16e-3, to: 20e-3, metrics: vi('V(out)', 'I(L1)') },
  {
    name: 'inverter, PWL r=0 carrier 100 ms @ 1 µs', file: 'inverter-pwl.cir', dir: FIXTURES_DIR, from: 40e-3, to: 100e-3, fundamental: 50,
    metrics: [{ signal: 'I(LL)', kind: 'rms' }, { signal: 'I(LL)', kind: 'thd' }],
  },
  { name: 'boost, B-source PWM 20 ms @ 100 ns', file: 'boost-bsource.cir', dir: FIXTURES_DIR, from: 16e-3, to: 20e-3, metrics: vi('V(out)', 'I(L1)') },
  {
    name: 'buck-boost, .lib/.include 20 ms @ 100 ns', file: 'buckboost-lib.cir', dir: FIXTURES_DIR, from: 16e-3, to: 20e-3,
    companions: ['lib/power.lib', 'lib/driver.inc'], metrics: vi('V(out)', 'I(L1)'),
  },
  {
    name: 'LTspice buck 5 ms @ 50 ns', file: 'ltspice-buck.net', ngspiceFile: 'ltspice-buck.ngspice.cir', dir: FIXTURES_DIR, from: 4e-3, to: 5e-3,
    metrics: vi('V(out)', 'I(L1)'),
  },
];

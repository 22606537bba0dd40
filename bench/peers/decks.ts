// The SPICE decks pesim is compared with ngspice on (bench/peers/*.cir) and the key values of each:
// average and ripple (peak to peak) of the output voltage and the inductor current, RMS and THD of
// the inverter phase current, all over a measurement window that starts after the start-up.
// One deck file serves both simulators: pesim reads it through its SPICE reader (so it is the same
// circuit), ngspice runs it with a `.control` block that writes the needed vectors (ngspice.ts).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIXTURE_DECKS } from './fixture-decks.js';

export const PEERS_DIR = dirname(fileURLToPath(import.meta.url));

export type MetricKind = 'avg' | 'ripple' | 'rms' | 'thd';

export interface Metric {
  /** A pesim signal label: `V(node)`, `V(a,b)` (the difference), `I(element)`. */
  signal: string;
  kind: MetricKind;
}

export interface PeerDeck {
  /** Row label in the tables. */
  name: string;
  file: string;
  /** Measurement window [s]; for THD it spans whole periods of `fundamental`. */
  from: number;
  to: number;
  /** Fundamental frequency [Hz] of THD metrics. */
  fundamental?: number;
  metrics: Metric[];
  /** Folder of the deck (default bench/peers); its includes are read from there. */
  dir?: string;
  /** Files the deck includes, copied beside it for ngspice. */
  companions?: string[];
  /** A deck of the same circuit for ngspice, in `dir`, when ngspice cannot read `file` (LTspice syntax). */
  ngspiceFile?: string;
}

const voltageAndCurrent = (v: string, i: string): Metric[] => [
  { signal: v, kind: 'avg' }, { signal: v, kind: 'ripple' }, { signal: i, kind: 'avg' }, { signal: i, kind: 'ripple' },
];

export const DECKS: readonly PeerDeck[] = [
  { name: 'RC step 5 ms @ 1 µs', file: 'rc.cir', from: 0, to: 5e-3, metrics: [{ signal: 'V(out)', kind: 'avg' }, { signal: 'V(out)', kind: 'ripple' }] },
  { name: 'RLC ringing 5 ms @ 1 µs', file: 'rlc.cir', from: 0, to: 5e-3, metrics: voltageAndCurrent('V(out)', 'I(L1)') },
  { name: 'buck 20 ms @ 100 ns', file: 'buck.cir', from: 16e-3, to: 20e-3, metrics: voltageAndCurrent('V(out)', 'I(L1)') },
  { name: 'buck 20 ms @ 1 µs', file: 'buck-1us.cir', from: 16e-3, to: 20e-3, metrics: voltageAndCurrent('V(out)', 'I(L1)') },
  { name: 'boost 20 ms @ 100 ns', file: 'boost.cir', from: 16e-3, to: 20e-3, metrics: voltageAndCurrent('V(out)', 'I(L1)') },
  { name: 'diode bridge 100 ms @ 1 µs', file: 'rectifier.cir', from: 80e-3, to: 100e-3, metrics: [{ signal: 'V(p,n)', kind: 'avg' }, { signal: 'V(p,n)', kind: 'ripple' }] },
  {
    name: 'three-phase inverter 100 ms @ 1 µs', file: 'inverter.cir', from: 40e-3, to: 100e-3, fundamental: 50,
    metrics: [{ signal: 'I(LA)', kind: 'rms' }, { signal: 'I(LA)', kind: 'thd' }],
  },
  ...FIXTURE_DECKS,
];

export function deckText(deck: PeerDeck, file = deck.file): string {
  return readFileSync(deckPath(deck, file), 'utf8');
}

export function deckPath(deck: PeerDeck, file = deck.file): string {
  return join(deck.dir ?? PEERS_DIR, file);
}

/** The simulator-neutral signals a metric reads: `V(a,b)` → V(a) and V(b). */
export function signalParts(signal: string): { plus: string; minus?: string } {
  const pair = /^V\(([^,()]+),([^,()]+)\)$/i.exec(signal);
  return pair ? { plus: `V(${pair[1]})`, minus: `V(${pair[2]})` } : { plus: signal };
}

/** Every plain signal the deck's metrics need. */
export function neededSignals(deck: PeerDeck): string[] {
  const names = new Set<string>();
  for (const m of deck.metrics) {
    const { plus, minus } = signalParts(m.signal);
    names.add(plus);
    if (minus) names.add(minus);
  }
  return [...names];
}

/** The metric's waveform from plain signals (case-insensitive names). */
export function metricWaveform(signal: string, signals: Map<string, Float64Array>): Float64Array {
  const get = (name: string): Float64Array => {
    const values = signals.get(name.toLowerCase());
    if (!values) throw new Error(`signal ${name} was not recorded (have ${[...signals.keys()].join(', ')})`);
    return values;
  };
  const { plus, minus } = signalParts(signal);
  if (!minus) return get(plus);
  const a = get(plus);
  const b = get(minus);
  return a.map((v, i) => v - b[i]);
}

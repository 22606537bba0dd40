// Fuzz test of the readers: 5 000 mutations of the example files (GeckoCIRCUITS .ipes fixtures, the
// SPICE decks of bench/peers, JSON netlists) read through the format-detecting reader. Every
// outcome is either a netlist of valid shape or a NetlistError with a code — never another
// exception, never a hang (the suite's time-out bounds the run). The PRNG is seeded: set
// PESIM_FUZZ_SEED to reproduce a run; a failure names the seed, the iteration and the mutations.
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { NetlistError } from '../../../src/formats/errors.js';
import { assertNetlistShape } from '../../../src/formats/netlist.js';
import { readCircuitBytes } from '../../../src/formats/read.js';
import { buck, threePhaseInverter } from '../../fixtures/circuits.js';
import { mulberry32 } from '../../fixtures/prng.js';

const ITERATIONS = 5000;
const SEED = Number(process.env.PESIM_FUZZ_SEED ?? 20240613) >>> 0;


interface Sample {
  name: string;
  text: string;
  gzip: boolean;
}

function samples(): Sample[] {
  const gecko = fileURLToPath(new URL('../../fixtures/gecko/', import.meta.url));
  const peers = fileURLToPath(new URL('../../../bench/peers/', import.meta.url));
  return [
    ...readdirSync(gecko).filter((f) => f.endsWith('.ipes')).map((f) => ({ name: f, text: gunzipSync(readFileSync(join(gecko, f))).toString('utf8'), gzip: true })),
    ...readdirSync(peers).filter((f) => f.endsWith('.cir')).map((f) => ({ name: f, text: readFileSync(join(peers, f), 'utf8'), gzip: false })),
    { name: 'buck.json', text: JSON.stringify(buck(), null, 1), gzip: false },
    { name: 'inverter.json', text: JSON.stringify(threePhaseInverter(), null, 1), gzip: false },
  ];
}

const NASTY = ['', '-1', '0', 'NaN', '1e309', '-0', 'abc', '[]', '{', '}', '"', '/', '(', ')', 'null', '$x', '\u0000', '\u00b5', '1e-400', '99999999999999999999'];

type Mutation = (lines: string[], rnd: () => number) => string;

const pick = <T>(items: readonly T[], rnd: () => number): T => items[Math.floor(rnd() * items.length)];

/** Text mutations: each changes the lines in place and returns a description. */
const MUTATIONS: Mutation[] = [
  (l, r) => { const i = Math.floor(r() * l.length); l.splice(i, 1); return `delete line ${i + 1}`; },
  (l, r) => { const i = Math.floor(r() * l.length); l.splice(i, 0, l[i]); return `duplicate line ${i + 1}`; },
  (l, r) => { const i = Math.floor(r() * l.length); const j = Math.floor(r() * l.length); [l[i], l[j]] = [l[j], l[i]]; return `swap lines ${i + 1} and ${j + 1}`; },
  (l, r) => {
    const i = Math.floor(r() * l.length);
    const numbers = [...l[i].matchAll(/-?\d+(\.\d+)?([eE][-+]?\d+)?/g)];
    if (numbers.length === 0) return 'no number';
    const m = pick(numbers, r);
    const by = pick(NASTY, r);
    l[i] = l[i].slice(0, m.index) + by + l[i].slice(m.index! + m[0].length);
    return `line ${i + 1}: number ${m[0]} → ${JSON.stringify(by)}`;
  },
  (l, r) => {
    const i = Math.floor(r() * l.length);
    const words = l[i].split(' ');
    const w = Math.floor(r() * words.length);
    words[w] = pick(NASTY, r);
    l[i] = words.join(' ');
    return `line ${i + 1}: word ${w + 1} → replaced`;
  },
  (l, r) => { const i = Math.floor(r() * l.length); const at = Math.floor(r() * (l[i].length + 1)); l[i] = l[i].slice(0, at) + String.fromCharCode(Math.floor(r() * 256)) + l[i].slice(at); return `line ${i + 1}: byte inserted`; },
  (l, r) => { const keep = Math.floor(r() * l.length); l.length = keep; return `truncate after line ${keep}`; },
  (l, r) => { const i = Math.floor(r() * l.length); l[i] = l[i].slice(0, Math.floor(r() * l[i].length)); return `line ${i + 1}: cut short`; },
];

function mutate(sample: Sample, rnd: () => number): { bytes: Uint8Array; steps: string[] } {
  const lines = sample.text.split('\n');
  const steps: string[] = [];
  const count = 1 + Math.floor(rnd() * 3);
  for (let k = 0; k < count && lines.length > 0; k++) steps.push(pick(MUTATIONS, rnd)(lines, rnd));
  let bytes: Uint8Array = new TextEncoder().encode(lines.join('\n'));
  if (sample.gzip && rnd() < 0.7) {
    bytes = new Uint8Array(gzipSync(bytes, { level: 1 }));
    if (rnd() < 0.2) {
      // Corrupt the compressed stream itself: flip bytes or cut it.
      const copy = bytes.slice();
      const flips = 1 + Math.floor(rnd() * 4);
      for (let f = 0; f < flips; f++) copy[Math.floor(rnd() * copy.length)] ^= 1 + Math.floor(rnd() * 255);
      bytes = rnd() < 0.5 ? copy : copy.subarray(0, Math.floor(rnd() * copy.length));
      steps.push('gzip bytes corrupted');
    }
  }
  return { bytes, steps };
}

describe('reader fuzz test', function () {
  this.timeout(120_000);

  it(`reads ${ITERATIONS} mutated example files into a netlist or a NetlistError with a code (seed ${SEED})`, () => {
    const rnd = mulberry32(SEED);
    const all = samples();
    expect(all.length).to.be.at.least(15);
    const outcomes = { netlist: 0, error: 0 };
    const codes = new Set<string>();
    for (let i = 0; i < ITERATIONS; i++) {
      const sample = pick(all, rnd);
      const { bytes, steps } = mutate(sample, rnd);
      try {
        const read = readCircuitBytes(bytes, sample.name);
        assertNetlistShape(read.netlist);
        outcomes.netlist++;
      } catch (error) {
        if (!(error instanceof NetlistError) || !error.code) {
          const what = error instanceof Error ? `${error.constructor.name}: ${error.message}\n${error.stack}` : String(error);
          throw new Error(`seed ${SEED}, iteration ${i}, ${sample.name} (${steps.join('; ')}): not a NetlistError: ${what}`);
        }
        expect(error.message, `seed ${SEED}, iteration ${i}`).to.not.equal('');
        codes.add(error.code);
        outcomes.error++;
      }
    }
    // Both outcomes occur: the mutations are neither all harmless nor all fatal.
    expect(outcomes.netlist).to.be.above(100);
    expect(outcomes.error).to.be.above(100);
    expect([...codes]).to.include.members(['IPES_SYNTAX', 'PARSE_ERROR']);
  });
});

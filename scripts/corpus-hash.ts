// Fingerprints of the simulated output of every circuit file the tests keep: the GeckoCIRCUITS corpus
// (test/fixtures/gecko-corpus), the GeckoCIRCUITS fixtures (test/fixtures/gecko), the SPICE decks of
// test/fixtures/spice and bench/peers. Each file that simulates prints one SHA-256 per scope channel
// (and one of its time axis and measurements); a file the readers or the engine refuse prints its
// error code. Two runs print the same lines exactly when every output is bit-identical, so the
// script checks that a refactoring changes no result:
//   node --import tsx scripts/corpus-hash.ts > before.txt   (on the old code)
//   node --import tsx scripts/corpus-hash.ts > after.txt    (on the new code) ; diff before.txt after.txt
// Runs longer than --steps (default 250 000) stop there, as in the corpus test; --full runs every
// file to its end (minutes). Extra arguments name further files or folders to include.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { simulateSync } from '../src/engine/index.js';
import { deckFiles } from '../src/formats/deck-files.js';
import { readCircuitBytes } from '../src/formats/read.js';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const CIRCUIT_FILE = /\.(ipes|cir|net|json)$/i;
const DEFAULT_SOURCES = ['test/fixtures/gecko-corpus', 'test/fixtures/gecko', 'test/fixtures/spice', 'bench/peers'];

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

function circuitFiles(sources: string[]): string[] {
  return sources.flatMap((source) => {
    const path = resolve(root, source);
    if (!statSync(path).isDirectory()) return [path];
    return readdirSync(path).filter((f) => CIRCUIT_FILE.test(f)).sort().map((f) => join(path, f));
  });
}

const sha = (bytes: ArrayBufferView | string): string =>
  createHash('sha256').update(typeof bytes === 'string' ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)).digest('hex').slice(0, 32);

function fingerprint(file: string, stepCap: number): string[] {
  const name = relative(root, file);
  try {
    const { netlist } = readCircuitBytes(readFileSync(file), basename(file), { files: deckFiles(file) });
    const { tEnd, dt } = netlist.settings;
    const settings = Math.round(tEnd / dt) > stepCap ? { ...netlist.settings, tEnd: stepCap * dt } : netlist.settings;
    const result = simulateSync({ ...netlist, settings });
    const measurements = Object.entries(result.measurements).sort(([a], [b]) => (a < b ? -1 : 1));
    return [
      `${name} time ${result.time.length} ${sha(result.time)}`,
      ...result.channels.map((c) => `${name} ${c.key} ${sha(result.signals[c.key])}`),
      `${name} measurements ${measurements.length} ${sha(JSON.stringify(measurements.map(([k, v]) => [k, Object.is(v, -0) ? '-0' : String(v)])))}`,
    ];
  } catch (error) {
    const e = error as { code?: string; name?: string };
    return [`${name} refused ${e.code ?? e.name ?? 'error'}`];
  }
}

const extra = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--steps');
const stepCap = process.argv.includes('--full') ? Infinity : Number(option('--steps') ?? 250_000);
for (const file of circuitFiles([...DEFAULT_SOURCES, ...extra])) {
  for (const line of fingerprint(file, stepCap)) console.log(line);
}

// Runs one peer deck in pesim (read through the SPICE reader: the same circuit) and in ngspice
// (`ngspice -b` on the same text with a `.control` block that writes the needed vectors), and
// evaluates the deck's key values on both waveforms with the same code (metrics.ts).
// Wall times: pesim = reading the deck + the simulation, in this process (best of `repeats`);
// ngspice = the whole `ngspice -b` process, start-up and writing its data file included, and its own
// "Total analysis time" (`rusage time`: the transient analysis alone). Each is the best of its repeats.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { simulateSync } from '../../src/engine/index.js';
import { readSpice } from '../../src/formats/spice/index.js';
import { NGSPICE, parseWrdata } from '../../src/formats/spice/ngspice.js';
import { deckFiles } from '../../src/formats/deck-files.js';
import { deckPath, deckText, metricWaveform, neededSignals, type Metric, type PeerDeck } from './decks.js';
import { metric } from './metrics.js';

export interface Waveforms {
  time: Float64Array;
  /** By lower-case signal label: `v(out)`, `i(l1)`. */
  signals: Map<string, Float64Array>;
  wallMs: number;
  /** ngspice only: its reported transient analysis time. */
  analysisMs?: number;
}

export interface MetricRow {
  metric: Metric;
  pesim: number;
  ngspice?: number;
  /** |pesim − ngspice| / |ngspice|. */
  relDiff?: number;
}

export interface DeckComparison {
  deck: PeerDeck;
  pesimMs: number;
  steps: number;
  ngspiceMs?: number;
  ngspiceAnalysisMs?: number;
  rows: MetricRow[];
  ngspiceError?: string;
}

export const hasNgspice = (): boolean => existsSync(NGSPICE);

/**
 * Reads and simulates the deck in pesim, recording every point of every signal the reader records
 * by default (each node voltage, each inductor and source current), or only of `only` (labels).
 */
export function runPesim(deck: PeerDeck, repeats = 3, only?: string[]): Waveforms & { steps: number } {
  const text = deckText(deck);
  let best = Infinity;
  let result;
  for (let r = 0; r < repeats; r++) {
    const started = performance.now();
    const { netlist } = readSpice(text, deck.file, { files: deckFiles(deckPath(deck)) });
    netlist.settings.maxPoints = Math.ceil(netlist.settings.tEnd / netlist.settings.dt) + 10;
    if (only) {
      const keep = new Set(only.map((s) => s.toLowerCase()));
      const scope = netlist.blocks!.find((b) => b.type === 'SCOPE')!;
      scope.inputs = scope.inputs!.filter((s) => keep.has(s.toLowerCase()));
      delete scope.params;
      netlist.blocks = netlist.blocks!.filter((b) => b === scope || (b.outputs ?? []).some((o) => keep.has(o.toLowerCase())));
    }
    result = simulateSync(netlist);
    best = Math.min(best, performance.now() - started);
  }
  const signals = new Map<string, Float64Array>();
  for (const c of result!.channels) signals.set(c.label.toLowerCase(), result!.signals[c.key]);
  return { time: result!.time, signals, wallMs: best, steps: result!.stats.steps };
}

/** The deck with its own `.control` block and `.end` replaced by one that writes `vectors`. */
export function ngspiceDeck(text: string, vectors: string[], outputFile: string): string {
  const body = text.replace(/^\.control\b[\s\S]*?^\.endc\b.*$/gim, '').replace(/^\.end\s*$/gim, '').trimEnd();
  return [body, '.control', 'set wr_singlescale', 'set wr_vecnames', 'option numdgt=12', 'run', 'rusage time', `wrdata ${outputFile} ${vectors.join(' ')}`, 'quit', '.endc', '.end', ''].join('\n');
}

/** Runs the deck in `ngspice -b` and reads the vectors its metrics need. */
export async function runNgspiceDeck(deck: PeerDeck, timeoutMs = 300_000): Promise<Waveforms> {
  const names = neededSignals(deck);
  const dir = await mkdtemp(join(tmpdir(), 'pesim-peer-'));
  try {
    for (const companion of deck.companions ?? []) {
      await mkdir(dirname(join(dir, companion)), { recursive: true });
      await copyFile(deckPath(deck, companion), join(dir, companion));
    }
    await writeFile(join(dir, 'deck.cir'), ngspiceDeck(deckText(deck, deck.ngspiceFile), names.map((n) => n.toLowerCase()), 'out.dat'));
    const started = performance.now();
    const messages = await new Promise<string>((resolve) => {
      execFile(NGSPICE, ['-b', 'deck.cir'], { cwd: dir, timeout: timeoutMs, maxBuffer: 64 << 20 }, (_error, stdout, stderr) => resolve(`${stdout}\n${stderr}`));
    });
    const wallMs = performance.now() - started;
    const analysis = /Total analysis time \(seconds\) = ([0-9.eE+-]+)/.exec(messages);
    const trouble = /^.*(timestep too small|simulation\(s\) aborted).*$/im.exec(messages);
    if (trouble) throw new Error(`ngspice failed on ${deck.file}: ${trouble[0].trim()}`);
    let table;
    try {
      table = parseWrdata(await readFile(join(dir, 'out.dat'), 'utf8'));
    } catch (error) {
      throw new Error(`ngspice wrote no usable output for ${deck.file}: ${(error as Error).message}\n${messages.slice(-2000)}`);
    }
    const signals = new Map<string, Float64Array>();
    names.forEach((n, i) => signals.set(n.toLowerCase(), table.columns[i]));
    return { time: table.time, signals, wallMs, ...(analysis ? { analysisMs: 1000 * Number(analysis[1]) } : {}) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Evaluates every metric of the deck on one simulator's waveforms. */
export function deckMetrics(deck: PeerDeck, w: Waveforms): number[] {
  return deck.metrics.map((m) => metric(m.kind, w.time, metricWaveform(m.signal, w.signals), deck.from, deck.to, deck.fundamental));
}

/** pesim and (when installed) ngspice on one deck. */
export async function compareDeck(deck: PeerDeck, repeats = 3, ngspiceRepeats = 1): Promise<DeckComparison> {
  const ours = runPesim(deck, repeats);
  const pesimValues = deckMetrics(deck, ours);
  const comparison: DeckComparison = {
    deck, pesimMs: ours.wallMs, steps: ours.steps, rows: deck.metrics.map((m, i) => ({ metric: m, pesim: pesimValues[i] })),
  };
  if (!hasNgspice()) return comparison;
  try {
    const theirs = await runNgspiceDeck(deck);
    comparison.ngspiceMs = theirs.wallMs;
    comparison.ngspiceAnalysisMs = theirs.analysisMs;
    for (let r = 1; r < ngspiceRepeats; r++) {
      const again = await runNgspiceDeck(deck);
      comparison.ngspiceMs = Math.min(comparison.ngspiceMs, again.wallMs);
      if (again.analysisMs !== undefined) comparison.ngspiceAnalysisMs = Math.min(comparison.ngspiceAnalysisMs ?? Infinity, again.analysisMs);
    }
    const values = deckMetrics(deck, theirs);
    comparison.rows.forEach((row, i) => {
      row.ngspice = values[i];
      row.relDiff = Math.abs(row.pesim - values[i]) / Math.abs(values[i]);
    });
  } catch (error) {
    comparison.ngspiceError = (error as Error).message.split('\n')[0];
  }
  return comparison;
}

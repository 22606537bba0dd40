// The ngspice comparison section of `npm run bench`: every peer deck in pesim and ngspice, wall
// times, speed ratios and the relative difference of each key value, then the targets of the
// buck at 100 ns (pesim ≥ 50× faster, Vout average within 0.5 %, ripple within 5 %).
import { DECKS } from './decks.js';
import { compareDeck, hasNgspice, runPesim, type DeckComparison } from './compare.js';
import { neededSignals } from './decks.js';

const TARGET_RATIO = 50;
const TARGET_AVG = 0.005;
const TARGET_RIPPLE = 0.05;

const ms = (x: number | undefined): string => (x === undefined ? '–' : x.toFixed(1));
const ratio = (a: number | undefined, b: number): string => (a === undefined ? '–' : `${(a / b).toFixed(1)}×`);
const pct = (x: number | undefined): string => (x === undefined ? '–' : `${(100 * x).toFixed(3)} %`);
const num = (x: number | undefined): string => (x === undefined ? '–' : x.toPrecision(6));
const verdict = (ok: boolean): string => (ok ? 'met' : 'MISSED');

function targets(buck: DeckComparison): string[] {
  if (buck.ngspiceMs === undefined) return [];
  const process = buck.ngspiceMs / buck.pesimMs;
  const analysis = buck.ngspiceAnalysisMs !== undefined ? buck.ngspiceAnalysisMs / buck.pesimMs : undefined;
  const find = (kind: string) => buck.rows.find((r) => r.metric.signal === 'V(out)' && r.metric.kind === kind)!;
  const lean = runPesim(buck.deck, 5, neededSignals(buck.deck)).wallMs;
  const avg = find('avg').relDiff!;
  const ripple = find('ripple').relDiff!;
  return [
    '', `Targets on the ${buck.deck.name}:`,
    `- speed: ngspice process / pesim ${process.toFixed(1)}× (≥ ${TARGET_RATIO}× ${verdict(process >= TARGET_RATIO)}); ngspice analysis time alone / pesim ${analysis === undefined ? '–' : `${analysis.toFixed(1)}×`}`,
    `- pesim recording only the compared V(out) and I(L1) (as ngspice writes only those): ${lean.toFixed(1)} ms, ngspice process / pesim ${(buck.ngspiceMs / lean).toFixed(1)}×, analysis / pesim ${buck.ngspiceAnalysisMs !== undefined ? `${(buck.ngspiceAnalysisMs / lean).toFixed(1)}×` : '–'}`,
    `- Vout average: ${pct(avg)} (≤ 0.5 % ${verdict(avg <= TARGET_AVG)})`,
    `- Vout ripple: ${pct(ripple)} (≤ 5 % ${verdict(ripple <= TARGET_RIPPLE)})`,
  ];
}

export async function peerSection(): Promise<string[]> {
  const ngspice = hasNgspice();
  const results: DeckComparison[] = [];
  for (const deck of DECKS) {
    const isTarget = deck.file === 'buck.cir';
    results.push(await compareDeck(deck, 5, isTarget ? 3 : 1));
  }
  const lines = [
    '## pesim and ngspice on the same SPICE decks (bench/peers/*.cir)',
    '',
    'pesim: reading the deck + simulating, in process, every step recorded (best of 5). ngspice: `ngspice -b` process incl. start-up and data file (best of 3 for the buck @ 100 ns, else 1), and its own reported analysis time.',
    '',
    '| deck | pesim steps | pesim ms | ngspice ms (process) | ngspice ms (analysis) | ratio (process) | ratio (analysis) |',
    '|---|---|---|---|---|---|---|',
    ...results.map((r) =>
      `| ${r.deck.name} | ${r.steps} | ${ms(r.pesimMs)} | ${ms(r.ngspiceMs)} | ${ms(r.ngspiceAnalysisMs)} | ${ratio(r.ngspiceMs, r.pesimMs)} | ${ratio(r.ngspiceAnalysisMs, r.pesimMs)} |`),
    '',
    '| deck | key value (window) | pesim | ngspice | relative difference |',
    '|---|---|---|---|---|',
  ];
  for (const r of results) {
    const window = `${(r.deck.from * 1e3).toFixed(0)}–${(r.deck.to * 1e3).toFixed(0)} ms`;
    for (const row of r.rows) {
      lines.push(`| ${r.deck.name} | ${row.metric.kind} ${row.metric.signal} (${window}) | ${num(row.pesim)} | ${num(row.ngspice)} | ${pct(row.relDiff)} |`);
    }
    if (r.ngspiceError) lines.push(`| ${r.deck.name} | ngspice failed: ${r.ngspiceError} | | | |`);
  }
  if (!ngspice) lines.push('', 'ngspice not found (apt-get install ngspice): pesim values only.');
  const buck = results.find((r) => r.deck.file === 'buck.cir');
  if (buck) lines.push(...targets(buck));
  lines.push('', 'ripple = peak to peak over the window; THD = √(Σ A_h², h = 2…1000) / A_1 from a DFT over the whole 50 Hz periods of the window.');
  return lines;
}

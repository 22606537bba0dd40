// Java-block benchmark: the GeckoCIRCUITS corpus models whose runs are dominated by their Java
// blocks (025_Swiss_Rect, 035_NPCmodel, 019_outputstagemodel), simulated to GeckoCIRCUITS' own end
// time and step, against GeckoCIRCUITS' simulation time on the same kind of machine
// (test/fixtures/gecko-reference/NNN.json wallSeconds). Target: at least 10× faster than
// GeckoCIRCUITS. pesim's figure is the CPU time of the run (the simulation runs on one thread), so
// that other load on the machine does not count. Medians of three runs; run alone with
// `node --import tsx bench/java-blocks.ts`.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { simulateSync } from '../src/engine/index.js';
import { readIpes } from '../src/formats/ipes/index.js';
import { median } from './stats.js';

const MODELS = ['025_Swiss_Rect.ipes', '035_NPCmodel.ipes', '019_outputstagemodel.ipes'];
const ROUNDS = 3;
const TARGET = 10;

interface Reference {
  tEnd: number;
  wallSeconds: number;
}

function timeModel(file: string): { seconds: number; gecko: number } {
  const fixtures = new URL('../test/fixtures/', import.meta.url);
  const ref = JSON.parse(readFileSync(new URL(`gecko-reference/${file.slice(0, 3)}.json`, fixtures), 'utf8')) as Reference;
  const { netlist } = readIpes(readFileSync(new URL(`gecko-corpus/${file}`, fixtures)), file);
  const settings = { ...netlist.settings, tEnd: ref.tEnd, maxPoints: 2 };
  const times: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const start = process.cpuUsage();
    simulateSync({ ...netlist, settings });
    const used = process.cpuUsage(start);
    times.push((used.user + used.system) / 1e6);
  }
  return { seconds: median(times), gecko: ref.wallSeconds };
}

export function benchSection(): Promise<string[]> {
  const rows = MODELS.map((file) => ({ file, ...timeModel(file) }));
  return Promise.resolve([
    '## Java blocks (GeckoCIRCUITS corpus)',
    '',
    `| model | pesim CPU s | GeckoCIRCUITS s | speed-up | target ≤ s (${TARGET}×) | |`,
    '|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.file} | ${r.seconds.toFixed(3)} | ${r.gecko.toFixed(3)} | ${(r.gecko / r.seconds).toFixed(1)}× | ` +
      `${(r.gecko / TARGET).toFixed(3)} | ${r.gecko / r.seconds >= TARGET ? 'met' : 'MISSED'} |`),
    '',
    `Target: each at least ${TARGET}× faster than GeckoCIRCUITS: ${rows.every((r) => r.gecko / r.seconds >= TARGET) ? 'met' : 'MISSED'}.`,
  ]);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log((await benchSection()).join('\n'));
}

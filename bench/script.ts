// Scripting-language benchmarks: a loop of one million simple statements on the engine's Java
// (target: under 0.1 s), and a 100-run parameter sweep written as a script against the same 100
// runs through the Node API (simulate), to show the interpreter's and the session's overhead per
// run. Medians of alternating rounds; run alone with `node --import tsx bench/script.ts`.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { simulate } from '../src/engine/index.js';
import { ScriptContext } from '../src/script/context.js';
import { buck } from '../test/fixtures/circuits.js';
import { median } from './stats.js';

const LOOP = `double x = 0;
for (int i = 0; i < 1000000; i++) {
  x = x + i * 0.5 - x / 3;
}`;
const RUNS = 100;
const ROUNDS = 5;


async function timeScript(text: string): Promise<number> {
  const context = new ScriptContext({ write: () => undefined });
  const start = performance.now();
  await context.run({ name: 'bench.pss', text, firstLine: 1 });
  return performance.now() - start;
}

export async function benchSection(): Promise<string[]> {
  const loopTimes: number[] = [];
  await timeScript(LOOP);
  for (let r = 0; r < ROUNDS; r++) loopTimes.push(await timeScript(LOOP));

  const dir = mkdtempSync(join(tmpdir(), 'pesim-bench-script-'));
  const netlist = buck({ tEnd: 2e-3, dt: 1e-6 });
  const file = join(dir, 'buck.json');
  writeFileSync(file, JSON.stringify(netlist));
  const sweep = `loadCircuit("${file}");
double sum = 0;
for (int i = 0; i < ${RUNS}; i++) {
  setParameter("R.1", "R", 2 + i * 0.1);
  runSimulation();
  sum += getMeasurement("SCOPE.1", "ch1_avg");
}`;
  const api = async (): Promise<number> => {
    const start = performance.now();
    let sum = 0;
    for (let i = 0; i < RUNS; i++) sum += (await simulate(netlist, { parameters: { 'R.1.R': 2 + i * 0.1 } })).measurements['SCOPE.1.ch1_avg'];
    if (!Number.isFinite(sum)) throw new Error('the sweep gave no measurement');
    return performance.now() - start;
  };
  await api();
  await timeScript(sweep);
  const scriptTimes: number[] = [];
  const apiTimes: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    scriptTimes.push(await timeScript(sweep));
    apiTimes.push(await api());
  }
  rmSync(dir, { recursive: true, force: true });

  const loop = median(loopTimes);
  const [script, direct] = [median(scriptTimes), median(apiTimes)];
  return [
    '## Scripting language',
    '',
    '| case | median ms | best ms |',
    '|---|---|---|',
    `| 1 000 000 simple statements (a for loop of one assignment) | ${loop.toFixed(1)} | ${Math.min(...loopTimes).toFixed(1)} |`,
    `| ${RUNS}-run sweep as a script (setParameter, runSimulation, getMeasurement) | ${script.toFixed(1)} | ${Math.min(...scriptTimes).toFixed(1)} |`,
    `| the same ${RUNS} runs through the Node API (simulate) | ${direct.toFixed(1)} | ${Math.min(...apiTimes).toFixed(1)} |`,
    '',
    `Target: the million statements under 100 ms (${loop < 100 ? 'met' : 'MISSED'}). ` +
      `Script overhead over the Node API: ${((script - direct) / RUNS).toFixed(2)} ms per run (${((script / direct - 1) * 100).toFixed(0)} %), ` +
      `buck 2 ms at 1 µs (2 000 steps) per run, medians of ${ROUNDS} alternating rounds.`,
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log((await benchSection()).join('\n'));

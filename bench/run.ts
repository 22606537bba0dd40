// `npm run bench`: engine speed and memory against the targets, with ngspice as the reference
// peer on the same buck converter. Writes bench/results/engine.md and prints the table.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CASES } from './engine-case.js';

const here = dirname(fileURLToPath(import.meta.url));

interface CaseResult {
  name: string; steps: number; wallMs: number; factorizations: number; cacheHits: number; unknowns: number;
  solver: string; peakRssMiB: number; measurements: Record<string, number>;
}

function runCase(name: string): CaseResult {
  const out = execFileSync(process.execPath, ['--import', 'tsx', join(here, 'engine-case.ts'), name, '7'], { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').at(-1)!) as CaseResult;
}

function ngspice(deck: string): { wallMs: number; average: number } | undefined {
  const started = process.hrtime.bigint();
  const run = spawnSync('ngspice', ['-b', join(here, 'peers', deck)], { encoding: 'utf8' });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (run.error) return undefined; // ngspice -b exits non-zero on its "no .plot" note; the measurement decides
  const match = /vavg\s*=\s*([-+0-9.eE]+)/.exec(run.stdout + run.stderr);
  return match ? { wallMs, average: Number(match[1]) } : undefined;
}

const rows = Object.keys(CASES).map(runCase);
const lines = [
  '| circuit | steps | wall ms | steps/s | factorisations | cache hits | unknowns | LU | peak RSS MiB |',
  '|---|---|---|---|---|---|---|---|---|',
  ...rows.map((r) =>
    `| ${r.name} | ${r.steps} | ${r.wallMs.toFixed(1)} | ${(r.steps / (r.wallMs / 1000) / 1e6).toFixed(2)} M | ${r.factorizations} | ${r.cacheHits} | ${r.unknowns} | ${r.solver} | ${r.peakRssMiB.toFixed(0)} |`),
];
const buck = rows[0];
const buckLong = rows[1];
const inverter = rows[2];
lines.push('', 'Targets: buck 20 ms under 40 ms (≥ 5 M steps/s); inverter under 100 ms; memory flat in run length.');
lines.push(`- buck: ${buck.wallMs.toFixed(1)} ms (${buck.wallMs < 40 ? 'met' : 'MISSED'})`);
lines.push(`- inverter: ${inverter.wallMs.toFixed(1)} ms (${inverter.wallMs < 100 ? 'met' : 'MISSED'})`);
lines.push(`- peak RSS, 10× longer buck run: ${buck.peakRssMiB.toFixed(0)} → ${buckLong.peakRssMiB.toFixed(0)} MiB (outputs decimated to the same point budget)`);

const peer = ngspice('buck.cir');
if (peer) {
  const ours = buck.measurements['SCOPE.1.ch1.avg'];
  lines.push('', '| peer: buck 20 ms | wall ms | Vout avg (16–20 ms) |', '|---|---|---|');
  lines.push(`| pesim | ${buck.wallMs.toFixed(1)} | ${ours.toFixed(3)} |`);
  lines.push(`| ngspice -b (process, incl. start-up) | ${peer.wallMs.toFixed(1)} | ${peer.average.toFixed(3)} |`);
  lines.push(`| ratio ngspice / pesim | ${(peer.wallMs / buck.wallMs).toFixed(1)}× | Δ ${(100 * Math.abs(ours - peer.average) / peer.average).toFixed(2)} % |`);
} else {
  lines.push('', 'ngspice not found or failed: peer comparison skipped (apt-get install ngspice).');
}

const table = lines.join('\n') + '\n';
mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, 'results', 'engine.md'), table);
console.log(table);

// `npm run bench`: every benchmark section, written to bench/results/bench.md and printed.
// 1. engine: speed and memory of the engine cases (each in its own process, for its own peak RSS);
// 2. peers: the SPICE decks of bench/peers in pesim and ngspice (bench/peers/section.ts);
// 3. then, when their files exist, the sections of the services: bench/jobs.ts (jobsBenchmark),
//    bench/throughput.ts, bench/parquet.ts, bench/analysis.ts, bench/http.ts, bench/jobq.ts, bench/realtime.ts,
//    bench/rmi.ts, bench/steady-state.ts and bench/java-blocks.ts (benchSection). A
//    section that fails, or takes longer than SECTION_TIMEOUT_MS, is reported in the output and
//    the others still run.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CASES } from './engine-case.js';
import { removeBenchData } from './data-dir.mjs';
import { peerSection } from './peers/section.js';

const here = dirname(fileURLToPath(import.meta.url));

interface CaseResult {
  name: string; steps: number; wallMs: number; cpuMs: number; factorizations: number; cacheHits: number; unknowns: number;
  solver: string; peakRssMiB: number; measurements: Record<string, number>;
}

function runCase(name: string): CaseResult {
  const out = execFileSync(process.execPath, ['--import', 'tsx', join(here, 'engine-case.ts'), name, '7'], { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').at(-1)!) as CaseResult;
}

function engineSection(): string[] {
  const rows = Object.keys(CASES).map(runCase);
  const byName = (name: string): CaseResult => rows.find((r) => r.name === name)!;
  const buck = byName('buck 20 ms @ 100 ns');
  const buckLong = byName('buck 200 ms @ 100 ns');
  const inverter = byName('three-phase inverter 100 ms @ 1 µs');
  const thermal = byName('three-phase inverter with losses and heat sink 100 ms @ 1 µs');
  return [
    '## Engine',
    '',
    '| circuit | steps | wall ms | CPU ms | steps/s | factorisations | cache hits | unknowns | LU | peak RSS MiB |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map((r) =>
      `| ${r.name} | ${r.steps} | ${r.wallMs.toFixed(1)} | ${r.cpuMs.toFixed(1)} | ${(r.steps / (r.wallMs / 1000) / 1e6).toFixed(2)} M | ${r.factorizations} | ${r.cacheHits} | ${r.unknowns} | ${r.solver} | ${r.peakRssMiB.toFixed(0)} |`),
    '',
    'Targets: buck 20 ms under 40 ms (≥ 5 M steps/s); inverter under 100 ms; memory flat in run length.',
    `- buck: ${buck.wallMs.toFixed(1)} ms (${buck.wallMs < 40 ? 'met' : 'MISSED'})`,
    `- inverter: ${inverter.wallMs.toFixed(1)} ms (${inverter.wallMs < 100 ? 'met' : 'MISSED'})`,
    `- inverter with losses and heat sink: ${thermal.wallMs.toFixed(1)} ms, ${((thermal.wallMs / inverter.wallMs - 1) * 100).toFixed(0)} % more than without (target ≤ 30 %: ${thermal.wallMs <= 1.3 * inverter.wallMs ? 'met' : 'MISSED'})`,
    `- peak RSS, 10× longer buck run: ${buck.peakRssMiB.toFixed(0)} → ${buckLong.peakRssMiB.toFixed(0)} MiB (outputs decimated to the same point budget)`,
  ];
}

type Section = () => Promise<string[]>;

/** Bound of one optional section (the whole bench stays within a few minutes). */
const SECTION_TIMEOUT_MS = 120_000;

/**
 * The section's lines, or a rejection after the time limit. The pending timer also keeps the event
 * loop alive: a section whose promise is never settled would otherwise end the process silently.
 */
function bounded(section: Section, file: string): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`did not finish within ${SECTION_TIMEOUT_MS / 1000} s`)), SECTION_TIMEOUT_MS);
  });
  return Promise.race([section(), limit]).finally(() => clearTimeout(timer)).catch((error: unknown) => {
    throw new Error(`bench/${file}: ${(error as Error).message}`);
  });
}

/** The optional sections: file, title, and the name of the function each exports. */
const OPTIONAL: ReadonlyArray<{ file: string; title: string; exportName: string }> = [
  { file: 'jobs.ts', title: 'Job runtime', exportName: 'jobsBenchmark' },
  { file: 'throughput.ts', title: 'Sweep throughput and scaling', exportName: 'benchSection' },
  { file: 'parquet.ts', title: 'Parquet result files', exportName: 'benchSection' },
  { file: 'analysis.ts', title: 'Analysis', exportName: 'benchSection' },
  { file: 'http.ts', title: 'HTTP service', exportName: 'benchSection' },
  { file: 'jobq.ts', title: 'Job-queue service', exportName: 'benchSection' },
  { file: 'realtime.ts', title: 'Real-time progress (SSE, STOMP)', exportName: 'benchSection' },
  { file: 'dashboard.ts', title: 'Dashboard', exportName: 'benchSection' },
  { file: 'rmi.ts', title: 'XML-RPC remote control', exportName: 'benchSection' },
  { file: 'script.ts', title: 'Scripting language', exportName: 'benchSection' },
  { file: 'steady-state.ts', title: 'Periodic steady state against the start-up transient', exportName: 'benchSection' },
  { file: 'java-blocks.ts', title: 'Java blocks (GeckoCIRCUITS corpus)', exportName: 'benchSection' },
  { file: 'scaleout.ts', title: 'Scale-out (BullMQ, Redis, worker processes)', exportName: 'benchSection' },
  { file: 'cli-startup.ts', title: 'Command-line start-up', exportName: 'benchSection' },
];

async function optionalSection(file: string, title: string, exportName: string): Promise<string[] | undefined> {
  const path = join(here, file);
  if (!existsSync(path)) return undefined;
  try {
    const module = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
    const section = module[exportName];
    if (typeof section !== 'function') return [`## ${title}`, '', `bench/${file} exports no ${exportName}() function.`];
    const lines = await bounded(section as Section, file);
    // A section that brings its own heading keeps it.
    return lines[0]?.startsWith('#') ? lines : [`## ${title}`, '', ...lines];
  } catch (error) {
    const message = (error as Error).message.split('\n')[0];
    console.error(message);
    return [`## ${title}`, '', `Section failed: ${message}`];
  }
}

async function main(): Promise<void> {
  const sections: string[][] = [engineSection()];
  console.error('bench: engine done; running the ngspice peers …');
  sections.push(await peerSection());
  for (const { file, title, exportName } of OPTIONAL) {
    console.error(`bench: ${file} …`);
    const lines = await optionalSection(file, title, exportName);
    if (lines) sections.push(lines);
  }
  const text = `# pesim benchmarks\n\n${sections.map((s) => s.join('\n')).join('\n\n')}\n`;
  mkdirSync(join(here, 'results'), { recursive: true });
  writeFileSync(join(here, 'results', 'bench.md'), text);
  console.log(text);
  removeBenchData();
}

await main();
// Sections may leave worker threads or sockets behind; the results are written, so end here.
process.exit(0);

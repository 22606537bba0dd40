// Command-line start-up benchmark: whole `pesim` processes (the compiled dist/, as a user runs
// `pesim`), medians of several runs, against their targets —
//   `pesim --version` within 4× of a bare `node -e 0`;
//   `pesim run` on the buck deck at 100 ns (bench/peers/buck.cir) at least 5× faster than the whole
//   `ngspice -b` process on the same deck (with the `.control` block of the peer comparison);
//   `pesim serve` ready (listening, URL printed) and `pesim worker` ready (taking jobs from a local
//   redis-server) in under 0.5 s.
// `benchSection()` returns table lines for bench/run.ts; `node --import tsx bench/cli-startup.ts`
// prints them alone.
import { spawn, spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { TestRedis } from '../test/integration/scaleout/cluster.js';
import { benchDataDir } from './data-dir.mjs';
import { hasNgspice, runNgspiceDeck } from './peers/compare.js';
import { DECKS } from './peers/decks.js';
import { median } from './stats.js';

const RUNS = 7;
const PESIM = fileURLToPath(new URL('../bin/pesim.js', import.meta.url));
const BUCK = DECKS.find((deck) => deck.file === 'buck.cir')!;
const BUCK_FILE = fileURLToPath(new URL('./peers/buck.cir', import.meta.url));

interface ServiceSetting { dataDir: string; redisUrl: string }

/**
 * The services whose time to ready is measured: the arguments after `pesim` and the line it prints
 * once it listens (or takes jobs). A command this build does not have (`pesim help NAME` fails) is
 * reported as such. The worker takes jobs from a redis-server started for the section.
 */
const SERVICES: readonly { name: string; args: (s: ServiceSetting) => string[]; ready: RegExp }[] = [
  { name: 'serve', args: (s) => ['serve', '--port', '0', '--rmi-port', '0', '--data-dir', s.dataDir], ready: /simulation service on http:\/\/\S+/ },
  { name: 'worker', args: (s) => ['worker', '--redis', s.redisUrl, '--concurrency', '1'], ready: /taking jobs from/ },
];


/** Median wall time [ms] of `node ARGS` run to completion; throws when it fails. */
function processMs(args: string[], runs = RUNS): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const r = spawnSync(process.execPath, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    times.push(performance.now() - started);
    if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${r.status}: ${r.stderr}`);
  }
  return median(times);
}

/** Time [ms] from spawning `pesim ARGS` until it prints `ready`, then stops it (SIGTERM). */
async function readyMs(args: string[], ready: RegExp): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [PESIM, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  try {
    return await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not ready within 20 s: ${output}`)), 20_000);
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (ready.test(output)) {
          clearTimeout(timer);
          resolve(performance.now() - started);
        }
      });
      child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString(); });
      child.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`exited with ${code} before it was ready: ${output}`));
      });
    });
  } finally {
    child.removeAllListeners('exit');
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('close', resolve));
  }
}

async function serviceRow(service: (typeof SERVICES)[number], redisUrl: string): Promise<string> {
  if (spawnSync(process.execPath, [PESIM, 'help', service.name], { stdio: 'ignore' }).status !== 0) {
    return `| \`pesim ${service.name}\` ready | – | – | not in this build |`;
  }
  const times: number[] = [];
  for (let i = 0; i < 5; i++) times.push(await readyMs(service.args({ dataDir: benchDataDir(`cli-${service.name}`), redisUrl }), service.ready));
  const ms = median(times);
  return `| \`pesim ${service.name}\` ready | ${ms.toFixed(0)} | < 500 ms | ${ms < 500 ? 'met' : 'MISSED'} |`;
}

export async function benchSection(): Promise<string[]> {
  const bare = processMs(['-e', '0']);
  const version = processMs([PESIM, '--version']);
  const run = processMs([PESIM, 'run', BUCK_FILE]);
  const rows = [
    `| \`node -e 0\` | ${bare.toFixed(0)} | | |`,
    `| \`pesim --version\` | ${version.toFixed(0)} | ≤ 4× node (${(version / bare).toFixed(1)}×) | ${version <= 4 * bare ? 'met' : 'MISSED'} |`,
  ];
  if (hasNgspice()) {
    const ngspice: number[] = [];
    for (let i = 0; i < 3; i++) ngspice.push((await runNgspiceDeck(BUCK)).wallMs);
    const theirs = median(ngspice);
    rows.push(
      `| \`pesim run\` ${BUCK.name} | ${run.toFixed(0)} | ≥ 5× faster than ngspice (${(theirs / run).toFixed(1)}×) | ${theirs >= 5 * run ? 'met' : 'MISSED'} |`,
      `| \`ngspice -b\` ${BUCK.name} | ${theirs.toFixed(0)} | | |`,
    );
  } else {
    rows.push(`| \`pesim run\` ${BUCK.name} | ${run.toFixed(0)} | ≥ 5× faster than ngspice | ngspice not installed |`);
  }
  const redis = await TestRedis.start();
  try {
    for (const service of SERVICES) rows.push(await serviceRow(service, redis.url));
  } finally {
    await redis.stop();
  }
  return [
    '## Command-line start-up',
    '',
    `Whole processes of the compiled command (bin/pesim.js), median of ${RUNS} (services: of 5; ngspice: of 3).`,
    '',
    '| process | median ms | target | |',
    '|---|---|---|---|',
    ...rows,
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log((await benchSection()).join('\n'));
  process.exit(0);
}

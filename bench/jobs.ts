// Job-runtime benchmark: a 1 000-run parameter sweep of the buck (2 ms each) through the
// scheduler on 1 and on 2 workers (runs/s, speed-up; default durability, and `full` for reference),
// beside the speed-up this machine gives two engine threads without the runtime (its bound),
// the scheduler's own CPU per task (bench/jobs-scheduler.mjs: an executor that finishes at once, in
// process) and its thread's CPU and busy time in the sweep (adding piscina's hand-off and the
// thread wake-ups), and the latency of a result-cache hit. Each sweep runs in a plain `node` child process on the
// compiled package (bench/jobs-sweep.mjs), as `pesim serve` runs it. Returns table lines for
// bench/run.ts.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buck } from '../test/fixtures/circuits.js';

const RUNS = 1000;

interface SweepFigures { wallMs: number; engineMs: number; schedulerMsPerTask: number; schedulerCpuMsPerTask: number; hitLatencies: number[]; dir: string }

const ROUNDS = 5;

// The sweeps' data directories stay until the whole benchmark ends (bench/data-dir.mjs,
// removeBenchData): ext4 skips inodes deleted within the last 30 s when it allocates new ones, so
// deleting one sweep's 1 000 result files just before the next sweep made its file creations
// several times slower.
function runSweep(workers: number, cache: boolean, runs = RUNS, durability = 'normal'): SweepFigures {
  const input = JSON.stringify({ netlist: buck({ tEnd: 2e-3 }), runs, workers, cache, keepData: true });
  const driver = fileURLToPath(new URL('./jobs-sweep.mjs', import.meta.url));
  const env = { ...process.env, PESIM_DURABILITY: durability };
  const out = execFileSync(process.execPath, [driver], { input, encoding: 'utf8', timeout: 600_000, env });
  return JSON.parse(out.trim().split('\n').at(-1)!) as SweepFigures;
}

/** The scheduler's own CPU per task with an instant in-process executor (bench/jobs-scheduler.mjs). */
function schedulerBookkeeping(capacity: number): { cpuMsPerTask: number; wallMsPerTask: number } {
  const input = JSON.stringify({ netlist: buck({ tEnd: 2e-3 }), runs: RUNS, capacity });
  const driver = fileURLToPath(new URL('./jobs-scheduler.mjs', import.meta.url));
  const out = execFileSync(process.execPath, [driver], { input, encoding: 'utf8', timeout: 120_000 });
  return JSON.parse(out.trim().split('\n').at(-1)!) as { cpuMsPerTask: number; wallMsPerTask: number };
}

/** Two engine threads against one on this machine, without the runtime (bench/jobs-ceiling.mjs). */
function machineCeiling(): number {
  const input = JSON.stringify({ netlist: buck({ tEnd: 2e-3 }), runs: RUNS, rounds: 1 });
  const driver = fileURLToPath(new URL('./jobs-ceiling.mjs', import.meta.url));
  const out = execFileSync(process.execPath, [driver], { input, encoding: 'utf8', timeout: 300_000 });
  return (JSON.parse(out.trim().split('\n').at(-1)!) as { speedup: number }).speedup;
}

/** The sweep of median wall time. */
function median(sweeps: SweepFigures[]): SweepFigures {
  return [...sweeps].sort((a, b) => a.wallMs - b.wallMs)[Math.floor(sweeps.length / 2)];
}

export async function jobsBenchmark(): Promise<string[]> {
  // Worker scaling is compared like with like (cache off: a sweep of distinct parameters has no
  // hits), 1 and 2 workers alternately, ROUNDS times, each taken at its median (the machine is
  // shared and noisy); a shorter sweep with the cache on then measures the latency of hits.
  const ones: SweepFigures[] = [];
  const twos: SweepFigures[] = [];
  // The machine's own two-thread speed-up is measured in each round too, next to the sweeps: this
  // machine's speed changes from minute to minute, and the two are compared round by round.
  const ceilings: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    ceilings.push(machineCeiling());
    ones.push(runSweep(1, false));
    twos.push(runSweep(2, false));
  }
  const one = median(ones);
  const two = median(twos);
  const cached = runSweep(2, true, 200);
  const bookkeeping = [schedulerBookkeeping(2), schedulerBookkeeping(2), schedulerBookkeeping(2)].sort((a, b) => a.cpuMsPerTask - b.cpuMsPerTask)[1];
  const fullOne = runSweep(1, false, RUNS, 'full');
  const fullTwo = runSweep(2, false, RUNS, 'full');
  const latencies = [...cached.hitLatencies].sort((a, b) => a - b);
  const p50 = latencies[Math.floor(latencies.length / 2)];
  const speedup = one.wallMs / two.wallMs;
  const rounds = ones.map((o, i) => o.wallMs / twos[i].wallMs);
  const shares = rounds.map((r, i) => r / ceilings[i]);
  const middle = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const perTask = (s: SweepFigures): string => (s.wallMs / RUNS).toFixed(2);
  return [
    `| job runtime: 1 000-run buck sweep (2 ms, 20 000 steps each; compiled package; median of ${ROUNDS} alternating sweeps) | value | target |`,
    '|---|---|---|',
    `| 1 worker: runs/s (wall per task; engine per task) | ${((RUNS / one.wallMs) * 1000).toFixed(0)} (${perTask(one)} ms; ${(one.engineMs / RUNS).toFixed(2)} ms) | |`,
    `| 2 workers: runs/s (wall per task) | ${((RUNS / two.wallMs) * 1000).toFixed(0)} (${perTask(two)} ms) | |`,
    `| speed-up 2 workers / 1 worker (each of the ${ROUNDS} rounds) | ${speedup.toFixed(2)}× (${rounds.map((r) => r.toFixed(2)).join(', ')}) | ≥ 1.8× ${speedup >= 1.8 ? 'met' : 'MISSED'} |`,
    `| this machine's own speed-up for two engine threads over one, in the same rounds: 1 000 runs in plain worker threads, no runtime, no files | ${middle(ceilings).toFixed(2)}× (${ceilings.map((r) => r.toFixed(2)).join(', ')}) | bounds the runtime's |`,
    `| the runtime's speed-up as a share of the machine's, round by round (median) | ${(middle(shares) * 100).toFixed(0)} % (${shares.map((r) => (r * 100).toFixed(0)).join(', ')} %) | |`,
    `| scheduler overhead per task: its own work (submit, start, complete: queue, SQLite commits with log lines, events), CPU, with an executor that finishes at once in process (median of 3) | ${bookkeeping.cpuMsPerTask.toFixed(3)} ms | < 0.5 ms ${bookkeeping.cpuMsPerTask < 0.5 ? 'met' : 'MISSED'} |`,
    `| scheduler thread CPU time per task in the sweep, adding piscina's hand-off and the thread wake-ups (1 worker; 2 workers; excludes waiting for a core) | ${one.schedulerCpuMsPerTask.toFixed(3)} ms; ${two.schedulerCpuMsPerTask.toFixed(3)} ms | |`,
    `| scheduler thread busy per task in the sweep (event-loop utilisation; 1 worker; 2 workers; 2 workers with the cache filling) | ${one.schedulerMsPerTask.toFixed(3)} ms; ${two.schedulerMsPerTask.toFixed(3)} ms; ${cached.schedulerMsPerTask.toFixed(3)} ms | |`,
    `| worker time per task beyond the engine run (result file, transfer; 1 worker) | ${((one.wallMs - one.engineMs) / RUNS).toFixed(2)} ms | |`,
    `| with PESIM_DURABILITY=full (each result fsynced): 1 worker; 2 workers runs/s (speed-up) | ${((RUNS / fullOne.wallMs) * 1000).toFixed(0)}; ${((RUNS / fullTwo.wallMs) * 1000).toFixed(0)} (${(fullOne.wallMs / fullTwo.wallMs).toFixed(2)}×) | |`,
    `| cache-hit submit latency p50 / max of 200 | ${p50.toFixed(2)} / ${latencies.at(-1)!.toFixed(2)} ms | < 2 ms ${p50 < 2 ? 'met' : 'MISSED'} |`,
  ];
}

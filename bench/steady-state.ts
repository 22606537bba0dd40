// Periodic steady state against the transient start-up (docs/steady-state.md): for the buck, boost,
// LLC, three-phase inverter and electro-thermal buck examples, the wall time of the steady-state
// analysis (best of REPEATS) against that of the transient run that settles to 0.1 %: the number of
// periods after which every period of a long transient stays within 1e-3 of full scale of the
// settled period on every channel, simulated on their own (best of REPEATS). Engine times
// (stats.wallMs) and, in brackets, those of the whole call. Also the largest difference between the
// settled period and the long transient's last period (target 1e-4). The analysis simulates at
// least two periods, so a circuit that settles within its first period (the three-phase inverter's
// RL load) cannot gain 10× over a transient of two periods: its row says so.
//   node --import tsx bench/steady-state.ts
import { simulateSync, steadyStateSync, type Netlist, type SimulationResult } from '../src/index.js';
import { boost, buck, recordAll, llc, thermalBuck, threePhaseInverter } from '../test/fixtures/circuits.js';

const REPEATS = 5;
const SETTLED = 1e-3;

/** Each case with a transient long enough to settle to 1e-6 (as in test/native/steady-state.test.ts). */
const CASES: ReadonlyArray<{ name: string; netlist: Netlist }> = [
  { name: 'buck 20 kHz @ 100 ns', netlist: buck({ tEnd: 40e-3 }) },
  { name: 'boost 35 kHz, 200 steps a period', netlist: boost({ tEnd: 0.2, dt: 1 / 35e3 / 200 }) },
  { name: 'LLC 100 kHz @ 10 ns', netlist: llc({ tEnd: 8e-3 }) },
  { name: 'three-phase inverter 50 Hz / 10 kHz @ 1 µs', netlist: threePhaseInverter({ tEnd: 0.1 }) },
  { name: 'electro-thermal buck (heat sink ≈ 40 ms) @ 200 ns', netlist: thermalBuck({ tEnd: 0.6 }) },
];

/**
 * The result, the best engine time (stats.wallMs: the periods simulated) and the best time of the
 * whole call (with the netlist's conversion and the circuit's set-up, the same for both) of REPEATS calls.
 */
function best(run: () => SimulationResult): { result: SimulationResult; ms: number; callMs: number } {
  let result!: SimulationResult;
  let ms = Number.POSITIVE_INFINITY;
  let callMs = Number.POSITIVE_INFINITY;
  for (let i = 0; i < REPEATS; i++) {
    const start = performance.now();
    result = run();
    callMs = Math.min(callMs, performance.now() - start);
    ms = Math.min(ms, result.stats.wallMs);
  }
  return { result, ms, callMs };
}

/** Per period of the transient: the largest difference to the settled period over full scale. */
function periodErrors(steady: SimulationResult, transient: SimulationResult): number[] {
  const steps = steady.time.length - 1;
  const periods = Math.floor((transient.time.length - 1) / steps);
  const errors = new Array<number>(periods).fill(0);
  for (const [key, s] of Object.entries(steady.signals)) {
    const t = transient.signals[key]!;
    const fullScale = s.reduce((m, v) => Math.max(m, Math.abs(v)), 0) || 1;
    for (let k = 0; k < periods; k++) {
      let worst = 0;
      for (let i = 0; i <= steps; i++) worst = Math.max(worst, Math.abs(s[i]! - t[k * steps + i]!));
      errors[k] = Math.max(errors[k]!, worst / fullScale);
    }
  }
  return errors;
}

/** Periods simulated until every later period is within `bound` (the period that ends there). */
function periodsToSettle(errors: number[], bound: number): number {
  let k = errors.length;
  while (k > 0 && errors[k - 1]! <= bound) k--;
  return k + 1;
}

function row(name: string, netlist: Netlist): string {
  const exact = recordAll(netlist);
  const steady = best(() => steadyStateSync(exact));
  const report = steady.result.steady!;
  const long = simulateSync(exact);
  const errors = periodErrors(steady.result, long);
  const settle = periodsToSettle(errors, SETTLED);
  const settleEnd = settle * report.period;
  const transient = best(() => simulateSync({ ...exact, settings: { ...exact.settings, tEnd: settleEnd, maxPoints: 2000 } }));
  const ratio = transient.ms / steady.ms;
  // The analysis simulates at least two periods (the warm-up and the recorded one): against a
  // transient that settles in fewer than 20 periods, 10× is out of reach.
  const verdict = ratio >= 10 ? 'met' : settle < 20 ? `out of reach: the analysis simulates at least 2 periods, this transient ${settle}` : 'MISSED';
  const ms = (t: { ms: number; callMs: number }): string => `${t.ms.toFixed(1)} (${t.callMs.toFixed(1)})`;
  return `| ${name} | ${report.stepsPerPeriod} | ${ms(steady)} | ${report.periods} (${report.iterations} Newton) | ` +
    `${ms(transient)} | ${settle} (${(settleEnd * 1e3).toPrecision(3)} ms) | ${ratio.toFixed(1)}× (${verdict}; call ${(transient.callMs / steady.callMs).toFixed(1)}×) | ` +
    `${errors.at(-1)!.toExponential(1)} (${errors.at(-1)! <= 1e-4 ? 'met' : 'MISSED'}) |`;
}

export async function benchSection(): Promise<string[]> {
  const rows: string[] = [];
  for (const { name, netlist } of CASES) rows.push(row(name, netlist));
  return [
    '| circuit | steps a period | steady state: engine ms (call ms) | periods simulated | transient to 0.1 %: engine ms (call ms) | its periods | speed-up, engine (target ≥ 10×) | settled period against a transient settled to 1e-6 (target ≤ 1e-4 of full scale) |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
  ];
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  for (const line of await benchSection()) console.log(line);
}

// One engine benchmark case, run in its own process so its peak RSS is its own:
//   node --import tsx bench/engine-case.ts <case> <repeats>
// Prints one JSON line: best wall time, best CPU time (the run's own thread and the process's
// others, e.g. the garbage collector: what other load on a shared machine does not inflate), steps,
// factorisations, cache hits, peak RSS, measurements.
import { readFileSync } from 'node:fs';
import { simulateSync, type Netlist } from '../src/index.js';
import { readIpes } from '../src/formats/ipes/index.js';
import { buck, threePhaseInverter } from '../test/fixtures/circuits.js';
import { thermalInverter } from './thermal-inverter.js';

/** The buck with its 20 kHz, duty 0.5 gate from a GeckoCIRCUITS-style Java block instead of SIGNAL. */
function javaBuck(): Netlist {
  const n = buck();
  const blocks = (n.blocks ?? []).filter((b) => b.name !== 'SIGNAL.1');
  blocks.unshift({ name: 'JAVA.1', type: 'JAVA', outputs: ['g'], params: {
    variables: 'private double phase = 0;',
    code: 'phase += 20e3 * dt;\nif (phase >= 1) phase -= 1;\nyOUT[0] = phase < 0.5 ? 1 : 0;\nreturn yOUT;' } });
  return { ...n, blocks };
}

/** GeckoCIRCUITS' boost example (.ipes: its stepped 35 kHz source, GeckoCIRCUITS' steps), 20 ms at 100 ns. */
function geckoBoost(): Netlist {
  const { netlist } = readIpes(readFileSync(new URL('../test/fixtures/gecko/boost_simple.ipes', import.meta.url)), 'boost_simple.ipes');
  return { ...netlist, settings: { ...netlist.settings, tEnd: 0.02, dt: 1e-7 } };
}

export const CASES: Record<string, () => Netlist> = {
  'buck 20 ms @ 100 ns': () => buck(),
  'buck 200 ms @ 100 ns': () => buck({ tEnd: 0.2 }),
  'buck 20 ms @ 100 ns, gate from a Java block': javaBuck,
  'three-phase inverter 100 ms @ 1 µs': () => threePhaseInverter(),
  'GeckoCIRCUITS boost (.ipes, its timing) 20 ms @ 100 ns': geckoBoost,
  'three-phase inverter with losses and heat sink 100 ms @ 1 µs': () => thermalInverter(),
};

const [name, repeatsText] = process.argv.slice(2);
if (name) {
  const make = CASES[name];
  if (!make) throw new Error(`unknown case ${name}`);
  const netlist = make();
  let best = Number.POSITIVE_INFINITY;
  let bestCpu = Number.POSITIVE_INFINITY;
  let last;
  for (let i = 0; i < Number(repeatsText ?? 5); i++) {
    const start = process.cpuUsage();
    last = simulateSync(netlist);
    const used = process.cpuUsage(start);
    best = Math.min(best, last.stats.wallMs);
    bestCpu = Math.min(bestCpu, (used.user + used.system) / 1000);
  }
  const s = last!.stats;
  console.log(JSON.stringify({
    name, steps: s.steps, wallMs: best, cpuMs: bestCpu, factorizations: s.factorizations, cacheHits: s.cacheHits,
    unknowns: s.unknowns, solver: s.solver, peakRssMiB: process.resourceUsage().maxRSS / 1024,
    measurements: last!.measurements,
  }));
}

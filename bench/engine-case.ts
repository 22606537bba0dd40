// One engine benchmark case, run in its own process so its peak RSS is its own:
//   node --import tsx bench/engine-case.ts <case> <repeats>
// Prints one JSON line: best wall time, steps, factorisations, cache hits, peak RSS, measurements.
import { simulateSync, type Netlist } from '../src/index.js';
import { buck, threePhaseInverter } from '../test/fixtures/circuits.js';
import { thermalInverter } from './thermal-inverter.js';

export const CASES: Record<string, () => Netlist> = {
  'buck 20 ms @ 100 ns': () => buck(),
  'buck 200 ms @ 100 ns': () => buck({ tEnd: 0.2 }),
  'three-phase inverter 100 ms @ 1 µs': () => threePhaseInverter(),
  'three-phase inverter with losses and heat sink 100 ms @ 1 µs': () => thermalInverter(),
};

const [name, repeatsText] = process.argv.slice(2);
if (name) {
  const make = CASES[name];
  if (!make) throw new Error(`unknown case ${name}`);
  const netlist = make();
  let best = Number.POSITIVE_INFINITY;
  let last;
  for (let i = 0; i < Number(repeatsText ?? 5); i++) {
    last = simulateSync(netlist);
    best = Math.min(best, last.stats.wallMs);
  }
  const s = last!.stats;
  console.log(JSON.stringify({
    name, steps: s.steps, wallMs: best, factorizations: s.factorizations, cacheHits: s.cacheHits,
    unknowns: s.unknowns, solver: s.solver, peakRssMiB: process.resourceUsage().maxRSS / 1024,
    measurements: last!.measurements,
  }));
}

// The periodic steady-state analysis through the Node API: the settled period of the buck, boost,
// LLC, three-phase inverter and electro-thermal buck examples against the last period of a long
// transient run settled to 1e-6 (within 1e-4 of each channel's full scale; also with a thermal
// network whose natural step does not divide the period), and the refusal of a circuit without a
// periodic source.
import { expect } from 'chai';
import { simulateSync, steadyState, steadyStateSync, EngineError, type Netlist, type SimulationResult } from '../../src/index.js';
import { boost, buck, recordAll, llc, thermalBuck, threePhaseInverter } from '../fixtures/circuits.js';

/** Largest difference between the steady period and the transient's last period, over full scale. */
function mismatch(steady: SimulationResult, transient: SimulationResult, key: string): number {
  const s = steady.signals[key]!;
  const t = transient.signals[key]!;
  const offset = t.length - s.length;
  let fullScale = 0;
  let worst = 0;
  for (let i = 0; i < s.length; i++) {
    fullScale = Math.max(fullScale, Math.abs(s[i]!));
    worst = Math.max(worst, Math.abs(s[i]! - t[offset + i]!));
  }
  return worst / fullScale;
}

/** Name, netlist, and the largest mismatch accepted (1e-4 of full scale unless given). */
const CASES: Array<[string, Netlist, number?]> = [
  ['buck', recordAll(buck({ tEnd: 40e-3 }))],
  ['boost', recordAll(boost({ tEnd: 0.2, dt: 1 / 35e3 / 200 }))],
  // Its falling edge 166.85 steps into every period: each period has a sub-step (exact timing).
  ['buck with a gate edge between steps', recordAll(buck({ tEnd: 40e-3, duty: 0.3337 }))],
  ['three-phase inverter', recordAll(threePhaseInverter({ tEnd: 0.1 }))],
  // Settled to 1e-6 after about 500 periods (5 ms).
  ['LLC resonant converter', recordAll(llc({ tEnd: 8e-3 }))],
  // The heat sink (about 40 ms) settles to 1e-6 after about 0.5 s: 2.5 M steps.
  ['electro-thermal buck (junction and heat-sink temperatures)', recordAll(thermalBuck({ tEnd: 0.6 }))],
  // A thousandth of its 3 ms junctions is 15 steps, which do not divide the 250-step period: both
  // runs step the network every 10, and agree to the transient's own settling (1e-6; 3e-5 when
  // the transient stepped it every 15 and the analysis every 10).
  ['electro-thermal buck whose thermal time constant does not give a step that divides the period', recordAll(thermalBuck({ tEnd: 0.6, junctionCth: 6e-3 })), 1e-6],
];

describe('steady-state analysis (Node API)', function () {
  this.timeout(120_000);

  for (const [name, netlist, bound = 1e-4] of CASES) {
    it(`${name}: the settled period matches the last period of a long transient within ${bound} of full scale`, async () => {
      const transient = simulateSync(netlist);
      const steady = await steadyState(netlist);
      expect(steady.steady?.converged, steady.steady?.message).to.equal(true);
      expect(steady.steady?.error).to.be.at.most(1e-9);
      for (const key of Object.keys(steady.signals)) {
        expect(mismatch(steady, transient, key), key).to.be.below(bound);
      }
      expect(steady.steady!.periods * steady.steady!.stepsPerPeriod).to.be.below(transient.stats.steps);
    });
  }

  it('gives the period from the sources as a whole number of steps (35 kHz at 100 ns: 7 periods, 2000 steps)', () => {
    const r = steadyStateSync(boost({ dt: 100e-9 }));
    expect(r.steady?.stepsPerPeriod).to.equal(2000);
    expect(r.time.length).to.equal(2001);
    expect(r.time.at(-1)).to.be.closeTo(2000 * 100e-9, 1e-12);
  });

  it('refuses a circuit without a periodic source, naming the way out', () => {
    const n = buck();
    n.blocks = n.blocks!.map((b) => (b.name === 'SIGNAL.1' ? { name: 'SIGNAL.1', type: 'CONST', outputs: ['g'], params: { value: 1 } } : b));
    let error: unknown;
    try {
      steadyStateSync(n);
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(EngineError);
    expect((error as EngineError).code).to.equal('STEADY_STATE_UNSUPPORTED');
    expect((error as Error).message).to.match(/no periodic source.*give the period/);
    expect(steadyStateSync(n, { period: 10e-6 }).steady?.converged).to.equal(true);
  });
});

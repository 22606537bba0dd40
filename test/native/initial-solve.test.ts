// The start-up solve with very large capacitors: a 1 F DC link tied to the reference only through
// off-state diodes (1e7 Ω) is numerically singular at a step of dt·1e-3 (C/dt′ = 2e9 S against
// 1e-7 S); the engine then solves the start with the full step. The capacitor keeps its initial
// voltage and discharges into the load with τ = R·C. The system stays ill-conditioned (its common
// mode is set by 1e-7 S against 2e6 S): iterative refinement keeps the voltage (without it, 366 V
// instead of 449.86 V after 2 000 steps).
import { expect } from 'chai';
import { simulateSync } from '../../src/index.js';
import type { Netlist } from '../../src/formats/netlist.js';

const dcLink: Netlist = {
  settings: { tEnd: 1e-3, dt: 5e-7 },
  elements: [
    { name: 'C.1', type: 'C', nodes: ['p', 'n'], params: { C: 1, v0: 450 } },
    { name: 'R.1', type: 'R', nodes: ['p', 'n'], params: { R: 3.2 } },
    { name: 'D.1', type: 'D', nodes: ['0', 'p'], params: { roff: 1e7 } },
    { name: 'D.2', type: 'D', nodes: ['n', '0'], params: { roff: 1e7 } },
  ],
  blocks: [
    { name: 'VOLT.1', type: 'VOLT', outputs: ['v'], params: { nodes: ['p', 'n'] } },
    { name: 'SCOPE.1', type: 'SCOPE', inputs: ['v'] },
  ],
};

describe('start-up solve with a 1 F capacitor', () => {
  it('starts at the initial voltage and discharges with τ = RC', () => {
    const r = simulateSync(dcLink);
    const v = r.signals['SCOPE.1.ch1'];
    expect(v.length).to.be.greaterThan(2);
    expect(v[0]).to.be.closeTo(450, 1e-3);
    const end = r.time[r.time.length - 1];
    expect(v[v.length - 1]).to.be.closeTo(450 * Math.exp(-end / 3.2), 1e-2);
  });
});

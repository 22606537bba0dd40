// Two gated IGBTs in series between blocking diodes (one switch leg of a Vienna rectifier per
// phase, here two phases): the state iteration must settle although the IGBTs that carry no current
// sit exactly at their forward voltage, where rounding alone decides the sign of their current
// (the 1 F DC link makes the matrix ill-conditioned: its factorisation is refined, factorization.hpp).
import { expect } from 'chai';
import { simulateSync, type Netlist } from '../../src/index.js';
import { amp, scope, volt } from '../fixtures/circuits.js';

const VF = 0.7;
const L = 250e-6;

// Phase x: UNx –L→ Ux; Ux –D→ nx+ –D→ UA; nx+ –IGBT→ MP –IGBT→ nx− –D→ Ux; UB –D→ nx−.
function leg(x: string): Netlist['elements'] {
  const d = { vf: VF, ron: 0.0025, roff: 1e7 };
  const q = { vf: VF, ron: 0.0029, roff: 1e7 };
  return [
    { name: `L.${x}`, type: 'L', nodes: [`UN${x}`, `U${x}`], params: { L, i0: 0 } },
    { name: `D.${x}1`, type: 'D', nodes: [`U${x}`, `p${x}`], params: d },
    { name: `D.${x}2`, type: 'D', nodes: [`p${x}`, 'UA'], params: d },
    { name: `IGBT.${x}1`, type: 'IGBT', nodes: [`p${x}`, 'MP'], params: q },
    { name: `IGBT.${x}2`, type: 'IGBT', nodes: ['MP', `m${x}`], params: q },
    { name: `D.${x}3`, type: 'D', nodes: ['UB', `m${x}`], params: d },
    { name: `D.${x}4`, type: 'D', nodes: [`m${x}`, `U${x}`], params: d },
  ];
}

describe('gated IGBTs in series between diodes', () => {
  it('settle with the idle pair on at zero current and the line current rising as (ΔU − 4·vf)/(2L)', () => {
    const u = 283;
    const n: Netlist = {
      settings: { tEnd: 20e-6, dt: 0.5e-6, solver: 'backward-euler', measureFrom: 0 },
      elements: [
        { name: 'U.S', type: 'V', nodes: ['UNS', '0'], params: { waveform: 'dc', value: u } },
        { name: 'U.T', type: 'V', nodes: ['UNT', '0'], params: { waveform: 'dc', value: -u } },
        ...leg('S'),
        ...leg('T'),
        // DC link of 2 × 450 V on 1 F capacitors: C/dt = 2e6 S against the 1e-7 S of the
        // blocking devices makes the solution's rounding larger than the idle IGBTs' currents.
        { name: 'C.1', type: 'C', nodes: ['UA', 'MP'], params: { C: 1, v0: 450 } },
        { name: 'C.2', type: 'C', nodes: ['MP', 'UB'], params: { C: 1, v0: 450 } },
        { name: 'R.1', type: 'R', nodes: ['UA', 'UB'], params: { R: 3.2 } },
      ],
      blocks: [
        { name: 'ON', type: 'CONST', outputs: ['g'], params: { value: 1 } },
        ...['S1', 'S2', 'T1', 'T2'].map((q) => ({ name: `GATE.${q}`, type: 'GATE' as const, inputs: ['g'], params: { target: `IGBT.${q}` } })),
        amp('AMP.1', 'is', 'L.S'),
        volt('VOLT.1', 'vdc', 'UA', 'UB'),
        scope('SCOPE.1', ['is', 'vdc']),
      ],
    };
    const r = simulateSync(n);
    // The S → T path U.S –L→ D.S1 → IGBT.S1 → MP → IGBT.T2 → D.T4 –L→ U.T has four forward
    // voltages; its resistances (10.8 mΩ) are negligible: i(t) = (2u − 4·vf)·t/(2L) = 22.5 A at 20 µs.
    const iEnd = ((2 * u - 4 * VF) * 20e-6) / (2 * L);
    expect(r.measurements['SCOPE.1.ch1_max']).to.be.closeTo(iEnd, 0.005 * iEnd);
    // The DC link barely moves: 281 A of load current for 20 µs on 1 F.
    expect(r.measurements['SCOPE.1.ch2_min']).to.be.closeTo(900, 0.05);
  });
});

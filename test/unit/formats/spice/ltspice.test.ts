// LTspice netlists as LTspice writes them: µ in values, Rser/Cpar/Rpar on L, C and V, the SW and
// idealised D models, .ic, .tran 0 TSTOP 0 TMAX, .options and .backanno.
import { expect } from 'chai';
import { readSpice } from '../../../../src/formats/spice/index.js';
import { element } from './helpers.js';

const LTSPICE_DECK = `* C:\\Users\\me\\Documents\\LTspice\\buck.asc
V1 N001 0 24 Rser=10m
L1 N002 OUT 47µ Rser=20m Cpar=10p
C1 OUT 0 100µ Rser=5m Lser=1n Rpar=1Meg
R1 OUT 0 3
S1 N001 N002 N003 0 MySW
D1 0 N002 Dideal
V2 N003 0 PULSE(0 5 0 10n 10n 4.99u 10u)
.model MySW SW(Ron=10m Roff=1Meg Vt=2.5 Vh=0.1)
.model Dideal D(Ron=10m Roff=1Meg Vfwd=0.4)
.ic V(out)=5 I(L1)=1.5
.tran 0 2m 0 50n uic
.options plotwinsize=0
.backanno
.end
`;

describe('SPICE reader: LTspice dialect', () => {
  const { netlist, warnings } = readSpice(LTSPICE_DECK, 'buck.net');

  it('maps Rser, Lser, Rpar and Cpar onto elements of their own', () => {
    expect(element(netlist, 'V1').nodes).to.deep.equal(['n001', 'v1.rser']);
    expect(element(netlist, 'V1.Rser')).to.deep.equal({ name: 'V1.Rser', type: 'R', nodes: ['v1.rser', '0'], params: { R: 0.01 } });
    expect(element(netlist, 'L1').nodes).to.deep.equal(['n002', 'l1.rser']);
    expect(element(netlist, 'L1.Rser').nodes).to.deep.equal(['l1.rser', 'out']);
    expect(element(netlist, 'L1.Cpar')).to.deep.equal({ name: 'L1.Cpar', type: 'C', nodes: ['n002', 'out'], params: { C: 1e-11 } });
    expect(element(netlist, 'C1').nodes).to.deep.equal(['out', 'c1.rser']);
    expect(element(netlist, 'C1.Rser').nodes).to.deep.equal(['c1.rser', 'c1.lser']);
    expect(element(netlist, 'C1.Lser')).to.deep.equal({ name: 'C1.Lser', type: 'L', nodes: ['c1.lser', '0'], params: { L: 1e-9 } });
    expect(element(netlist, 'C1.Rpar').nodes).to.deep.equal(['out', '0']);
  });

  it('reads the SW and idealised D models, .ic and .tran 0 TSTOP 0 TMAX', () => {
    expect(element(netlist, 'S1').params).to.deep.equal({ ron: 0.01, roff: 1e6, vt: 2.5, vh: 0.1 });
    expect(element(netlist, 'D1').params).to.deep.equal({ vf: 0.4, ron: 0.01, roff: 1e6 });
    expect(element(netlist, 'L1').params).to.deep.equal({ L: 47e-6, i0: 1.5 });
    // C1 joins out to its series Rser node (no .ic value there): V(out)=5 reaches no capacitor.
    expect(warnings.join('\n')).to.match(/\.ic V\(out\) has no effect/);
    expect(netlist.settings).to.include({ tEnd: 2e-3, dt: 50e-9 });
    expect(warnings.join('\n')).to.match(/\.backanno skipped/).and.match(/\.options plotwinsize ignored/);
  });

  it('sets capacitor voltages from .ic node values', () => {
    const r = readSpice('t\nC1 a 0 1u\nC2 a b 1u\nC3 b 0 1u IC=7\nR1 a 0 1\n.ic V(a)=5 V(b)=2\n.tran 1u 1m uic\n');
    expect(element(r.netlist, 'C1').params).to.deep.equal({ C: 1e-6, v0: 5 });
    expect(element(r.netlist, 'C2').params).to.deep.equal({ C: 1e-6, v0: 3 });
    expect(element(r.netlist, 'C3').params).to.deep.equal({ C: 1e-6, v0: 7 });
  });

  it('reads SINE as SIN and a negative Vh as a sharp switch at Vt, with a warning', () => {
    const r = readSpice('t\nV1 a 0 SINE(0 1 50)\nS1 a 0 a 0 SM\n.model SM SW(Ron=1 Roff=1Meg Vt=0.5 Vh=-0.2)\n.tran 0 20m 0 10u\n', 'x.net');
    expect(element(r.netlist, 'V1').params).to.include({ waveform: 'sine', amplitude: 1, frequency: 50 });
    expect(element(r.netlist, 'S1').params).to.include({ vt: 0.5, vh: 0 });
    expect(r.warnings.join('\n')).to.match(/x\.net:4: \.model SM: VH < 0 .* sharp switch at VT/);
  });
});

// Reader → writer → reader: the deck the writer makes from a read netlist reads back into an
// equivalent netlist (same elements, parameters, settings and output blocks; numbers within 1e-12).
import { expect } from 'chai';
import type { Netlist, ParamValue } from '../../../../src/formats/netlist.js';
import { readSpice, writeSpice } from '../../../../src/formats/spice/index.js';

const DECK = `round trip
.param rl=50 vin=12
V1 in 0 {vin}
V2 s 0 SIN(0.5 10 60 1m 0 45)
V3 p 0 PULSE(0 5 10u 1u 2u 20u 50u)
I1 0 q PWL(0 0 1m 2m 2m -1m)
Vsense in a 0
R1 a b {rl}
L1 b c 1m IC=0.1
L2 c 0 4m
K12 L1 L2 0.98
C1 c 0 10u IC=2
E1 e 0 s 0 2
G1 0 g p 0 1m
F1 0 f Vsense 3
H1 h 0 Vsense 100
S1 s x p 0 swm
W1 x 0 vsense cswm
D1 q 0 dm
D2 h 0 dplain
R2 e 0 1k
R3 g 0 1k
R4 f 0 1k
R5 h 0 1k
R6 q 0 1k
.model swm SW(VT=2.5 VH=0.5 RON=0.1 ROFF=1meg)
.model cswm CSW(IT=10m IH=1m RON=1 ROFF=1e6)
.model dm D(IS=1e-9 N=1.5 RS=0.02)
.model dplain D
.options method=gear
.tran 1u 5m 0 0.5u uic
.end
`;

function expectClose(actual: ParamValue | undefined, expected: ParamValue | undefined, where: string): void {
  if (typeof expected === 'number') {
    expect(actual, where).to.be.a('number');
    expect(actual as number, where).to.be.closeTo(expected, Math.abs(expected) * 1e-12 + 1e-300);
  } else if (Array.isArray(expected)) {
    expect(actual, where).to.be.an('array').with.length(expected.length);
    expected.forEach((v, i) => expectClose((actual as ParamValue[])[i] as ParamValue, v, `${where}[${i}]`));
  } else {
    expect(actual, where).to.equal(expected);
  }
}

function expectEquivalent(again: Netlist, first: Netlist): void {
  expect(again.name).to.equal(first.name);
  expect(again.settings).to.deep.equal(first.settings);
  expect(again.parameters).to.deep.equal(first.parameters);
  expect(again.elements.map((e) => [e.name, e.type, e.nodes])).to.deep.equal(first.elements.map((e) => [e.name, e.type, e.nodes]));
  first.elements.forEach((e, i) => {
    const other = again.elements[i];
    expect(Object.keys(other.params ?? {}).sort(), e.name).to.deep.equal(Object.keys(e.params ?? {}).sort());
    for (const [key, value] of Object.entries(e.params ?? {})) expectClose(other.params![key], value, `${e.name}.${key}`);
  });
  expect(again.blocks).to.deep.equal(first.blocks);
}

describe('spice round trip', () => {
  it('reads back what it writes, diodes written as models', () => {
    const first = readSpice(DECK, 'round.cir');
    expect(first.netlist.elements).to.have.length(23);
    const written = writeSpice(first.netlist, { diode: 'model' });
    const again = readSpice(written, 'written.cir');
    expectEquivalent(again.netlist, first.netlist);
    // Only the warnings about what the writer adds for ngspice (its .control block) differ.
    expect(again.warnings).to.deep.equal([`written.cir:${written.split('\n').indexOf('.control') + 1}: .control block (lines ${written.split('\n').indexOf('.control') + 1}–${written.split('\n').indexOf('.endc') + 1}) skipped`]);
  });

  it('keeps solver and settings through a second round', () => {
    for (const solver of ['trapezoidal', 'backward-euler', 'gear-shichman'] as const) {
      const first = readSpice(DECK).netlist;
      first.settings.solver = solver;
      const again = readSpice(writeSpice(first, { diode: 'model' })).netlist;
      expect(again.settings).to.deep.equal(first.settings);
    }
  });
});

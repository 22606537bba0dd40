// Subcircuits and includes: a deck with `.subckt` instances reads as its flat form (names scoped as
// `X1.R1`, nodes as `x1.mid`), parameters per instance, nesting, `.global`; `.include` and `.lib`
// through a file reader, and the errors for what is missing.
import { expect } from 'chai';
import { readSpice } from '../../../../src/formats/spice/index.js';
import type { Netlist } from '../../../../src/formats/netlist.js';
import { expectLineError } from './helpers.js';
import { readFileSync } from 'node:fs';
import { readCircuitBytes } from '../../../../src/formats/read.js';
import { deckFiles } from '../../../../src/formats/deck-files.js';

const SUBCKT_DECK = `rc ladder with subcircuits
.param rl=5
.subckt rcsec in out params: r=1k c=1u
R1 in mid {r}
R2 mid out {r/2}
C1 out 0 {c}
.ends
V1 in 0 DC 1
X1 in a rcsec r=2k
X2 a out rcsec c={2*1u}
Rload out 0 rl
.tran 1u 1m uic
.end
`;

const FLAT_DECK = `rc ladder, flat
.param rl=5
V1 in 0 DC 1
R1 in x1.mid 2k
R2 x1.mid a 1k
C1 a 0 1u
R3 a x2.mid 1k
R4 x2.mid out 500
C2 out 0 2u
Rload out 0 rl
.tran 1u 1m uic
.end
`;

/** The netlist with element names replaced by their position (the flat deck names them differently). */
function anonymous(netlist: Netlist): unknown {
  const names = new Map(netlist.elements.map((e, i) => [e.name, `e${i}`]));
  const rename = (text: string) => text.replace(/I\(([^)]+)\)/g, (_m, n: string) => `I(${names.get(n) ?? n})`);
  return {
    ...netlist, name: '',
    elements: netlist.elements.map((e) => ({ ...e, name: names.get(e.name) })),
    blocks: netlist.blocks!.map((b) => JSON.parse(rename(JSON.stringify(b))) as unknown),
  };
}

describe('SPICE subcircuits', () => {
  it('a deck with subcircuits gives the same netlist as its flat form', () => {
    const sub = readSpice(SUBCKT_DECK).netlist;
    const flat = readSpice(FLAT_DECK).netlist;
    expect(anonymous(sub)).to.deep.equal(anonymous(flat));
    expect(sub.elements.map((e) => e.name)).to.deep.equal(['V1', 'X1.R1', 'X1.R2', 'X1.C1', 'X2.R1', 'X2.R2', 'X2.C1', 'Rload']);
    expect(sub.blocks!.map((b) => b.outputs?.[0]).filter(Boolean)).to.include('V(x1.mid)');
  });

  it('nests instances, scopes references and keeps .global nodes and ground', () => {
    const { netlist } = readSpice(`nested
.global vdd
.subckt inner a b params: k=1
L1 a m 1m
L2 m b 1m
K1 L1 L2 {k/2}
Vs vdd 0 {k}
.ends
.subckt outer p q params: g=1
X1 p n inner k={2*g}
X2 n q inner
.ends
XO in 0 outer g=0.9
R1 in 0 1
.tran 1u 1m uic
.end
`);
    const k = netlist.elements.find((e) => e.name === 'XO.X1.K1')!;
    expect(k.params).to.deep.equal({ k: 0.9, inductors: ['XO.X1.L1', 'XO.X1.L2'] });
    expect(netlist.elements.find((e) => e.name === 'XO.X1.Vs')!.nodes).to.deep.equal(['vdd', '0']);
    expect(netlist.elements.find((e) => e.name === 'XO.X2.L2')!.nodes).to.deep.equal(['xo.x2.m', '0']);
    expect(netlist.elements.find((e) => e.name === 'XO.X2.K1')!.params!.k).to.equal(0.5);
  });

  it('takes params: on instance cards and evaluates body models in each instance', () => {
    const { netlist } = readSpice(`models per instance
.subckt sw a b params: ron=1
S1 a b a b SM
.model SM SW(VT=0.5 RON={ron} ROFF=1e7)
.ends
X1 in 0 sw params: ron=0.1
X2 in 0 sw ron={2*0.1}
V1 in 0 1
.tran 1u 1m
.end
`);
    expect(netlist.elements.find((e) => e.name === 'X1.S1')!.params).to.include({ ron: 0.1 });
    expect(netlist.elements.find((e) => e.name === 'X2.S1')!.params).to.include({ ron: 0.2 });
  });

  it('names the line of a wrong instance', () => {
    const base = '.subckt s a b params: r=1\nR1 a b {r}\n.ends\n';
    expectLineError(() => readSpice(`t\n${base}X1 a b nosuch\n.tran 1u 1m\n`), 5, /subcircuit 'nosuch' is not defined/, 'UNKNOWN_REFERENCE');
    expectLineError(() => readSpice(`t\n${base}X1 a s\n.tran 1u 1m\n`), 5, /has 2 ports \(a b\), the card connects 1 nodes/);
    expectLineError(() => readSpice(`t\n${base}X1 a b s q=2\n.tran 1u 1m\n`), 5, /no parameter 'q' \(its parameters: r\)/);
    expectLineError(() => readSpice(`t\n.subckt s a b\nR1 a b 1\n.tran 1u 1m\n`), 2, /without \.ends/);
    expectLineError(() => readSpice(`t\n.subckt s a b\n.tran 1u 1m\n.ends\nX1 a b s\n.tran 1u 1m\n`), 3, /\.tran is not supported inside a subcircuit/, 'SPICE_UNSUPPORTED');
    expectLineError(() => readSpice(`t\n.subckt s a b\nX1 a b s\n.ends\nX1 a b s\n.tran 1u 1m\n`), 3, /nested more than 20 deep/);
  });
});

describe('SPICE includes', () => {
  const files: Record<string, string> = {
    'models.lib': '* models\n.model SWM SW(VT=0.5 RON=0.01)\n.lib fast\n.model DF D(RS=0.02)\n.endl\n.lib slow\n.model DS D(RS=0.2)\n.endl\n',
    'sub/stage.inc': '.subckt stage a b\nR1 a b 1\n.ends\n.include ../models.lib\n',
  };
  const reader = (path: string) => (files[path] !== undefined ? Buffer.from(files[path]) : undefined);

  it('reads .include (nested, relative to the including file) and .lib FILE NAME', () => {
    const { netlist } = readSpice('t\n.include sub/stage.inc\n.lib models.lib slow\nX1 in 0 stage\nV1 in 0 1\nD1 in 0 DS\nS1 in 0 in 0 SWM\n.tran 1u 1m\n', 'deck.cir', { files: reader });
    expect(netlist.elements.map((e) => e.name)).to.deep.equal(['X1.R1', 'V1', 'D1', 'S1']);
    expect(netlist.elements[2].params!.ron).to.equal(0.2);
  });

  it('names the missing file, the missing section and a deck without folder', () => {
    expectLineError(() => readSpice('t\nR1 a 0 1\n.include nothere.lib\n.tran 1u 1m\n', 'deck.cir', { files: reader }), 3, /file 'nothere.lib' not found/);
    expectLineError(() => readSpice('t\n.lib models.lib medium\n.tran 1u 1m\n', 'deck.cir', { files: reader }), 2, /no section '.lib medium'/);
    expectLineError(() => readSpice('t\n.include models.lib\n.tran 1u 1m\n'), 2, /given without its folder/, 'SPICE_UNSUPPORTED');
    const err = expectLineError(() => readSpice('t\n.include bad.inc\n.tran 1u 1m\n', 'deck.cir', { files: (p) => (p === 'bad.inc' ? Buffer.from('R1 a 0\n') : undefined) }), 1, /R value/);
    expect(err.message).to.match(/^bad\.inc:1:/);
  });
});

describe('SPICE includes through readCircuitBytes', () => {
  const path = new URL('../../../fixtures/spice/buckboost-lib.cir', import.meta.url).pathname;
  const bytes = readFileSync(path);

  it('reads the files beside the deck with deckFiles (as pesim run and validate do)', () => {
    const { netlist } = readCircuitBytes(bytes, path, { files: deckFiles(path) });
    expect(netlist.elements.map((e) => e.name)).to.include.members(['XDRV.VG', 'S1', 'D1']);
    expect(netlist.elements.find((e) => e.name === 'S1')!.params).to.include({ ron: 0.01 });
  });

  it('refuses the includes of a deck given alone (an upload), naming the card', () => {
    expectLineError(() => readCircuitBytes(bytes, 'buckboost-lib.cir'), 4, /\.lib lib\/power\.lib: this deck was given without its folder/);
  });
});

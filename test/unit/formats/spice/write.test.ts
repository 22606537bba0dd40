// SPICE writer: cards, names, settings, waveforms, gate chains, devices, signals and its errors.
import { expect } from 'chai';
import { NetlistError } from '../../../../src/formats/errors.js';
import type { ControlBlock, Netlist, NetlistElement } from '../../../../src/formats/netlist.js';
import { buildSpiceDeck, writeSpice } from '../../../../src/formats/spice/index.js';
import { saturationCurrentFor } from '../../../../src/formats/spice/models.js';

const V = (name: string, a: string, b: string, params: NetlistElement['params']): NetlistElement => ({ name, type: 'V', nodes: [a, b], params });
const R = (name: string, a: string, b: string, r: number | string = 1): NetlistElement => ({ name, type: 'R', nodes: [a, b], params: { R: r } });

function netlist(elements: NetlistElement[], blocks: ControlBlock[] = [], settings: Partial<Netlist['settings']> = {}): Netlist {
  return { name: 'test', settings: { tEnd: 1e-3, dt: 1e-6, ...settings }, elements, blocks };
}

const lines = (deck: string) => deck.split('\n');
const card = (deck: string, start: string) => {
  const found = lines(deck).find((l) => l.startsWith(`${start} `));
  if (!found) expect.fail(`no card ${start} in\n${deck}`);
  return found;
};
/** Numbers of a function-like spec such as PULSE(…). */
const args = (line: string, fn: string) => {
  const m = new RegExp(`${fn}\\(([^)]*)\\)`).exec(line);
  if (!m) expect.fail(`no ${fn}(...) in ${line}`);
  return m[1].trim().split(/\s+/).map(Number);
};

function expectError(fn: () => unknown, pattern: RegExp, component?: string): void {
  try {
    fn();
  } catch (error) {
    expect(error).to.be.instanceOf(NetlistError);
    expect((error as Error).message).to.match(pattern);
    if (component) expect((error as NetlistError).details[0].component).to.equal(component);
    return;
  }
  expect.fail('expected a NetlistError');
}

describe('spice writer', () => {
  it('writes linear elements, parameters, names and settings', () => {
    const deck = writeSpice({
      name: 'lin', settings: { tEnd: 2e-3, dt: 1e-7, solver: 'trapezoidal' }, parameters: { rl: 50, 'not valid': 3 },
      elements: [
        V('V.in', 'In', '0', { waveform: 'dc', value: 5 }), R('load', 'In', 'out.1', '$rl'),
        { name: 'L1', type: 'L', nodes: ['out.1', 'x'], params: { L: 1e-3, i0: 0.5 } },
        { name: 'L2', type: 'L', nodes: ['x', 'gnd'], params: { L: 4e-3 } },
        { name: 'K1', type: 'K', nodes: [], params: { k: 0.9, inductors: ['L1', 'L2'] } },
        { name: 'C1', type: 'C', nodes: ['x', '0'], params: { C: 1e-6, v0: 2 } },
        { name: 'E1', type: 'E', nodes: ['e', '0', 'x', '0'], params: { gain: 3 } }, R('R2', 'e', '0'),
        { name: 'G1', type: 'G', nodes: ['0', 'g', 'x', '0'], params: { gm: 0.1 } }, R('R3', 'g', '0'),
        { name: 'F1', type: 'F', nodes: ['0', 'f'], params: { gain: 2, control: 'V.in' } }, R('R4', 'f', '0'),
        { name: 'H1', type: 'H', nodes: ['h', '0'], params: { r: 10, control: 'V.in' } }, R('R5', 'h', '0'),
        { name: 'I1', type: 'I', nodes: ['0', 'h'], params: { waveform: 'dc', value: 1e-3 } },
      ],
    });
    expect(lines(deck)[0]).to.equal('lin');
    expect(deck).to.include('.param rl=50\n').and.not.include('not valid');
    expect(card(deck, 'V_in')).to.equal('V_in in 0 DC 5');
    expect(card(deck, 'Rload')).to.equal('Rload in out_1 {rl}');
    expect(card(deck, 'L1')).to.equal('L1 out_1 x 0.001 IC=0.5');
    expect(card(deck, 'L2')).to.equal('L2 x 0 0.004');
    expect(card(deck, 'K1')).to.equal('K1 L1 L2 0.9');
    expect(card(deck, 'C1')).to.equal('C1 x 0 0.000001 IC=2');
    expect(card(deck, 'E1')).to.equal('E1 e 0 x 0 3');
    expect(card(deck, 'G1')).to.equal('G1 0 g x 0 0.1');
    expect(card(deck, 'F1')).to.equal('F1 0 f V_in 2');
    expect(card(deck, 'H1')).to.equal('H1 h 0 V_in 10');
    // Recorded currents are read from device parameters: no sense source changes the circuit.
    expect(card(deck, 'I1')).to.equal('I1 0 h DC 0.001');
    expect(deck).to.include('save all @i1[current]\nrun\n');
    expect(deck).to.include('.tran 1e-7 0.002 0 1e-7 uic\n.options method=trap\n');
  });

  it('writes the solver as an ngspice method', () => {
    const el = [V('V1', 'a', '0', { waveform: 'dc', value: 1 }), R('R1', 'a', '0')];
    expect(writeSpice(netlist(el))).to.include('.options method=gear maxord=1\n');
    expect(writeSpice(netlist(el, [], { solver: 'gear-shichman' }))).to.include('.options method=gear maxord=2\n');
  });

  it('writes source waveforms; zero edges and widths become ε, a single pulse has no PER', () => {
    const deck = writeSpice(netlist([
      V('V1', 'a', '0', { waveform: 'sine', amplitude: 10, frequency: 50, offset: 1, phase: 30, delay: 1e-3 }),
      V('V2', 'b', '0', { waveform: 'pulse', v1: 0, v2: 5, delay: 1e-4, rise: 0, fall: 1e-6, width: 0, period: 0 }),
      V('V3', 'c', '0', { waveform: 'pwl', times: [0, 1e-3, 2e-3], values: [0, 1, -1] }),
      V('V4', 'd', '0', { waveform: 'pwm', low: -1, high: 2, frequency: 1000, duty: 0.25 }),
      R('R1', 'a', 'b'), R('R2', 'c', 'd'), R('R3', 'd', '0'),
    ]));
    expect(card(deck, 'V1')).to.equal('V1 a 0 SIN(1 10 50 0.001 0 30)');
    expect(card(deck, 'V2')).to.equal('V2 b 0 PULSE(0 5 0.0001 1e-9 0.000001 1e-9)');
    expect(card(deck, 'V3')).to.equal('V3 c 0 PWL(0 0 0.001 1 0.002 -1)');
    // pwm on at t = 0: written inverted, switching off at 0.25 ms and on again at 1 ms.
    const [v1, v2, td, tr, tf, pw, per] = args(card(deck, 'V4'), 'PULSE');
    expect([v1, v2, per]).to.deep.equal([2, -1, 1e-3]);
    expect(td + tr / 2).to.be.closeTo(0.25e-3, 1e-15);
    expect(td + tr + pw + tf / 2).to.be.closeTo(1e-3, 1e-15);
  });

  it('drives a gated switch from a rectangle SIGNAL with exact edges', () => {
    const { deck } = buildSpiceDeck(netlist([
      V('V1', 'in', '0', { waveform: 'dc', value: 10 }), { name: 'S1', type: 'S', nodes: ['in', 'out'], params: { ron: 0.1 } }, R('R1', 'out', '0'),
    ], [
      { name: 'SIG', type: 'SIGNAL', outputs: ['g'], params: { waveform: 'rectangle', amplitude: 1, frequency: 10e3, duty: 0.3, phase: 90 } },
      { name: 'GATE', type: 'GATE', inputs: ['g'], params: { target: 'S1' } },
    ]));
    expect(card(deck, 'S1')).to.equal('S1 in out s1_g 0 sw_s1');
    expect(deck).to.include('.model sw_s1 SW(VT=0.5 VH=0 RON=0.1 ROFF=10000000)');
    // phase 90°: position 0.25 at t = 0, on until position 0.3 (5 µs), off until the next period
    // starts (75 µs): written inverted, starting on.
    const [v1, v2, td, tr, tf, pw, per] = args(card(deck, 'VS1_g'), 'PULSE');
    expect([v1, v2, per]).to.deep.equal([1, 0, 1e-4]);
    expect(td + tr / 2).to.be.closeTo(5e-6, 1e-15);
    expect(td + tr + pw + tf / 2).to.be.closeTo(75e-6, 1e-15);
  });

  it('drives gates from a carrier comparison, a constant, and B-source logic', () => {
    const tri = { name: 'TRI', type: 'SIGNAL', outputs: ['tri'], params: { waveform: 'triangle', amplitude: 1, frequency: 1000 } } as ControlBlock;
    const devices: NetlistElement[] = [
      V('V1', 'p', '0', { waveform: 'dc', value: 10 }),
      { name: 'S1', type: 'S', nodes: ['p', 'a'] }, { name: 'S2', type: 'S', nodes: ['p', 'b'] }, { name: 'S3', type: 'S', nodes: ['p', 'c'] },
      R('R1', 'a', '0'), R('R2', 'b', '0'), R('R3', 'c', '0'),
    ];
    const deck = writeSpice(netlist(devices, [
      tri,
      { name: 'REF', type: 'CONST', outputs: ['ref'], params: { value: 0.5 } },
      { name: 'ON', type: 'CONST', outputs: ['on'], params: { value: 0.7 } },
      { name: 'SIN', type: 'SIGNAL', outputs: ['sin'], params: { waveform: 'sine', amplitude: 0.8, frequency: 50 } },
      { name: 'CMP', type: 'GT', inputs: ['ref', 'tri'], outputs: ['pwm'] },
      { name: 'CMP2', type: 'GT', inputs: ['sin', 'tri'], outputs: ['pwm2'] },
      { name: 'NOT', type: 'NOT', inputs: ['pwm2'], outputs: ['pwm3'] },
      { name: 'G1', type: 'GATE', inputs: ['pwm'], params: { target: 'S1' } },
      { name: 'G2', type: 'GATE', inputs: ['on'], params: { target: 'S2' } },
      { name: 'G3', type: 'GATE', inputs: ['pwm3'], params: { target: 'S3' } },
    ]));
    // 0.5 > triangle (−1 at 0, +1 at 0.5 ms) while the triangle is below 0.5: on at t = 0 until
    // 0.375 ms, off until 0.625 ms.
    const [v1, v2, td, tr, tf, pw, per] = args(card(deck, 'VS1_g'), 'PULSE');
    expect([v1, v2, per]).to.deep.equal([1, 0, 1e-3]);
    expect(td + tr / 2).to.be.closeTo(0.375e-3, 1e-15);
    expect(td + tr + pw + tf / 2).to.be.closeTo(0.625e-3, 1e-15);
    expect(card(deck, 'VS2_g')).to.equal('VS2_g s2_g 0 DC 1');
    // sine against triangle: two independent sources and a B source with a continuous comparison.
    expect(card(deck, 'Vsig_SIN')).to.equal('Vsig_SIN sig_sin 0 SIN(0 0.8 50 0 0 0)');
    expect(args(card(deck, 'Vsig_TRI'), 'PULSE').slice(0, 3)).to.deep.equal([-1, 1, 0]);
    expect(card(deck, 'BS3_g')).to.equal('BS3_g s3_g 0 V = (1 - max(0, min(1, 0.5 + ((v(sig_sin)) - (v(sig_tri))) / 0.000001)))');
  });

  it('names the block of a control chain it cannot write', () => {
    const el = [V('V1', 'p', '0', { waveform: 'dc', value: 1 }), { name: 'S1', type: 'S', nodes: ['p', 'a'] } as NetlistElement, R('R1', 'a', '0')];
    expectError(() => writeSpice(netlist(el, [
      { name: 'ERR', type: 'CONST', outputs: ['e'], params: { value: 1 } },
      { name: 'PI.1', type: 'PI', inputs: ['e'], outputs: ['u'], params: { kp: 1, ki: 10 } },
      { name: 'G', type: 'GATE', inputs: ['u'], params: { target: 'S1' } },
    ])), /PI\.1 \(PI\): a PI block cannot be written/, 'PI.1');
    expectError(() => writeSpice(netlist(el, [{ name: 'G', type: 'GATE', inputs: ['nothing'], params: { target: 'S1' } }])), /no control block produces signal 'nothing'/);
    const thyristor = [V('V1', 'p', '0', { waveform: 'dc', value: 1 }), { name: 'T1', type: 'THYR', nodes: ['p', '0'], params: { trr: 1e-6 } } as NetlistElement];
    expectError(() => writeSpice(netlist(thyristor)), /T1: a thyristor with trr > 0 cannot be written/, 'T1');
    expectError(() => writeSpice(netlist(el, [], { tPre: 1e-3 })), /pre-simulation/);
  });

  it('delays signal-driven sources by one step, as pesim applies the previous control value', () => {
    const deck = writeSpice(netlist([V('V1', 'a', '0', { waveform: 'signal', signal: 's', gain: 2, offset: 1 }), R('R1', 'a', '0')], [
      { name: 'S', type: 'SIGNAL', outputs: ['s'], params: { waveform: 'sine', amplitude: 3, frequency: 1000, offset: 0.5 } },
    ], { dt: 1e-6 }));
    const [vo, va, f, td, theta, phase] = args(card(deck, 'V1'), 'SIN');
    expect([vo, va, f, td, theta]).to.deep.equal([2, 6, 1000, 0, 0]);
    expect(phase).to.be.closeTo(360 - 360 * 1000 * 1e-6, 1e-9);
  });

  it('writes diodes as switch + vf source, or as SPICE diode models', () => {
    const el: NetlistElement[] = [V('V1', 'a', '0', { waveform: 'dc', value: 1 }), { name: 'D1', type: 'D', nodes: ['a', 'k'], params: { vf: 0.8, ron: 0.02 } }, R('R1', 'k', '0')];
    const sw = writeSpice(netlist(el));
    expect(card(sw, 'VD1_vf')).to.equal('VD1_vf a d1_f DC 0.8');
    expect(card(sw, 'BD1_c')).to.equal('BD1_c d1_c 0 V = 0.05 * max(-1, min(1, (v(a,k) - 0.8) / 0.001))');
    expect(card(sw, 'SD1')).to.equal('SD1 d1_f k d1_c 0 sw_d1');
    expect(sw).to.include('.model sw_d1 SW(VT=0 VH=0.001 RON=0.02 ROFF=10000000)');
    const model = writeSpice(netlist(el), { diode: 'model' });
    expect(card(model, 'D1')).to.equal('D1 a k d_d1');
    expect(model).to.include(`.model d_d1 D(IS=${saturationCurrentFor(0.8)} N=1 RS=0.02)`);
  });

  it('writes IGBTs, thyristors, MOSFETs with their anti-parallel diodes, VSW, CSW and TRANS', () => {
    const deck = writeSpice(netlist([
      V('V1', 'p', '0', { waveform: 'dc', value: 10 }),
      { name: 'Q1', type: 'IGBT', nodes: ['p', 'a'], params: { vf: 1, antiparallel: 1, diodeVf: 0.7 } }, R('R1', 'a', '0'),
      { name: 'T1', type: 'THYR', nodes: ['p', 'b'], params: { vf: 1.2 } }, R('R2', 'b', '0'),
      { name: 'M1', type: 'MOSFET', nodes: ['p', 'c'], params: { ron: 0.05, antiparallel: 1 } }, R('R3', 'c', '0'),
      { name: 'SW1', type: 'VSW', nodes: ['p', 'd', 'a', '0'], params: { vt: 2, vh: 0.5, ron: 1, roff: 1e6 } }, R('R4', 'd', '0'),
      { name: 'W1', type: 'CSW', nodes: ['p', 'e'], params: { it: 0.1, control: 'R1' } }, R('R5', 'e', '0'),
      { name: 'TR', type: 'TRANS', nodes: ['p', '0', 's', '0'], params: { n1: 2, n2: 1 } }, R('R6', 's', '0'),
    ]));
    expect(card(deck, 'BSQ1_c')).to.equal('BSQ1_c sq1_c 0 V = min(v(sq1_g), 0.5 + 0.05 * max(-1, min(1, (v(p,a) - 1) / 0.001)))');
    expect(card(deck, 'SQ1')).to.equal('SQ1 sq1_f a sq1_c 0 sw_sq1');
    expect(card(deck, 'VDSQ1_d_vf')).to.equal('VDSQ1_d_vf a dsq1_d_f DC 0.7');
    expect(card(deck, 'BST1_c')).to.equal('BST1_c st1_c 0 V = 0.4805 + 0.01 * min(0, max(-1, min(1, (v(p,b) - 1.2) / 0.001))) + (0.02 + 0.03 * v(st1_g)) * max(0, max(-1, min(1, (v(p,b) - 1.2) / 0.001)))');
    expect(deck).to.include('.model sw_st1 SW(VT=0.5 VH=0.02 RON=0.01 ROFF=10000000)');
    expect(card(deck, 'SM1')).to.equal('SM1 p c sm1_g 0 sw_sm1');
    expect(card(deck, 'VDSM1_d_vf')).to.equal('VDSM1_d_vf c dsm1_d_f DC 0.6');
    expect(card(deck, 'SW1')).to.equal('SW1 p d a 0 sw_sw1');
    expect(deck).to.include('.model sw_sw1 SW(VT=2 VH=0.5 RON=1 ROFF=1000000)');
    // R1 controls W1: it gets a sense source that W1 names.
    expect(card(deck, 'R1')).to.equal('R1 a r1_i 1');
    expect(card(deck, 'W1')).to.equal('W1 p e VR1_i csw_w1');
    expect(deck).to.include('.model csw_w1 CSW(IT=0.1 IH=0 RON=0.01 ROFF=10000000)');
    expect(card(deck, 'ETR')).to.equal('ETR s etr_s p 0 0.5');
    expect(card(deck, 'FETR_p')).to.equal('FETR_p p 0 VETR_s -0.5');
  });

  it('ties a sub-network without ground to it as pesim does', () => {
    const deck = writeSpice(netlist([V('V1', 'p', 'n', { waveform: 'dc', value: 10 }), R('R1', 'p', 'n'), V('V2', 'x', '0', { waveform: 'dc', value: 1 }), R('R2', 'x', '0')]));
    expect(card(deck, 'Rtie_p')).to.equal('Rtie_p p 0 1');
    expect(deck).to.not.include('Rtie_x');
  });

  it('lists the recorded signals in output order with their scope channels', () => {
    const written = buildSpiceDeck(netlist([
      V('V1', 'in', '0', { waveform: 'dc', value: 1 }), R('R1', 'in', 'out'), { name: 'L1', type: 'L', nodes: ['out', '0'], params: { L: 1e-3 } },
    ], [
      { name: 'VM', type: 'VOLT', outputs: ['vio'], params: { nodes: ['in', 'out'] } },
      { name: 'VG', type: 'VOLT', outputs: ['vgo'], params: { nodes: ['0', 'out'] } },
      { name: 'AM', type: 'AMP', outputs: ['ir'], params: { element: 'R1' } },
      { name: 'AL', type: 'AMP', outputs: ['il'], params: { element: 'L1' } },
      { name: 'SC', type: 'SCOPE', inputs: ['vio', 'il', 'ir', 'vgo'] },
    ]));
    expect(written.signals).to.deep.equal([
      { name: 'V(in)', vector: 'v(in)', channels: [] },
      { name: 'V(out)', vector: 'v(out)', channels: [] },
      { name: 'I(V1)', vector: 'i(v1)', channels: [] },
      { name: 'I(L1)', vector: 'i(l1)', channels: ['SC.ch2'] },
      { name: 'V(in,out)', vector: 'v(in,out)', channels: ['SC.ch1'] },
      { name: 'I(R1)', vector: '@r1[i]', channels: ['SC.ch3'] },
      { name: 'V(0,out)', vector: 'sig7', channels: ['SC.ch4'] },
    ]);
    expect(written.deck).to.include('save all @r1[i]\nrun\nlet sig7 = (-v(out))\nwrdata pesim-ngspice.dat v(in) v(out) i(v1) i(l1) v(in,out) @r1[i] sig7\nquit\n');
    expect(written.elementNames).to.include({ V1: 'V1', R1: 'R1' });
  });
});

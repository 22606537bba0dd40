// SPICE reader: every supported card, waveform, model, option and the output scope.
import { expect } from 'chai';
import { readSpice } from '../../../../src/formats/spice/index.js';
import { THERMAL_VOLTAGE } from '../../../../src/formats/spice/models.js';
import { deck, element } from './helpers.js';

describe('spice reader: elements', () => {
  it('reads R, L, C with suffixes, IC= and case-insensitive nodes; keeps element names', () => {
    const { netlist } = deck(['Rload OUT 0 4.7kOhm', 'r2 out Gnd r=10', 'L1 out X 10uH IC=0.5', 'Cout x 0 2.2uF ic=3'].join('\n'));
    expect(netlist.elements).to.deep.equal([
      { name: 'Rload', type: 'R', nodes: ['out', '0'], params: { R: 4700 } },
      { name: 'r2', type: 'R', nodes: ['out', '0'], params: { R: 10 } },
      { name: 'L1', type: 'L', nodes: ['out', 'x'], params: { L: 10e-6, i0: 0.5 } },
      { name: 'Cout', type: 'C', nodes: ['x', '0'], params: { C: 2.2e-6, v0: 3 } },
    ]);
  });

  it('reads K as a coupling of two inductors, whatever their case and order in the deck', () => {
    const { netlist } = deck(['K1 lp LS 0.95', 'Lp a 0 1m', 'Ls b 0 4m', 'R1 b 0 1', 'V1 a 0 1'].join('\n'));
    expect(element(netlist, 'K1')).to.deep.equal({ name: 'K1', type: 'K', nodes: [], params: { k: 0.95, inductors: ['Lp', 'Ls'] } });
  });

  it('reads E, G, F and H with F/H controlled by a voltage source', () => {
    const { netlist } = deck(['Vsense a b 0', 'R1 b 0 1', 'V1 a 0 1', 'E1 e 0 a b 10', 'G1 0 g a 0 1m', 'F1 0 f vsense 2', 'H1 h 0 VSENSE 5k', 'R2 e 0 1', 'R3 g 0 1', 'R4 f 0 1', 'R5 h 0 1'].join('\n'));
    expect(element(netlist, 'E1')).to.deep.equal({ name: 'E1', type: 'E', nodes: ['e', '0', 'a', 'b'], params: { gain: 10 } });
    expect(element(netlist, 'G1')).to.deep.equal({ name: 'G1', type: 'G', nodes: ['0', 'g', 'a', '0'], params: { gm: 1e-3 } });
    expect(element(netlist, 'F1')).to.deep.equal({ name: 'F1', type: 'F', nodes: ['0', 'f'], params: { control: 'Vsense', gain: 2 } });
    expect(element(netlist, 'H1')).to.deep.equal({ name: 'H1', type: 'H', nodes: ['h', '0'], params: { control: 'Vsense', r: 5000 } });
  });

  it('reads S with an SW model (control on its own terminals allowed) and W with a CSW model', () => {
    const { netlist, warnings } = deck([
      'V1 in 0 10', 'S1 in out in out swmod OFF', 'R1 out 0 1', 'Vs out x 0', 'R2 x 0 1', 'W1 x 0 vs cswmod',
      '.model SWMOD sw(VT=0.7 VH=0.1 RON=0.01 ROFF=1e7)', '.model cswmod CSW IT=1m IH=0.2m RON=2 ROFF=1meg',
    ].join('\n'));
    expect(element(netlist, 'S1')).to.deep.equal({ name: 'S1', type: 'VSW', nodes: ['in', 'out', 'in', 'out'], params: { ron: 0.01, roff: 1e7, vt: 0.7, vh: 0.1 } });
    expect(element(netlist, 'W1')).to.deep.equal({ name: 'W1', type: 'CSW', nodes: ['x', '0'], params: { control: 'Vs', ron: 2, roff: 1e6, it: 1e-3, ih: 0.2e-3 } });
    expect(warnings.some((w) => /line 3: S1: initial state OFF ignored/.test(w))).to.equal(true);
  });

  it('uses the SPICE switch defaults RON=1, ROFF=1e12 when the model omits them', () => {
    const { netlist } = deck('V1 a 0 1\nS1 a 0 a 0 sm\n.model sm SW()');
    expect(element(netlist, 'S1').params).to.deep.equal({ ron: 1, roff: 1e12, vt: 0, vh: 0 });
  });

  it('maps diode models onto piecewise-linear diodes', () => {
    const { netlist, warnings } = deck([
      'V1 a 0 1', 'D1 a 0 dplain', 'D2 a 0 drs', 'D3 a 0 dis', 'D4 a 0 dis 2', 'D5 a 0 d1n4148',
      '.model dplain D', '.model drs D(RS=0.05)', '.model dis D(IS=1e-12 N=2 RS=0.1)',
      '.model D1N4148 D (IS=2.52n RS=.568 N=1.752 CJO=4p M=.4 TT=20n Iave=200m Vpk=75 mfg=OnSemi type=silicon)',
    ].join('\n'));
    expect(element(netlist, 'D1').params).to.deep.equal({ vf: 0.7, ron: 0.01, roff: 1e7 });
    expect(element(netlist, 'D2').params).to.deep.equal({ vf: 0.7, ron: 0.05, roff: 1e7 });
    const vf3 = 2 * THERMAL_VOLTAGE * Math.log1p(1 / 1e-12);
    expect(element(netlist, 'D3').params!.vf).to.be.closeTo(vf3, 1e-12);
    expect(vf3).to.be.closeTo(1.4289, 1e-3);
    // area 2: IS doubles, RS halves.
    expect(element(netlist, 'D4').params!.vf).to.be.closeTo(2 * THERMAL_VOLTAGE * Math.log1p(1 / 2e-12), 1e-12);
    expect(element(netlist, 'D4').params!.ron).to.be.closeTo(0.05, 1e-15);
    expect(element(netlist, 'D5').params!.vf).to.be.closeTo(1.752 * THERMAL_VOLTAGE * Math.log1p(1 / 2.52e-9), 1e-12);
    expect(element(netlist, 'D5').params!.ron).to.equal(0.568);
    expect(warnings.some((w) => /\.model D1N4148: parameters CJO, M, TT, IAVE, VPK, MFG, TYPE ignored/.test(w))).to.equal(true);
  });
});

describe('spice reader: sources', () => {
  it('reads DC values in every form', () => {
    const { netlist, warnings } = deck(['V1 a 0 5', 'V2 b 0 DC 3.3', 'V3 c 0', 'I1 0 d dc 1m', 'I2 0 e 2mA AC 1 0', 'R1 a b 1', 'R2 c d 1', 'R3 e 0 1'].join('\n'));
    expect(element(netlist, 'V1').params).to.deep.equal({ waveform: 'dc', value: 5 });
    expect(element(netlist, 'V2').params).to.deep.equal({ waveform: 'dc', value: 3.3 });
    expect(element(netlist, 'V3').params).to.deep.equal({ waveform: 'dc', value: 0 });
    expect(element(netlist, 'I1')).to.deep.equal({ name: 'I1', type: 'I', nodes: ['0', 'd'], params: { waveform: 'dc', value: 1e-3 } });
    expect(element(netlist, 'I2').params).to.deep.equal({ waveform: 'dc', value: 2e-3 });
    expect(warnings.some((w) => /line 6: I2: AC specification ignored/.test(w))).to.equal(true);
  });

  it('reads SIN with defaults (FREQ = 1/TSTOP) and its phase', () => {
    const { netlist } = deck('V1 a 0 DC 0 SIN(1 2 50 1m 0 90)\nV2 b 0 sin 0 1\nR1 a b 1', '.tran 1u 20m');
    expect(element(netlist, 'V1').params).to.deep.equal({ waveform: 'sine', offset: 1, amplitude: 2, frequency: 50, delay: 1e-3, phase: 90 });
    expect(element(netlist, 'V2').params).to.deep.equal({ waveform: 'sine', offset: 0, amplitude: 1, frequency: 50, delay: 0, phase: 0 });
  });

  it('reads PULSE with ngspice defaults: TR/TF → TSTEP, PW → TSTOP, no PER → one pulse', () => {
    const { netlist } = deck(['V1 a 0 PULSE(0 5 1u 2n 3n 10u 20u)', 'V2 b 0 PULSE(-1 1)', 'V3 c 0 PULSE(0 1 0 0 0 5u 10u)', 'V4 d 0 PULSE(0 1 0 1u 1u 0 4u)', 'R1 a b 1', 'R2 c d 1'].join('\n'), '.tran 100n 1m');
    expect(element(netlist, 'V1').params).to.deep.equal({ waveform: 'pulse', v1: 0, v2: 5, delay: 1e-6, rise: 2e-9, fall: 3e-9, width: 10e-6, period: 20e-6 });
    expect(element(netlist, 'V2').params).to.deep.equal({ waveform: 'pulse', v1: -1, v2: 1, delay: 0, rise: 100e-9, fall: 100e-9, width: 1e-3, period: 0 });
    expect(element(netlist, 'V3').params).to.include({ rise: 100e-9, fall: 100e-9, width: 5e-6, period: 10e-6 });
    // PW 0 → TSTOP overruns PER: ngspice restarts the period at V2; written as width PER − TR, fall 0.
    expect(element(netlist, 'V4').params).to.include({ rise: 1e-6, fall: 0, width: 3e-6, period: 4e-6 });
  });

  it('reads PWL pairs and separates equal times with a warning', () => {
    const { netlist, warnings } = deck('I1 0 a PWL(0 0 1m 1 1m 2 3m 0)\nR1 a 0 1', '.tran 1u 5m');
    expect(element(netlist, 'I1').params).to.deep.equal({ waveform: 'pwl', times: [0, 1e-3, 1e-3 + 1e-12, 3e-3], values: [0, 1, 2, 0] });
    expect(warnings.some((w) => /line 2: I1: PWL step at t = 0\.001 s moved/.test(w))).to.equal(true);
  });

  it('keeps parameter references in source values', () => {
    const { netlist } = deck('.param amp=10 f=60\nV1 a 0 SIN(0 {amp} {f})\nR1 a 0 1');
    expect(element(netlist, 'V1').params).to.include({ amplitude: '$amp', frequency: '$f' });
  });
});

describe('spice reader: control cards and outputs', () => {
  it('maps .tran to dt/tEnd (TMAX when smaller), .options to the solver, the title to the name', () => {
    const base = 'my circuit\nR1 a 0 1\nV1 a 0 1\n';
    expect(readSpice(`${base}.tran 10u 5m\n`).netlist).to.deep.include({ name: 'my circuit', settings: { tEnd: 5e-3, dt: 10e-6, solver: 'trapezoidal' } });
    expect(readSpice(`${base}.tran 10u 5m 0 1u uic\n`).netlist.settings).to.deep.equal({ tEnd: 5e-3, dt: 1e-6, solver: 'trapezoidal' });
    expect(readSpice(`${base}.tran 10u 5m 0 100u\n`).netlist.settings.dt).to.equal(10e-6);
    expect(readSpice(`${base}.tran 1u 1m\n.options method=gear\n`).netlist.settings.solver).to.equal('gear-shichman');
    expect(readSpice(`${base}.tran 1u 1m\n.option METHOD=Gear maxord=1\n`).netlist.settings.solver).to.equal('backward-euler');
    expect(readSpice(`${base}.tran 1u 1m\n.options method=trap reltol=1e-4\n`).netlist.settings.solver).to.equal('trapezoidal');
    const { warnings } = readSpice(`${base}.tran 1u 1m 0.5m\n.options method=trap reltol=1e-4\n`);
    expect(warnings).to.include('line 5: .options reltol ignored');
    expect(warnings).to.include('line 4: .tran TSTART = 0.0005 s: pesim records from t = 0');
  });

  it('warns about .tran without UIC when there are capacitors or inductors', () => {
    const without = readSpice('t\nV1 a 0 1\nR1 a b 1\nC1 b 0 1u\n.tran 1u 1m\n').warnings;
    expect(without.some((w) => /line 5: \.tran without UIC/.test(w))).to.equal(true);
    expect(readSpice('t\nV1 a 0 1\nR1 a b 1\nC1 b 0 1u\n.tran 1u 1m uic\n').warnings).to.deep.equal([]);
  });

  it('skips .control blocks and output cards with a warning naming the line', () => {
    const { netlist, warnings } = readSpice([
      't', 'V1 a 0 1', 'R1 a 0 1', '.control', 'run', 'plot v(a)', '.endc', '.print tran v(a)', '.SAVE all',
      '.meas tran x max v(a)', '.op', '.probe', '.plot tran v(a)', '.ac dec 10 1 1k', '.tran 1u 1m', '.end',
    ].join('\n'));
    expect(netlist.elements).to.have.length(2);
    expect(warnings).to.deep.equal([
      'line 4: .control block (lines 4–7) skipped',
      'line 8: .print skipped (every node voltage and source/inductor current is recorded in scope SPICE)',
      'line 9: .SAVE skipped (every node voltage and source/inductor current is recorded in scope SPICE)',
      'line 10: .meas skipped (every node voltage and source/inductor current is recorded in scope SPICE)',
      'line 11: .op skipped (every node voltage and source/inductor current is recorded in scope SPICE)',
      'line 12: .probe skipped (every node voltage and source/inductor current is recorded in scope SPICE)',
      'line 13: .plot skipped (every node voltage and source/inductor current is recorded in scope SPICE)',
      'line 14: .ac analysis skipped (only .tran is simulated)',
    ]);
  });

  it('names the file in warnings when a file name is given', () => {
    const { warnings } = readSpice('t\nV1 a 0 1\nR1 a 0 1\n.print tran v(a)\n.tran 1u 1m\n', 'rc.cir');
    expect(warnings).to.deep.equal(['rc.cir:4: .print skipped (every node voltage and source/inductor current is recorded in scope SPICE)']);
  });

  it('records every node voltage and every L, V and I current in the scope SPICE', () => {
    const { netlist } = deck('V1 in 0 1\nR1 in mid 1\nL1 mid out 1m\nC1 out 0 1u\nI1 0 out 1m');
    const blocks = netlist.blocks!;
    expect(blocks.map((b) => [b.name, b.type, b.params])).to.deep.equal([
      ['SPICE.V(in)', 'VOLT', { nodes: ['in', '0'] }],
      ['SPICE.V(mid)', 'VOLT', { nodes: ['mid', '0'] }],
      ['SPICE.V(out)', 'VOLT', { nodes: ['out', '0'] }],
      ['SPICE.I(V1)', 'AMP', { element: 'V1' }],
      ['SPICE.I(L1)', 'AMP', { element: 'L1' }],
      ['SPICE.I(I1)', 'AMP', { element: 'I1' }],
      ['SPICE', 'SCOPE', { channelNames: ['V(in)', 'V(mid)', 'V(out)', 'I(V1)', 'I(L1)', 'I(I1)'] }],
    ]);
    expect(blocks[6].inputs).to.deep.equal(['V(in)', 'V(mid)', 'V(out)', 'I(V1)', 'I(L1)', 'I(I1)']);
    expect(blocks[0].outputs).to.deep.equal(['V(in)']);
  });
});

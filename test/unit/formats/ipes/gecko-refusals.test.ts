// Models GeckoCIRCUITS opens and simulates that pesim used to refuse, each in a small circuit of
// test/fixtures/gecko (written for these tests, see SOURCES.md there) and checked against the
// numbers GeckoCIRCUITS itself computed for it (gecko-reference.ts).
import { gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import { readIpes, writeIpes } from '../../../../src/formats/ipes/index.js';
import { block, element, netlistError } from './helpers.js';
import { thermalElement } from './thermal-helpers.js';
import { expectGecko, runFixture } from './gecko-reference.js';

describe('GeckoCIRCUITS models pesim used to refuse, against GeckoCIRCUITS', function () {
  this.timeout(120_000);

  it('zero_resistance: R = 0 Ω runs as 1e-9 Ω and L = 0 H as 1e-12 H (LKMatrices FAST_NULL_R / FAST_NULL_L), with warnings', () => {
    // A 100 V, 50 Hz source feeds L.1 + R.2, C.1 and L.2 + R.4 through R.1 = 0 Ω; R.3 = 0 Ω
    // links C.1, L.2 = 0 H links R.4; R.5 = 0 Ω shorts a 2 V source (2e9 A through 1e-9 Ω).
    const { netlist, warnings, result } = runFixture('zero_resistance.ipes');
    for (const r of ['R.1', 'R.3', 'R.5']) {
      expect(element(netlist, r).params).to.deep.equal({ R: 1e-9 });
      expect(warnings).to.include(`${r}: resistance 0 Ω is below GeckoCIRCUITS' smallest resistance of 1e-9 Ω: simulated as 1e-9 Ω, as GeckoCIRCUITS does`);
    }
    expect(element(netlist, 'L.2').params).to.deep.equal({ L: 1e-12, i0: 0 });
    expect(warnings).to.include("L.2: inductance 0 H is below GeckoCIRCUITS' smallest inductance of 1e-12 H: simulated as 1e-12 H, as GeckoCIRCUITS does");
    // GeckoCIRCUITS (commit 89806291, headless), 0.08 … 0.1 s.
    expectGecko(result, {
      iL1: { avg: -2.384e-11, rms: 11.97377, min: -16.93346, max: 16.93346 },
      iR1: { avg: 0, rms: 14.29013, min: -20.20929, max: 20.20929 },
      iC1: { avg: 0, rms: 2.221441, min: -3.141593, max: 3.141593 },
      iL2: { avg: -1.192e-11, rms: 3.535534, min: -5, max: 5 },
      iR5: { avg: 2e9, rms: 2e9, min: 2e9, max: 2e9 },
      va: { avg: 4.767e-11, rms: 70.71068, min: -100, max: 100 },
      vR1: { avg: 4.440e-20, rms: 1.429013e-8, min: -2.020929e-8, max: 2.020929e-8 },
      vL2: { avg: 1.802e-22, rms: 1.110721e-9, min: -1.570796e-9, max: 1.570796e-9 },
    });
  });

  it('resistor_losses: a Pv coupled to a resistor heats its node with the resistor\'s v·i (LossCalculatorResistor)', () => {
    // Pv.1 takes R.1's losses (10 Ω in series with 10 mH on 100 V, 50 Hz) into Rth.1 0.5 K/W ‖
    // Cth.1 0.01 J/K; Pv.2 R.2's (4 Ω on 20 V DC: 100 W) into Rth.2 1 K/W ‖ Cth.2 0.1 J/K. FLOW
    // meters on the Pvs read the losses; a resistor's loss is not split, so its conduction part is 0.
    const { netlist, result } = runFixture('resistor_losses.ipes');
    expect(readIpes(writeIpes(netlist), 'resistor_losses.ipes').netlist).to.deep.equal(netlist);
    expect(thermalElement(netlist, 'Pv.1')).to.deep.equal({ name: 'Pv.1', type: 'PV', nodes: ['Tj1', '0'], params: { device: 'R.1' } });
    expect(block(netlist, 'FLOW.3').params).to.deep.equal({ device: 'R.2', part: 'conduction' });
    // GeckoCIRCUITS (commit 89806291, headless), 0.4 … 0.5 s.
    expectGecko(result, {
      T1: { avg: 227.3269, rms: 232.4878, min: 158.4348, max: 296.2190 },
      T2: { avg: 98.83256, rms: 98.83311, min: 98.15900, max: 99.31638 },
      P1: { avg: 454.6765, rms: 556.8627, min: 0.0002097, max: 909.3528 },
      P2: { avg: 100, rms: 100, min: 100, max: 100 },
      i1: { avg: 0, rms: 6.742971, min: -9.536, max: 9.536 },
    });
    const p2cond = result.channels.find((c) => c.label === 'P2cond')!;
    expect(result.measurements[`${p2cond.key}_max`]).to.equal(0);
  });

  it("lisn_rectifier: the LISN (typ 13) is read as its fixed network (GeckoCIRCUITS' LISN hidden subcircuit)", () => {
    // Three 230 V phases R, S, T through LISN.1 to a diode bridge (U, V, W) with a 2 mH / 100 µF /
    // 50 Ω DC side and 10 nF from its minus rail to the reference; the LISN's n is the reference,
    // its measuring terminals a, b, c the nodes ma, mb, mc (50 Ω each).
    const { netlist, result } = runFixture('lisn_rectifier.ipes');
    const lisn = netlist.elements.filter((e) => e.name.startsWith('LISN.1.'));
    expect(lisn.map((e) => e.name)).to.deep.equal(['Lin', 'Lout', 'Rout', 'Rgnd', 'Cgnd'].flatMap((p) => [1, 2, 3].map((k) => `LISN.1.${p}${k}`)));
    expect(element(netlist, 'LISN.1.Lin1')).to.deep.equal({ name: 'LISN.1.Lin1', type: 'L', nodes: ['R', 'LISN.1.intern1'], params: { L: 50e-6, i0: 0 } });
    expect(element(netlist, 'LISN.1.Lout2')).to.deep.equal({ name: 'LISN.1.Lout2', type: 'L', nodes: ['LISN.1.intern2', 'LISN.1.intern8'], params: { L: 300e-9, i0: 0 } });
    expect(element(netlist, 'LISN.1.Rout3')).to.deep.equal({ name: 'LISN.1.Rout3', type: 'R', nodes: ['LISN.1.intern9', 'W'], params: { R: 0.02 } });
    expect(element(netlist, 'LISN.1.Rgnd1')).to.deep.equal({ name: 'LISN.1.Rgnd1', type: 'R', nodes: ['ma', '0'], params: { R: 50 } });
    expect(element(netlist, 'LISN.1.Cgnd3')).to.deep.equal({ name: 'LISN.1.Cgnd3', type: 'C', nodes: ['LISN.1.intern3', 'mc'], params: { C: 250e-9, v0: 0 } });
    expect(readIpes(writeIpes(netlist), 'lisn_rectifier.ipes').netlist).to.deep.equal(netlist);
    // GeckoCIRCUITS (commit 89806291, headless), 32 … 40 ms.
    expectGecko(result, {
      ia: { avg: 9.124400, rms: 13.98612, min: -0.04660017, max: 28.10155 },
      iy: { avg: -1.135854e-4, rms: 5.746002e-4, min: -1.175154e-3, max: 2.361681e-3 },
      va: { avg: 0.2942437, rms: 0.8169083, min: -0.9879684, max: 2.333045 },
      vb: { avg: -0.9447372, rms: 0.9957228, min: -2.333001, max: -0.1768645 },
      vc: { avg: 0.6504935, rms: 0.8931904, min: -1.103712, max: 1.277321 },
      vU: { avg: -233.9482, rms: 250.6300, min: -325.2695, max: -0.01022176 },
      vdc: { avg: 540.5792, rms: 543.3864, min: 469.8560, max: 631.4405 },
    });
  });

  it('writes a LISN back as GeckoCIRCUITS\' LISN, and refuses one whose fixed elements were changed', () => {
    const { netlist } = runFixture('lisn_rectifier.ipes');
    const text = gunzipSync(writeIpes(netlist)).toString('utf-8');
    expect(text.match(/\ntyp 13\n/g)).to.have.length(1);
    expect(text).to.include('labelAnfangsKnoten[] /R/S/T\nlabelEndKnoten[] /U/V/W/0/ma/mb/mc\n');
    expect(text).to.not.include('LISN.1.Lin1');
    element(netlist, 'LISN.1.Rgnd2').params = { R: 10 };
    const e = netlistError(() => writeIpes(netlist));
    expect(e.message).to.include("LISN.1: GeckoCIRCUITS' LISN has fixed elements (per phase Lin 50 µH, Lout 300 nH, Rout 20 mΩ, Cgnd 250 nF, Rgnd 50 Ω); LISN.1.Lin1 … LISN.1.Cgnd3 no longer form it");
  });

  it('java_lists: a Java block with ArrayList / List fields, boxing and for-each runs as GeckoCIRCUITS runs it', () => {
    // JAVA.1 keeps the last 40 samples of a 10 V, 1 kHz sine in an ArrayList<Double> (created in
    // its static code) and the steps between rising zero crossings in a List<Integer>; outputs:
    // their mean, maximum (for-each over Double), last period, count, contains(1000) and the
    // index of the maximum. Written by pesim's writer, whose Java blocks import java.util.*.
    const { netlist, result } = runFixture('java_lists.ipes');
    expect(block(netlist, 'JAVA.1').params!.variables).to.include('static List<Integer> periods = new ArrayList<Integer>();');
    expect(gunzipSync(writeIpes(netlist)).toString('utf-8')).to.include('<importCode>\nimport static java.lang.Math.*;\nimport java.util.*;\n<\\importCode>');
    // GeckoCIRCUITS (commit 89806291, headless; the block compiled by its Java compiler), 16 … 20 ms.
    expectGecko(result, {
      mean: { avg: 1.295944e-4, rms: 7.051607, min: -9.973703, max: 9.973703 },
      max: { avg: 0.7792642, rms: 7.071612, min: -9.922887, max: 9.999990 },
      period: { avg: 1000, rms: 1000, min: 1000, max: 1000 },
      count: { avg: 3, rms: 3, min: 3, max: 3 },
      has1000: { avg: 1, rms: 1, min: 1, max: 1 },
      argmax: { avg: 19.50487, rms: 27.40096, min: 0, max: 39 },
    });
  });
});

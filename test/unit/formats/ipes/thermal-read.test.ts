// The .ipes reader's thermal domain: thermal elements, their nodes (geometry and labels, the
// thermal zero of Pv and TREF as node 0), Pv coupling, TEMP/FLOW meters, loss parameters and
// measured loss curves (embedded, beside the file, missing: GeckoCIRCUITS' default curves), on
// hand-written texts and on the corpus files with thermal networks.
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { simulateSync } from '../../../../src/engine/index.js';
import { readIpesText } from '../../../../src/formats/ipes/index.js';
import { GECKO_DEFAULT_LOSS_MODEL } from '../../../../src/formats/ipes/losses.js';
import type { ThermalNetlist } from '../../../../src/formats/thermal-netlist.js';
import { block, edit, element, netlistError } from './helpers.js';
import { CORPUS_THERMAL, corpusText, eTH, thermalBuckText, thermalElement } from './thermal-helpers.js';

const read = (text: string, options = {}): ThermalNetlist => readIpesText(text, 'thermal.ipes', options).netlist;

const LOSS_FILE = [
  'anzMesskurvenPvSWITCH 1', '<SchaltverlusteMesskurve>', 'tj 100.0', 'uBlock 300.0',
  'data[][] 4 3 0.0 10.0 20.0 0.0 1.0E-3 3.0E-3 0.0 2.0E-3 5.0E-3 0.0 3.0E-3 8.0E-3', '<\\SchaltverlusteMesskurve>',
  'anzMesskurvenPvCOND 1', '<LeitverlusteMesskurve>', 'tj 100.0', 'data[][] 2 3 0.0 1.0 1.5 0.0 10.0 30.0', '<\\LeitverlusteMesskurve>',
].join('\n');

/** Makes D.1 of buck_simple use the detailed model from the named loss file. */
const detailedDiode = (text: string, datnam: string): string =>
  edit(text, 'verlustTyp 1\nrON 0.01\nuf 0.6', `verlustTyp 2\ndatnamGemesseneVerluste ${datnam}\nrON 0.01\nuf 0.6`);

describe('ipes reader: thermal domain', () => {
  it('maps Rth, Cth, DT, HEAT-SOURCE and Pv with their values, directions and nodes', () => {
    const n = read(thermalBuckText());
    expect(n.thermal!.map((t) => t.name)).to.deep.equal(['Pv.1', 'Pv.1.Rpar', 'Rth.1', 'Cth.1', 'Rth.2', 'DT.1', 'HEAT-SOURCE.1']);
    expect(thermalElement(n, 'Rth.1')).to.deep.equal({ name: 'Rth.1', type: 'RTH', nodes: ['Tj', 'Tc'], params: { R: 0.5 } });
    expect(thermalElement(n, 'Cth.1')).to.deep.equal({ name: 'Cth.1', type: 'CTH', nodes: ['Tj', 'Tc'], params: { C: 0.02, T0: 3 } });
    expect(thermalElement(n, 'Rth.2').nodes).to.deep.equal(['Tc', 'Tamb']);
    // DT: T(XIN) − T(YOUT) = 40; YOUT is Tzero, tied to the thermal zero by TREF.1.
    expect(thermalElement(n, 'DT.1')).to.deep.equal({ name: 'DT.1', type: 'TSRC', nodes: ['Tamb', '0'], params: { T: 40 } });
    // HEAT-SOURCE drives its flow from XIN (Tamb) into YOUT (Tc): QSRC into its first node.
    expect(thermalElement(n, 'HEAT-SOURCE.1')).to.deep.equal({ name: 'HEAT-SOURCE.1', type: 'QSRC', nodes: ['Tc', 'Tamb'], params: { P: 2 } });
    // Pv: losses of D.1 into its YOUT (wired to Rth.1's XIN, labelled Tj there) out of the zero.
    expect(thermalElement(n, 'Pv.1')).to.deep.equal({ name: 'Pv.1', type: 'PV', nodes: ['Tj', '0'], params: { device: 'D.1' } });
    expect(thermalElement(n, 'Pv.1.Rpar')).to.deep.equal({ name: 'Pv.1.Rpar', type: 'RTH', nodes: ['Tj', '0'], params: { R: 10000 } });
    expect((n.layout!.ipes as { synthetic: string[] }).synthetic).to.include('Pv.1.Rpar');
  });

  it('reads Rth below 1e-9 K/W as 1e-9 K/W, with a warning (GeckoCIRCUITS LKMatrices FAST_NULL_R on TH_RTH)', () => {
    const { netlist, warnings } = readIpesText(edit(thermalBuckText(), 'parameter[] 0.5 ', 'parameter[] 0.0 '), 'thermal.ipes');
    expect(thermalElement(netlist, 'Rth.1').params).to.deep.equal({ R: 1e-9 });
    expect(warnings).to.include("Rth.1: resistance 0 K/W is below GeckoCIRCUITS' smallest resistance of 1e-9 K/W: simulated as 1e-9 K/W, as GeckoCIRCUITS does");
  });

  it('maps TEMP to node temperatures, FLOW to an element and FLOW on a Pv to LOSS', () => {
    const n = read(thermalBuckText());
    expect(block(n, 'TEMP.1')).to.deep.equal({ name: 'TEMP.1', type: 'TEMP', outputs: ['tj'], params: { nodes: ['Tj', '0'] } });
    expect(block(n, 'FLOW.1')).to.deep.equal({ name: 'FLOW.1', type: 'FLOW', outputs: ['pcase'], params: { element: 'Rth.2' } });
    expect(block(n, 'FLOW.2')).to.deep.equal({ name: 'FLOW.2', type: 'LOSS', outputs: ['pcond'], params: { device: 'D.1', part: 'conduction' } });
  });

  it('gives the simple loss parameters to devices whose losses are used, only to them', () => {
    const n = read(thermalBuckText());
    expect(element(n, 'D.1').params).to.deep.equal({ vf: 0.6, ron: 0.01, roff: 1e7, vfOff: 1, kOn: 0, kOff: 0, uSWnorm: -1 });
    expect(element(n, 'S.1').params).to.not.have.property('kOn');
  });

  it('names the thermal reference 0 without a TREF (Pv only) and keeps the zero label for the writer', () => {
    const text = thermalBuckText().replace(/eTH \(90\)\n<ElementTHERM>\n(?:(?!<\\ElementTHERM>)[^])*idStringDialog TREF\.1\n<\\ElementTHERM>\n/, '');
    expect(text).to.not.contain('TREF.1');
    const n = read(text);
    expect(thermalElement(n, 'DT.1').nodes).to.deep.equal(['Tamb', '0']);
    expect((n.layout!.ipes as { thermalLabels: Record<string, string> }).thermalLabels).to.deep.equal({ '0': 'Tzero' });
  });

  it('rejects thermal modules, nonlinear Cth and non-constant sources, naming each', () => {
    const extra = [
      eTH(42, 'MOD.1', 60, 30, 'a', 'b', ''),
      eTH(47, 'Cth.9', 60, 40, 'a', 'b', '1.0 ', ['isNonlinear true']),
      eTH(45, 'DT.9', 60, 50, 'a', 'b', '402.0 40.0 '),
    ];
    const error = netlistError(() => read(thermalBuckText(extra)));
    expect(error.code).to.equal('UNSUPPORTED_COMPONENTS');
    expect(error.details.map((d) => d.component)).to.deep.equal(['MOD.1', 'Cth.9', 'DT.9']);
    expect(error.message).to.contain('thermal module').and.contain('nonlinear thermal capacitance').and.contain('source type 402');
  });

  it('reports a TEMP label that is no thermal label', () => {
    const error = netlistError(() => read(thermalBuckText().replace('/Tj/Tzero/NIX_NIX_NIX', '/Tx/Tzero/NIX_NIX_NIX')));
    expect(error.code).to.equal('UNKNOWN_REFERENCE');
    expect(error.message).to.contain("TEMP.1: measures between labels 'Tx' and 'Tzero', but 'Tx' is not a label");
  });

  it('reads a detailed loss model from a file beside the .ipes file; without it, GeckoCIRCUITS\' default curves and a warning naming the file', () => {
    const text = detailedDiode(thermalBuckText(), 'Z:\\lab\\diode.scl');
    const { netlist: fallback, warnings } = readIpesText(text, 'thermal.ipes');
    // VerlustBerechnungDetailed keeps the curves of its constructor when no loss file is read.
    expect(element(fallback, 'D.1').params?.lossModel).to.equal('geckoDefaultCurves');
    expect(fallback.lossModels).to.deep.equal({ geckoDefaultCurves: {
      conduction: [{ T: 25, u: [0, 0.7, 1.7], i: [0, 0.5, 7] }, { T: 115, u: [0, 0.8, 2.1], i: [0, 0.6, 8] }],
      turnOn: [{ T: 25, uRef: 400, i: [0, 10, 12], E: [0, 0.01, 0.012] }, { T: 110, uRef: 400, i: [0, 5, 9], E: [0, 0.006, 0.012] }],
      turnOff: [{ T: 25, uRef: 400, i: [0, 10, 12], E: [0, 0.005, 0.007] }, { T: 110, uRef: 400, i: [0, 5, 9], E: [0, 0.004, 0.007] }],
    } });
    expect(warnings.find((w) => w.startsWith('D.1: detailed loss model'))).to.contain(
      "loss file 'diode.scl' (saved path Z:\\lab\\diode.scl)").and.contain('default curves');
    const files: Record<string, Uint8Array> = { 'diode.scl': gzipSync(Buffer.from(LOSS_FILE)) };
    const n = read(text, { companion: (name: string) => files[name] });
    expect(element(n, 'D.1').params?.lossModel).to.equal('diode');
    expect(n.lossModels).to.deep.equal({ diode: {
      conduction: [{ T: 100, u: [0, 1, 1.5], i: [0, 10, 30] }],
      turnOn: [{ T: 100, uRef: 300, i: [0, 10, 20], E: [0, 1e-3, 3e-3] }],
      turnOff: [{ T: 100, uRef: 300, i: [0, 10, 20], E: [0, 2e-3, 5e-3] }],
    } });
  });

  it('GeckoCIRCUITS\' default curves: a diode carrying 5 A without thermal coupling (100 °C) loses 5 A · u(100 °C, 5 A)', () => {
    // u at 25 °C: 0.7 + (5 − 0.5)/(7 − 0.5)·(1.7 − 0.7); at 115 °C: 0.8 + (5 − 0.6)/(8 − 0.6)·(2.1 − 0.8);
    // 100 °C lies 75/90 of the way (DetailedLossLookupTable.getInterpolatedXValue).
    const u25 = 0.7 + (4.5 / 6.5) * 1.0;
    const u115 = 0.8 + (4.4 / 7.4) * 1.3;
    const expected = 5 * (u25 + (75 / 90) * (u115 - u25));
    expect(expected).to.be.closeTo(7.71431, 1e-5);
    const r = simulateSync({
      elements: [
        { name: 'I.1', type: 'I', nodes: ['0', 'a'], params: { waveform: 'dc', value: 5 } },
        { name: 'D.1', type: 'D', nodes: ['a', '0'], params: { vf: 0.7, ron: 0.01, roff: 1e7, lossModel: 'geckoDefaultCurves' } },
      ],
      blocks: [{ name: 'LOSS.1', type: 'LOSS', outputs: ['p'], params: { device: 'D.1' } }],
      lossModels: { geckoDefaultCurves: GECKO_DEFAULT_LOSS_MODEL },
      settings: { tEnd: 1e-5, dt: 1e-6 },
    });
    const loss = r.losses!.find((l) => l.device === 'D.1')!;
    expect(loss.averageCurrent).to.be.closeTo(5, 1e-12);
    expect(loss.conductionLoss).to.be.closeTo(expected, 1e-12);
    expect(loss.switchingLoss).to.equal(0);
  });

  it('029: the Foster chain of the IGBT (values and connectivity) and the diode\'s Pv', () => {
    const n = read(corpusText('029_BuckBoost_thermal_with_java.ipes', CORPUS_THERMAL['029_BuckBoost_thermal_with_java.ipes']));
    const chain = ['Rth.5', 'Rth.6', 'Rth.7', 'Rth.8'].map((name) => thermalElement(n, name));
    expect(chain.map((t) => t.params?.R)).to.deep.equal([0.3837, 0.4533, 0.5877, 0.2483]);
    const caps = ['Cth.1', 'Cth.2', 'Cth.3', 'Cth.4'].map((name) => thermalElement(n, name));
    expect(caps.map((t) => t.params?.C)).to.deep.equal([0.05047, 0.004758, 4.965e-4, 4.717e-5]);
    // Each Cth lies across its Rth (Foster network), the stages in series from Tj to TSink.
    caps.forEach((c, k) => expect(c.nodes).to.deep.equal(chain[k].nodes));
    expect(chain[0].nodes[0]).to.equal('Tj');
    for (let k = 1; k < 4; k++) expect(chain[k].nodes[0]).to.equal(chain[k - 1].nodes[1]);
    expect(chain[3].nodes[1]).to.equal('TSink');
    expect(thermalElement(n, 'Rth.9')).to.deep.equal({ name: 'Rth.9', type: 'RTH', nodes: ['TSink', 'Tamb'], params: { R: 0.8 } });
    expect(thermalElement(n, 'Temp.1')).to.deep.equal({ name: 'Temp.1', type: 'TSRC', nodes: ['Tamb', '0'], params: { T: 25 } });
    expect(thermalElement(n, 'Pv.1')).to.deep.equal({ name: 'Pv.1', type: 'PV', nodes: ['Tj', '0'], params: { device: 'IGBT.1' } });
    expect(thermalElement(n, 'Pv.2').params).to.deep.equal({ device: 'D.1' });
    expect(block(n, 'FLOW.1')).to.deep.equal({ name: 'FLOW.1', type: 'LOSS', outputs: ['PSw'], params: { device: 'IGBT.1' } });
    expect(block(n, 'TEMP.2').params).to.deep.equal({ nodes: ['Tj', '0'] });
    expect(element(n, 'IGBT.1').params).to.include({ kOn: 3e-5, kOff: 1.5e-5, uSWnorm: 600 });
  });

  it('035: the IGBT loss curves equal the numbers of its embedded loss file', () => {
    const n = read(corpusText('035_NPCmodel.ipes', CORPUS_THERMAL['035_NPCmodel.ipes']));
    const igbt = n.elements.find((e) => e.params?.lossModel === 'IGBTloss');
    expect(igbt, 'an element using IGBTloss').to.not.equal(undefined);
    const model = n.lossModels!.IGBTloss;
    expect(model.conduction).to.deep.equal([{ T: 125, u: [0.4, 0.6, 0.8, 1.2, 1.6, 2, 2.4, 2.68], i: [0, 20, 44, 130, 266, 400, 525, 600] }]);
    const currents = [0, 25, 50, 100, 150, 200, 250, 300, 350, 400, 450, 500, 550, 600];
    expect(model.turnOn).to.deep.equal([{ T: 125, uRef: 300, i: currents,
      E: [3.2e-4, 4.65e-4, 6.1e-4, 9e-4, 0.00119, 0.00148, 0.00177, 0.00206, 0.00235, 0.00264, 0.00293, 0.00322, 0.00351, 0.0038] }]);
    expect(model.turnOff[0].E).to.deep.equal([0, 0.0044, 0.0055, 0.0075, 0.01, 0.0125, 0.015, 0.0175, 0.02, 0.023, 0.0282, 0.0335, 0.0385, 0.045]);
    expect(Object.keys(n.lossModels!).sort()).to.deep.equal(['Diodeloss', 'IGBTloss']);
  });

  it('025: loss files linked as external are read from the embedded copy of the same name', () => {
    const n = read(corpusText('025_Swiss_Rect.ipes', CORPUS_THERMAL['025_Swiss_Rect.ipes']));
    expect(Object.keys(n.lossModels!).sort()).to.deep.equal(['C2D20120D', 'DSEI30-12A', 'IHW40T120', 'IKW40T120']);
    expect(element(n, 'IGBT.1').params?.lossModel).to.equal('IKW40T120');
    expect(n.lossModels!.IKW40T120.conduction[0]).to.deep.equal({ T: 25, u: [0, 0.8, 1, 1.5, 2, 2.5, 3, 3.5, 4, 5, 6], i: [0, 0, 5, 19, 34, 52, 69, 82, 93, 102, 104] });
  });

  it('017: a detailed loss model without data is ignored with a warning when no Pv uses it', () => {
    const { netlist, warnings } = readIpesText(corpusText('017_tutorialBuck.ipes'), '017.ipes');
    expect(element(netlist, 'IGBT.1').params).to.not.have.property('lossModel');
    expect(warnings.join('\n')).to.contain('IGBT.1: detailed loss model (verlustTyp 2): loss file <GeckoFile> 606873586 is not in <GeckoFileManager>');
  });

  for (const [file, off] of Object.entries(CORPUS_THERMAL)) {
    it(`${file}: every thermal element and meter is mapped`, () => {
      const n = read(corpusText(file, off));
      expect(n.thermal!.length).to.be.greaterThan(0);
      const thermal = new Set(n.thermal!.map((t) => t.name));
      for (const pv of n.thermal!.filter((t) => t.type === 'PV')) expect(n.elements.map((e) => e.name)).to.include(String(pv.params?.device));
      for (const b of n.blocks ?? []) if (b.type === ('FLOW' as string)) expect(thermal.has(String(b.params?.element))).to.equal(true);
    });
  }
});

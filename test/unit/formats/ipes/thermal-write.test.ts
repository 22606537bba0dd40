// The .ipes writer's thermal domain: read → write → read gives the same netlist (layout included)
// for the hand-written thermal buck and the corpus files with thermal networks; netlists without a
// layout (thermal elements, meters, an embedded loss model) are written and read back unchanged;
// what GeckoCIRCUITS cannot express is refused.
import { gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import { readIpesText, writeIpes, writeIpesText } from '../../../../src/formats/ipes/index.js';
import type { ThermalNetlist } from '../../../../src/formats/thermal-netlist.js';
import { netlistError, asIpes } from './helpers.js';
import { CORPUS_THERMAL, corpusText, thermalBuckText } from './thermal-helpers.js';

const read = (text: string): ThermalNetlist => readIpesText(text, 'thermal.ipes').netlist;

function diodeWithHeatsink(): ThermalNetlist {
  return {
    settings: { tEnd: 1e-3, dt: 1e-6, solver: 'backward-euler' },
    elements: [
      { name: 'V.1', type: 'V', nodes: ['in', '0'], params: { waveform: 'dc', value: 10 } },
      { name: 'D.1', type: 'D', nodes: ['in', 'out'], params: { vf: 0.7, ron: 0.01, roff: 1e7, vfOff: 1, kOn: 1e-6, kOff: 2e-6, uSWnorm: 300, lossModel: 'fastDiode' } },
      { name: 'R.1', type: 'R', nodes: ['out', '0'], params: { R: 2 } },
    ],
    thermal: [
      { name: 'Pv.1', type: 'PV', nodes: ['Tj', '0'], params: { device: 'D.1' } },
      { name: 'Pv.1.Rpar', type: 'RTH', nodes: ['Tj', '0'], params: { R: 10000 } },
      { name: 'Rth.1', type: 'RTH', nodes: ['Tj', 'Ths'], params: { R: 0.7 } },
      { name: 'Cth.1', type: 'CTH', nodes: ['Ths', 'Tamb'], params: { C: 12, T0: 5 } },
      { name: 'Rth.2', type: 'RTH', nodes: ['Ths', 'Tamb'], params: { R: 0.3 } },
      { name: 'Q.1', type: 'QSRC', nodes: ['Ths', 'Tamb'], params: { P: 1.5 } },
      { name: 'DT.1', type: 'TSRC', nodes: ['Tamb', '0'], params: { T: 35 } },
    ],
    blocks: [
      { name: 'TEMP.1', type: 'TEMP', outputs: ['tj'], params: { nodes: ['Tj', '0'] } },
      { name: 'FLOW.1', type: 'FLOW', outputs: ['pth'], params: { element: 'Rth.1' } },
      { name: 'LOSS.1', type: 'LOSS', outputs: ['psw'], params: { device: 'D.1', part: 'switching' } },
    ],
    lossModels: {
      fastDiode: {
        conduction: [{ T: 25, i: [0, 5, 20], u: [0, 0.8, 1.1] }, { T: 125, i: [0, 5, 20], u: [0, 0.7, 1.2] }],
        turnOn: [{ T: 125, uRef: 400, i: [0, 10, 20], E: [0, 1e-5, 3e-5] }],
        turnOff: [{ T: 125, uRef: 400, i: [0, 10, 20], E: [0, 4e-5, 9e-5] }],
      },
    },
  };
}

describe('ipes writer: thermal domain', () => {
  it('hand-written thermal buck: read → write → read gives the same netlist, layout included', () => {
    const first = read(thermalBuckText());
    const text = writeIpesText(first);
    expect(text).to.contain('<ElementTHERM>').and.contain('verbindungTHERM').and.contain('idStringDialog TREF.1').and.contain('losscomp conduction');
    expect(text).to.not.contain('Pv.1.Rpar');
    expect(read(text)).to.deep.equal(first);
  });

  for (const [file, off] of Object.entries(CORPUS_THERMAL)) {
    it(`${file}: read → write → read gives the same netlist, layout included`, () => {
      const first = read(corpusText(file, off));
      expect(read(gunzipSync(writeIpes(first)).toString('utf-8'))).to.deep.equal(first);
    });
  }

  it('a netlist without layout: thermal elements, meters and the loss model are written and read back', () => {
    const n = diodeWithHeatsink();
    const text = writeIpesText(n);
    // The measured curves travel as an embedded, gzip-compressed loss file the diode refers to.
    expect(text).to.match(/<GeckoFile>\nhashValue (-?\d+)\nabsPath fastDiode\.scl/);
    const hash = /<GeckoFile>\nhashValue (-?\d+)/.exec(text)![1];
    expect(text).to.contain(`lossFileHashValue ${hash}\nverlustTyp 2`);
    const back = read(text);
    delete back.layout;
    expect({ ...back, format: undefined, name: undefined }).to.deep.equal({ ...asIpes(n), format: undefined, name: undefined });
  });

  it('a netlist without the hidden Pv resistor gets it back (GeckoCIRCUITS always adds it)', () => {
    const n = diodeWithHeatsink();
    n.thermal = n.thermal!.filter((t) => t.name !== 'Pv.1.Rpar');
    const back = read(writeIpesText(n));
    expect(back.thermal!.map((t) => t.name)).to.include('Pv.1.Rpar');
  });

  it('refuses what GeckoCIRCUITS cannot express, naming each component', () => {
    const n = diodeWithHeatsink();
    n.thermal![0] = { name: 'Pv.1', type: 'PV', nodes: ['Tj', 'Tamb'], params: { device: 'D.1', part: 'conduction' } };
    n.blocks![2] = { name: 'LOSS.1', type: 'LOSS', outputs: ['psw'], params: { device: 'R.1' } };
    n.elements[1].params!.lossModel = 'missing';
    const error = netlistError(() => writeIpesText(n));
    expect(error.code).to.equal('UNSUPPORTED_COMPONENTS');
    expect(error.message).to.contain('Pv.1: a GeckoCIRCUITS loss source takes its heat from the thermal reference')
      .and.contain('Pv.1: a GeckoCIRCUITS loss source injects the total losses')
      .and.contain('LOSS.1: GeckoCIRCUITS measures losses through the loss source (Pv) of the device; no PV element has device R.1')
      .and.contain('D.1: lossModel missing is not in the netlist\'s lossModels');
  });

  it('refuses a loss model whose turn-on and turn-off curves do not share current points', () => {
    const n = diodeWithHeatsink();
    n.lossModels!.fastDiode.turnOff[0].i = [0, 15, 20];
    const error = netlistError(() => writeIpesText(n));
    expect(error.message).to.contain('D.1: loss model fastDiode cannot be saved as a GeckoCIRCUITS loss file: turn-on and turn-off curve 1 must share T, uRef and the current points');
  });
});

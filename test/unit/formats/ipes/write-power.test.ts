// .ipes writer round trip of the op-amp (OPV, typ 22) and the nonlinear C(u) / L(i) tables, and the
// reader's mapping of them from the GeckoCIRCUITS files: read → write → read gives the same netlist.
import { expect } from 'chai';
import type { Netlist } from '../../../../src/formats/netlist.js';
import { readIpes, writeIpes } from '../../../../src/formats/ipes/index.js';
import { corpusFixture, element } from './helpers.js';

const strip = (n: Netlist): Netlist => ({ ...n, layout: undefined });

describe('.ipes op-amp and nonlinear elements', () => {
  it('reads OPV.5 of 047 with its terminals and parameters (fp from the ≤ 1.62 slot 1/fp)', () => {
    const { netlist } = readIpes(corpusFixture('047_opamp_invertingIntegrator.ipes'), '047');
    const opv = element(netlist, 'OPV.5');
    expect(opv.type).to.equal('OPV');
    expect(opv.nodes).to.deep.equal(['0', element(netlist, 'C.5').nodes[1], 'out2', '0']);
    expect(opv.params).to.deep.include({ gain: 10000, rin: 90000, rout: 0.12, vmax: 12, vmin: -12, ra: 1, rb: 100 });
    expect(opv.params!.fp).to.be.closeTo(32000, 1e-6);
  });

  it('writes and reads back a netlist with an OPV, a zero-ohm R and nonlinear C and L (the 0 Ω read as GeckoCIRCUITS simulates it, 1e-9 Ω)', () => {
    const netlist: Netlist = {
      settings: { tEnd: 1e-3, dt: 1e-6 },
      elements: [
        { name: 'U.1', type: 'V', nodes: ['in', '0'], params: { waveform: 'dc', value: 1 } },
        { name: 'R.1', type: 'R', nodes: ['in', 'minus'], params: { R: 1000 } },
        { name: 'R.2', type: 'R', nodes: ['minus', 'out'], params: { R: 0 } },
        { name: 'OPV.1', type: 'OPV', nodes: ['0', 'minus', 'out', '0'],
          params: { rin: 90000, rout: 0.12, fp: 32000, gain: 1000, vmax: 12, vmin: -12, ra: 1, rb: 100 } },
        { name: 'C.1', type: 'C', nodes: ['out', '0'], params: { C: 1e-6, v0: 0, nonlinU: [0, 10, 20], nonlinC: [1e-6, 5e-7, 1e-7] } },
        { name: 'L.1', type: 'L', nodes: ['out', '0'], params: { L: 1e-3, i0: 0, nonlinI: [0, 2], nonlinL: [1e-3, 2e-4] } },
      ],
      blocks: [],
    };
    const first = readIpes(writeIpes(netlist), 'a.ipes').netlist;
    const second = readIpes(writeIpes(first), 'b.ipes').netlist;
    expect(strip(second).elements).to.deep.equal(strip(first).elements);
    expect(element(first, 'OPV.1').params).to.deep.equal(netlist.elements[3].params);
    expect(element(first, 'C.1').params).to.deep.include({ nonlinU: [0, 10, 20], nonlinC: [1e-6, 5e-7, 1e-7] });
    expect(element(first, 'L.1').params).to.deep.include({ nonlinI: [0, 2], nonlinL: [1e-3, 2e-4] });
    // The file says 0 Ω, which GeckoCIRCUITS (and so the reader) simulates as 1e-9 Ω.
    expect(element(first, 'R.2').params).to.deep.equal({ R: 1e-9 });
  });
});

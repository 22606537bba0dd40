// The PMSM (typ 15, GeckoCIRCUITS MotorPMSM) in the .ipes reader and writer: the corpus machine's
// parameters and load-torque label, and read → write → read of a netlist with a PMSM.
import { expect } from 'chai';
import { readIpes, writeIpes } from '../../../../src/formats/ipes/index.js';
import type { Netlist } from '../../../../src/formats/netlist.js';
import { corpusFixture, asIpes } from './helpers.js';

describe('.ipes PMSM (typ 15)', () => {
  it('033: the machine, its motor viewers (MACHINE meters) and the Java modulators are read', () => {
    const n = readIpes(corpusFixture('033_indirect_matrix_java_with_PMSM_control.ipes')).netlist;
    expect(n.elements.find((e) => e.name === 'PMSM.2')?.type).to.equal('PMSM');
    const viewers = (n.blocks ?? []).filter((b) => b.type === 'MACHINE');
    expect(viewers.map((b) => b.params?.quantity).sort()).to.deep.equal(['isa', 'isb', 'isc', 'n', 'theta']);
    expect(viewers.every((b) => b.params?.element === 'PMSM.2')).to.equal(true);
    expect((n.blocks ?? []).filter((b) => b.type === 'JAVA').map((b) => b.outputs?.length)).to.deep.equal([9, 2]);
  });


  it('read → write → read keeps the machine, its terminals, its torque signal and a motor viewer', () => {
    const n: Netlist = {
      settings: { tEnd: 0.01, dt: 1e-6, solver: 'backward-euler' },
      elements: [
        { name: 'Va', type: 'V', nodes: ['a', '0'], params: { waveform: 'sine', amplitude: 100, frequency: 50, offset: 0, phase: 0 } },
        { name: 'Vb', type: 'V', nodes: ['b', '0'], params: { waveform: 'sine', amplitude: 100, frequency: 50, offset: 0, phase: -120 } },
        { name: 'Vc', type: 'V', nodes: ['c', '0'], params: { waveform: 'sine', amplitude: 100, frequency: 50, offset: 0, phase: 120 } },
        { name: 'PMSM.1', type: 'PMSM', nodes: ['a', 'b', 'c'], params: {
          psi: 0.191, friction: 2.1e-4, J: 4e-4, polePairs: 3, Rs: 1, Ld: 0.005, Lq: 0.006, ia0: 0, ib0: 0,
          omega0: 10, theta0: 0.5, loadSignal: 'Tm', loadTorque: 15 } },
      ],
      blocks: [{ name: 'CONST.1', type: 'CONST', outputs: ['Tm'], params: { value: 2 } },
        { name: 'VIEWMOT.1', type: 'MACHINE', outputs: ['speed'], params: { element: 'PMSM.1', quantity: 'n' } }],
    };
    const back = readIpes(writeIpes(n)).netlist;
    expect({ ...back, format: undefined, layout: undefined }).to.deep.equal({ ...asIpes(n), format: undefined, layout: undefined });
    expect(readIpes(writeIpes(back)).netlist).to.deep.equal(back);
  });
});

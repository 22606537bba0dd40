// The eight GeckoCIRCUITS example files: what each reads into (component counts and names,
// connectivity, parameters, settings), or the documented error for the one the engine cannot run.
import { expect } from 'chai';
import { readIpes } from '../../../../src/formats/ipes/index.js';
import { block, element, fixture } from './helpers.js';

const read = (name: string) => readIpes(fixture(name), name);
const names = (items: Array<{ name: string }> | undefined): string[] => (items ?? []).map((i) => i.name);

describe('ipes reader: GeckoCIRCUITS example files', () => {
  it('buck_simple: 48 V buck with switch, diode, inductor, capacitor, load and a 35 kHz PWM', () => {
    const { netlist: n, warnings } = read('buck_simple.ipes');
    expect(names(n.elements)).to.deep.equal(['U.1', 'S.1', 'L.1', 'D.1', 'C.1', 'R.1']);
    expect(names(n.blocks)).to.deep.equal(['SIGNAL.1', 'GATE.1', 'VOLT.1', 'VOLT.2', 'VOLT.3', 'AMP.1', 'SCOPE.1', 'AMP.2']);
    expect(n.name).to.equal('buck_simple');
    expect(n.settings).to.deep.equal({ tEnd: 0.001, dt: 1e-6, solver: 'backward-euler', timing: 'gecko' });
    const [u, s, l, d, c, r] = ['U.1', 'S.1', 'L.1', 'D.1', 'C.1', 'R.1'].map((x) => element(n, x));
    expect(u.params).to.deep.equal({ waveform: 'dc', value: 48 });
    expect(u.nodes[1]).to.equal('0');
    // The switch connects the source + to the switching node shared with the diode cathode and L.
    expect(s.nodes[0]).to.equal(u.nodes[0]);
    expect(d.nodes[1]).to.equal(s.nodes[1]);
    expect(l.nodes[0]).to.equal(s.nodes[1]);
    // The output node: L, C, R; the diode anode, C and R return to the reference.
    expect(c.nodes[0]).to.equal(l.nodes[1]);
    expect(r.nodes[0]).to.equal(l.nodes[1]);
    expect([d.nodes[0], c.nodes[1], r.nodes[1]]).to.deep.equal(['0', '0', '0']);
    expect(new Set([u.nodes[0], s.nodes[1], l.nodes[1], '0']).size).to.equal(4);
    expect(l.params).to.deep.equal({ L: 3e-4, i0: 0 });
    expect(c.params).to.deep.equal({ C: 1e-5, v0: 0 });
    expect(r.params).to.deep.equal({ R: 10 });
    expect(s.params).to.deep.equal({ ron: 0.01, roff: 1e7 });
    expect(d.params).to.deep.equal({ vf: 0.6, ron: 0.01, roff: 1e7, vfOff: 1 });
    expect(block(n, 'SIGNAL.1')).to.deep.equal({
      name: 'SIGNAL.1', type: 'SIGNAL', outputs: ['gate'],
      params: { waveform: 'rectangle', amplitude: 1, frequency: 35000, offset: 0, phase: 0, duty: 0.4 },
    });
    expect(block(n, 'GATE.1')).to.deep.equal({ name: 'GATE.1', type: 'GATE', inputs: ['gate'], params: { target: 'S.1' } });
    expect(block(n, 'VOLT.3').params).to.deep.equal({ nodes: [l.nodes[1], '0'] });
    expect(block(n, 'AMP.1').params).to.deep.equal({ element: 'L.1' });
    expect(block(n, 'SCOPE.1').inputs).to.deep.equal(['u1', 'uS', 'u2', 'iL', 'iC', 'gate']);
    expect(block(n, 'SCOPE.1').params).to.deep.equal({ channelNames: ['u1', 'uS', 'u2', 'iL', 'iC', 'gate'], geckoAxis: 1 });
    expect(warnings).to.deep.equal([]);
  });

  it('boost_simple: 12 V boost at duty 0.7', () => {
    const { netlist: n } = read('boost_simple.ipes');
    expect(n.elements).to.have.length(6);
    expect(n.blocks).to.have.length(8);
    const [l, s, d] = ['L.1', 'S.1', 'D.1'].map((x) => element(n, x));
    expect(element(n, 'U.1').params).to.deep.equal({ waveform: 'dc', value: 12 });
    expect(s.nodes).to.deep.equal([l.nodes[1], '0']);
    expect(d.nodes[0]).to.equal(l.nodes[1]);
    expect(block(n, 'SIGNAL.1').params!.duty).to.equal(0.7);
  });

  it('BuckBoost_const_dutyCycle (FileVersion 202): unlabelled terminals connect through the wire geometry', () => {
    const { netlist: n } = read('BuckBoost_const_dutyCycle.ipes');
    expect(names(n.elements)).to.deep.equal(['U.1', 'S.1', 'D.1', 'L.1', 'C.1', 'R.1']);
    expect(n.blocks).to.have.length(7);
    const [u, s, d, l, c, r] = ['U.1', 'S.1', 'D.1', 'L.1', 'C.1', 'R.1'].map((x) => element(n, x));
    // S.1's XIN, D.1's YOUT and L.1's XIN carry no label; an unlabelled wire and touching
    // terminals join them into one node with a generated name.
    const sw = s.nodes[0];
    expect(sw).to.match(/^n\d+$/);
    expect(d.nodes[1]).to.equal(sw);
    expect(l.nodes).to.deep.equal([sw, '0']);
    expect(s.nodes[1]).to.equal('in');
    expect(u.nodes).to.deep.equal(['in', '0']);
    expect(d.nodes[0]).to.equal('out');
    expect(c.nodes).to.deep.equal(['0', 'out']);
    expect(r.nodes).to.deep.equal(['0', 'out']);
    expect(u.params).to.deep.equal({ waveform: 'dc', value: 20 });
    expect(block(n, 'SIGNAL.1').params).to.include({ waveform: 'rectangle', frequency: 25000, duty: 0.8 });
    expect(block(n, 'VOLT.1').params).to.deep.equal({ nodes: ['out', '0'] });
    expect(block(n, 'AMP.2').params).to.deep.equal({ element: 'S.1' });
    expect(n.settings).to.include({ tEnd: 0.003, dt: 1e-7 });
  });

  it('2phaseDiodeBridge_AC-Inductor: a bridge of four diodes fed by a 327 V, 50 Hz sine', () => {
    const { netlist: n } = read('2phaseDiodeBridge_AC-Inductor.ipes');
    expect(n.elements.filter((e) => e.type === 'D')).to.have.length(4);
    expect(element(n, 'U.1').params).to.deep.equal({ waveform: 'sine', amplitude: 327, frequency: 50, offset: 0, phase: 0 });
    const [d1, d2, d3, d4, c] = ['D.1', 'D.2', 'D.3', 'D.4', 'C.1'].map((x) => element(n, x));
    expect(d1.nodes[1]).to.equal(d3.nodes[1]); // cathodes on the + rail
    expect(d2.nodes[0]).to.equal(d4.nodes[0]); // anodes on the − rail
    expect(c.nodes).to.deep.equal([d1.nodes[1], d2.nodes[0]]);
    expect(d1.nodes[0]).to.equal(d2.nodes[1]); // the AC inductor side
    expect(n.blocks).to.have.length(8);
  });

  it('diode_RL_singlePH_trafo: three coupled inductors Lc → L with K couplings (k = 0.98)', () => {
    const { netlist: n, warnings } = read('diode_RL_singlePH_trafo.ipes');
    expect(n.elements).to.have.length(13);
    const k = n.elements.filter((e) => e.type === 'K');
    expect(k.map((e) => e.params)).to.deep.equal([
      { k: 0.98, inductors: ['Lc.1', 'Lc.2'] },
      { k: 0.98, inductors: ['Lc.1', 'Lc.3'] },
      { k: 0.98, inductors: ['Lc.2', 'Lc.3'] },
    ]);
    expect(k.every((e) => e.nodes.length === 0)).to.equal(true);
    expect(element(n, 'Lc.1')).to.deep.include({ type: 'L', params: { L: 0.005, i0: 0 } });
    expect(element(n, 'Lc.2').params).to.deep.equal({ L: 0.002, i0: 0 });
    // The layout remembers the coupled-inductor type for the writer.
    const layout = n.layout!.ipes as { components: Record<string, { typ: number }> };
    expect(layout.components['Lc.1'].typ).to.equal(12);
    expect(layout.components['K.1'].typ).to.equal(9);
    // No node carries the label 0: the first potential area is the reference.
    expect(warnings.some((w) => /labelled '2'.*node '0'/.test(w))).to.equal(true);
  });

  it('ex_2: two-switch forward converter with T_pre pre-simulation and a PI loop', () => {
    const { netlist: n, warnings } = read('ex_2.ipes');
    expect(n.settings).to.deep.equal({ tEnd: 0.001, dt: 4e-8, solver: 'backward-euler', timing: 'gecko', tPre: 0.04, dtPre: 4e-8 });
    expect(n.elements).to.have.length(17);
    expect(element(n, 'K.1').params).to.deep.equal({ k: 0.9999, inductors: ['Lc.1', 'Lc.2'] });
    expect(element(n, 'L.1').params).to.deep.equal({ L: 1.1e-4, i0: 25 });
    expect(element(n, 'C.1').params).to.deep.equal({ C: 5.6e-4, v0: 60 });
    expect(element(n, 'I.2').params).to.deep.equal({ waveform: 'dc', value: 22 });
    expect(element(n, 'U.7').params).to.deep.equal({ waveform: 'sine', amplitude: 8, frequency: 100, offset: 0, phase: 0 });
    expect(element(n, 'IGBT.1').params).to.deep.equal({ vf: 0.6, ron: 0.01, roff: 1e7, vfOff: 1 });
    expect(block(n, 'PI.2').params).to.deep.equal({ kp: 0.4, ki: 1609 });
    expect(block(n, 'LIMIT.1').params).to.deep.equal({ min: 0, max: 1 });
    expect(block(n, 'PT1.2').params).to.deep.equal({ T: 3.22e-6, gain: 1 });
    expect(block(n, 'SUB.1').inputs![0]).to.equal('uref');
    // SIGNAL.1 takes its duty cycle from the controller output d: a comparison with a carrier.
    expect(block(n, 'SIGNAL.1')).to.deep.equal({ name: 'SIGNAL.1', type: 'GT', inputs: ['SIGNAL.1.duty', 'SIGNAL.1.carrier'], outputs: ['gt'] });
    expect(block(n, 'SIGNAL.1.carrier').params).to.deep.equal({ waveform: 'triangle', amplitude: -0.5, offset: 0.5, frequency: 150000, phase: 0, restartAtSecondStep: 1 });
    expect(block(n, 'SIGNAL.1.duty')).to.deep.include({ inputs: ['d'], params: { min: 1e-7, max: 0.99999999 } });
    expect(block(n, 'LIMIT.1').outputs).to.deep.equal(['d']);
    expect(block(n, 'GATE.1').inputs).to.deep.equal(['gt']);
    expect(warnings.some((w) => w.includes("duty cycle comes from signal 'd'"))).to.equal(true);
  });

  it('singlePhase_PWM_converter: external SIGNAL inputs fold, HYS gives ±1, an open scope input reads 0', () => {
    const { netlist: n, warnings } = read('singlePhase_PWM_converter.ipes');
    expect(n.elements).to.have.length(12);
    // SIGNAL.1 gets amplitude 0.7 (CONST.1 + CONST.5), frequency 50 (CONST.2), phase 15° (CONST.4).
    expect(block(n, 'SIGNAL.1').params).to.deep.equal({ waveform: 'sine', amplitude: 0.7, frequency: 50, offset: 0, phase: -15 });
    expect(block(n, 'SIGNAL.3').params).to.deep.equal({ waveform: 'sine', amplitude: 0.7, frequency: 50, offset: 0, phase: 0 });
    // GeckoCIRCUITS' triangle rises through 0 at t = 0: the engine's triangle shifted by 90°.
    expect(block(n, 'SIGNAL.2').params).to.deep.equal({ waveform: 'triangle', amplitude: 1, frequency: 1000, offset: 0, phase: 90 });
    expect(block(n, 'HYS.1').params).to.deep.equal({ h: 0.001, high: 1, low: -1, initial: 0 });
    expect(block(n, 'NOT.1')).to.deep.include({ inputs: ['g14'], outputs: ['g23'] });
    expect(element(n, 'U.2').params).to.deep.equal({ waveform: 'signal', signal: 'uGS' });
    expect(block(n, 'GAIN.1')).to.deep.include({ inputs: ['uGSn'], outputs: ['uGS'], params: { k: 100 } });
    expect(block(n, 'SCOPE.1').inputs![5]).to.equal('_zero');
    expect(block(n, '_zero')).to.deep.equal({ name: '_zero', type: 'CONST', outputs: ['_zero'], params: { value: 0 } });
    expect(warnings.some((w) => w.includes('SCOPE.1 input 6'))).to.equal(true);
    expect(n.elements.filter((e) => e.type === 'IGBT').map((e) => e.name)).to.deep.equal(['IGBT.1', 'IGBT.2', 'IGBT.3', 'IGBT.4']);
    expect(block(n, 'GATE.2').params).to.deep.equal({ target: 'IGBT.1' });
  });

  it('thyristor_RL_single: INT.1 takes its reset from signal z (its second input)', () => {
    const n = read('thyristor_RL_single.ipes').netlist;
    expect(block(n, 'INT.1').inputs).to.have.length(2);
    expect(block(n, 'INT.1').inputs![1]).to.equal('z');
  });
});

// The .ipes writer: read → write → read gives the same netlist (layout included) for every readable
// example file; parameter and connection changes are saved; netlists without a layout are placed
// on a grid; what GeckoCIRCUITS cannot express is refused in one error.
import { gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import { readIpes, writeIpes, writeIpesText } from '../../../../src/formats/ipes/index.js';
import { javaDouble } from '../../../../src/formats/ipes/emit.js';
import type { Netlist } from '../../../../src/formats/netlist.js';
import { FIXTURES, edit, element, fixture, fixtureText, netlistError, textBytes, asIpes } from './helpers.js';

const READABLE = FIXTURES.filter((f) => f !== 'thyristor_RL_single.ipes');
type Layout = { wires: unknown[]; components: Record<string, { x: number; y: number }> };
const layoutOf = (n: Netlist): Layout => n.layout!.ipes as Layout;

function handMadeBuck(): Netlist {
  return {
    settings: { tEnd: 1e-3, dt: 1e-6, solver: 'trapezoidal', dampAfterSwitch: false },
    parameters: { Vin: 48 },
    elements: [
      { name: 'V.1', type: 'V', nodes: ['in', '0'], params: { waveform: 'dc', value: '$Vin' } },
      { name: 'S.1', type: 'S', nodes: ['in', 'sw'], params: { ron: 0.01, roff: 1e7 } },
      { name: 'D.1', type: 'D', nodes: ['0', 'sw'], params: { vf: 0.6, ron: 0.01, roff: 1e7, vfOff: 1 } },
      { name: 'L.1', type: 'L', nodes: ['sw', 'out'], params: { L: 1e-4, i0: 0 } },
      { name: 'C.1', type: 'C', nodes: ['out', '0'], params: { C: 1e-4, v0: 0 } },
      { name: 'R.1', type: 'R', nodes: ['out', '0'], params: { R: 5 } },
    ],
    blocks: [
      { name: 'SIGNAL.1', type: 'SIGNAL', outputs: ['g'], params: { waveform: 'rectangle', amplitude: 1, frequency: 20000, offset: 0, phase: 0, duty: 0.5 } },
      { name: 'GATE.1', type: 'GATE', inputs: ['g'], params: { target: 'S.1' } },
      { name: 'VOLT.1', type: 'VOLT', outputs: ['vout'], params: { nodes: ['out', '0'] } },
      { name: 'AMP.1', type: 'AMP', outputs: ['iL'], params: { element: 'L.1' } },
      { name: 'SCOPE.1', type: 'SCOPE', inputs: ['vout', 'iL'], params: { channelNames: ['vout', 'iL'], geckoAxis: 1 } },
    ],
  };
}

describe('ipes writer', () => {
  for (const name of READABLE) {
    it(`${name}: read → write → read gives the same netlist, layout included`, () => {
      const first = readIpes(fixture(name), name);
      const bytes = writeIpes(first.netlist);
      expect([bytes[0], bytes[1]]).to.deep.equal([0x1f, 0x8b]);
      const second = readIpes(bytes, name);
      expect(second.netlist).to.deep.equal(first.netlist);
      expect(layoutOf(second.netlist).wires).to.have.length(layoutOf(first.netlist).wires.length);
    });
  }

  it('writes GeckoCIRCUITS conventions: named parameter lines, parameter[] slots, Java number format', () => {
    const text = writeIpesText(readIpes(fixture('buck_simple.ipes'), 'buck_simple.ipes').netlist);
    expect(text).to.include('\nresistance 10.0\n');
    expect(text).to.include('\ninductance 3.0E-4\n');
    expect(text).to.include('\nsourceType 401\n');
    expect(text).to.include('\ntypQuelle 404\n');
    expect(text).to.include('\nversion170 1\n');
    expect(text).to.include('\nFileVersion 202\n');
    expect(text).to.include('\ndt 1.0E-6\n');
    expect(text).to.match(/\nparameter\[\] 10\.0 \nparameterString\[\] \/NIX_NIX_NIX\/NIX_NIX_NIX\/0\n/);
    expect(javaDouble(1e-6)).to.equal('1.0E-6');
    expect(javaDouble(35000)).to.equal('35000.0');
    expect(javaDouble(0.001)).to.equal('0.001');
    expect(javaDouble(1.5e7)).to.equal('1.5E7');
    expect(javaDouble(-1.7976931348623157e308)).to.equal('-1.7976931348623157E308');
  });

  it('gives a scope its terminal count: GeckoCIRCUITS gives a scope without `tn` 3 inputs', () => {
    const n = handMadeBuck();
    n.blocks!.push({ name: 'SCOPE.9', type: 'SCOPE', inputs: ['g', 'vout', 'g', 'vout', 'g'] });
    const record = writeIpesText(n).split('<ElementCONTROL>').find((r) => r.includes('idStringDialog SCOPE.9'))!;
    expect(record).to.match(/\ntn 5\n/);
  });

  it('writes a thyristor whose Roff is not 1e7 Ω only with fireOnce, as GeckoCIRCUITS fires it once', () => {
    const n = handMadeBuck();
    n.elements.push({ name: 'THYR.1', type: 'THYR', nodes: ['in', 'out'], params: { vf: 1, ron: 0.02, roff: 1e6 } });
    expect(() => writeIpesText(n)).to.throw(/THYR.1: GeckoCIRCUITS fires a thyristor whose roff is not 1e7 Ω only once/);
    n.elements.at(-1)!.params!.fireOnce = 1;
    const back = readIpes(textBytes(writeIpesText(n)), 'thyr.ipes');
    expect(element(back.netlist, 'THYR.1').params).to.include({ roff: 1e6, fireOnce: 1 });
    expect(back.warnings.join('\n')).to.match(/THYR.1: its Roff is 1000000 Ω, not 1e7 Ω, so GeckoCIRCUITS fires it only once/);
  });

  it('saves a changed parameter and keeps the schematic', () => {
    const n = readIpes(fixture('buck_simple.ipes'), 'buck_simple.ipes').netlist;
    element(n, 'R.1').params!.R = 22;
    element(n, 'U.1').params!.value = 60;
    const back = readIpes(writeIpes(n), 'buck_simple.ipes').netlist;
    expect(element(back, 'R.1').params).to.deep.equal({ R: 22 });
    expect(element(back, 'U.1').params).to.deep.equal({ waveform: 'dc', value: 60 });
    expect(back).to.deep.equal(n);
  });

  it('keeps global-parameter bindings (written as $ParameterName lines)', () => {
    let text = fixtureText('buck_simple.ipes');
    text = edit(text, 'optimizerName[] \n', 'optimizerName[] /$Rload\n');
    text = edit(text, 'optimizerValue[]  \n', 'optimizerValue[] 5.0 \n');
    text = edit(text, 'nameOpt[] /NIX_NIX_NIX/NIX_NIX_NIX/NIX_NIX_NIX\norientierung 503\nidStringDialog R.1',
      'nameOpt[] /$Rload/NIX_NIX_NIX/NIX_NIX_NIX\norientierung 503\nidStringDialog R.1');
    const n = readIpes(textBytes(text)).netlist;
    const written = writeIpesText(n);
    expect(written).to.include('\nresistance$ParameterName $Rload\nresistance 5.0\n');
    expect(written).to.include('\noptimizerName[] /$Rload\noptimizerValue[] 5.0 \n');
    const back = readIpes(textBytes(written)).netlist;
    expect(element(back, 'R.1').params).to.deep.equal({ R: '$Rload' });
    expect(back.parameters).to.deep.equal({ Rload: 5 });
  });

  it('saves changed connections: labels on every terminal when the kept wires no longer fit', () => {
    const n = readIpes(fixture('BuckBoost_const_dutyCycle.ipes'), 'bb.ipes').netlist;
    const sw = element(n, 'S.1').nodes[0];
    element(n, 'R.1').nodes = [sw, 'out']; // move the load from the output to the switching node
    const back = readIpes(writeIpes(n), 'bb.ipes').netlist;
    expect(element(back, 'R.1').nodes).to.deep.equal([sw, 'out']);
    expect(element(back, 'L.1').nodes).to.deep.equal([sw, '0']);
    expect(element(back, 'C.1').nodes).to.deep.equal(['0', 'out']);
    expect({ ...back, layout: undefined }).to.deep.equal({ ...n, layout: undefined });
    // Positions are kept; the wires are not (they would join the old nodes).
    expect(layoutOf(back).components['R.1']).to.include({ x: 25, y: 8 });
    expect(layoutOf(back).wires).to.deep.equal([]);
  });

  it('writes a netlist without layout on a grid, connected by labels', () => {
    const n = handMadeBuck();
    const text = writeIpesText(n);
    expect(text).to.not.include('<Verbindung>');
    const back = readIpes(textBytes(text)).netlist;
    const { layout, format, ...rest } = back;
    expect(format).to.equal('pesim-netlist/1');
    expect(layout).to.have.property('ipes');
    expect(rest).to.deep.equal(asIpes(n));
    // Once read, the file round-trips exactly.
    expect(readIpes(writeIpes(back)).netlist).to.deep.equal(back);
  });

  it('saves a device without vfOff as GeckoCIRCUITS has it: it reads back with vfOff: 1', () => {
    const n = handMadeBuck();
    delete element(n, 'D.1').params!.vfOff;
    const back = readIpes(writeIpes(n)).netlist;
    expect(element(back, 'D.1').params).to.deep.equal({ vf: 0.6, ron: 0.01, roff: 1e7, vfOff: 1 });
  });

  it('writes and reads back every element and block kind it maps', () => {
    const n: Netlist = {
      settings: { tEnd: 0.02, dt: 1e-6, solver: 'gear-shichman', dampAfterSwitch: false, tPre: 0.01, dtPre: 2e-6 },
      parameters: { f: 50 },
      elements: [
        { name: 'I.1', type: 'I', nodes: ['p', '0'], params: { waveform: 'sine', amplitude: 2, frequency: '$f', offset: 0.5, phase: 30 } },
        { name: 'TR.1', type: 'TRANS', nodes: ['p', '0', 's', 'm'], params: { n1: 10, n2: 5 } },
        { name: 'L.1', type: 'L', nodes: ['s', 'a'], params: { L: 1e-3, i0: 0 } },
        { name: 'L.2', type: 'L', nodes: ['m', 'a'], params: { L: 2e-3, i0: 0.5 } },
        { name: 'K.1', type: 'K', nodes: [], params: { k: 0.95, inductors: ['L.1', 'L.2'] } },
        { name: 'T.1', type: 'THYR', nodes: ['a', 'b'], params: { vf: 0.8, ron: 0.02, roff: 1e6, trr: 1e-6, vfOff: 1, fireOnce: 1 } },
        { name: 'Q.1', type: 'IGBT', nodes: ['b', '0'], params: { vf: 1.1, ron: 0.05, roff: 1e7, vfOff: 1 } },
        { name: 'M.1', type: 'MOSFET', nodes: ['b', 'm'], params: { ron: 0.1, roff: 1e7, diodeVf: 0.7, diodeRon: 0.02, diodeRoff: 1e7, antiparallel: 1, diodeVfOff: 1 } },
        { name: 'V.2', type: 'V', nodes: ['c', '0'], params: { waveform: 'signal', signal: 'ctl' } },
        { name: 'R.1', type: 'R', nodes: ['c', 'b'], params: { R: 3 } },
      ],
      blocks: [
        { name: 'TIME.1', type: 'TIME', outputs: ['t'] },
        { name: 'TRI.1', type: 'SIGNAL', outputs: ['tri'], params: { waveform: 'triangle', amplitude: 1, frequency: 1000, offset: 0, phase: 45 } },
        { name: 'PI.1', type: 'PI', inputs: ['tri'], outputs: ['pi'], params: { kp: 2, ki: 100 } },
        { name: 'PT1.1', type: 'PT1', inputs: ['pi'], outputs: ['lag'], params: { T: 1e-3, gain: 2 } },
        { name: 'LIM.1', type: 'LIMIT', inputs: ['lag'], outputs: ['lim'], params: { min: -1, max: 1 } },
        { name: 'INT.1', type: 'INT', inputs: ['lim'], outputs: ['int'], params: { gain: 10, y0: 0, min: -5, max: 5 } },
        { name: 'DEL.1', type: 'DELAY', inputs: ['int'], outputs: ['del'], params: { delay: 1e-4 } },
        { name: 'HYS.1', type: 'HYS', inputs: ['del'], outputs: ['hys'], params: { h: 0.1, high: 1, low: -1, initial: 0 } },
        { name: 'SUB.1', type: 'ADD', inputs: ['tri', 'del', 't'], outputs: ['diff'], params: { signs: [1, -1, -1] } },
        { name: 'MIN.1', type: 'MIN', inputs: ['diff', 'hys', 'lim'], outputs: ['ctl'] },
        { name: 'GATE.1', type: 'GATE', inputs: ['hys'], params: { target: 'Q.1' } },
        { name: 'AMP.1', type: 'AMP', outputs: ['iq'], params: { element: 'Q.1' } },
        { name: 'VOLT.1', type: 'VOLT', outputs: ['vr'], params: { element: 'R.1' } },
        { name: 'SCOPE.1', type: 'SCOPE', inputs: ['iq', 'vr', 'ctl'], params: { geckoAxis: 1 } },
      ],
    };
    const back = readIpes(writeIpes(n)).netlist;
    expect({ ...back, format: undefined, layout: undefined }).to.deep.equal({ ...asIpes(n), format: undefined, layout: undefined });
    const kept = layoutOf(back).components as Record<string, { typ: number }>;
    expect([kept['L.1'].typ, kept['SUB.1'].typ, kept['TR.1'].typ]).to.deep.equal([12, 13, 23]);
  });

  it('writes a netlist without a reference node; reading it back grounds its first node', () => {
    const n: Netlist = {
      settings: { tEnd: 1e-3, dt: 1e-6 },
      elements: [
        { name: 'V.1', type: 'V', nodes: ['a', 'b'], params: { waveform: 'dc', value: 1 } },
        { name: 'R.1', type: 'R', nodes: ['a', 'b'], params: { R: 1 } },
      ],
    };
    const back = readIpes(writeIpes(n)).netlist;
    expect(back.elements.map((e) => e.nodes)).to.deep.equal([['0', 'b'], ['0', 'b']]);
  });

  it('refuses what GeckoCIRCUITS cannot express, naming every offending component', () => {
    const n = handMadeBuck();
    n.elements.push(
      { name: 'V.2', type: 'V', nodes: ['a', '0'], params: { waveform: 'pulse', v1: 0, v2: 1, period: 1e-3 } },
      { name: 'H.1', type: 'H', nodes: ['a', '0'], params: { r: 1, control: 'V.1' } },
    );
    n.blocks!.push({ name: 'SIGNAL.2', type: 'SIGNAL', outputs: ['saw'], params: { waveform: 'sawtooth', amplitude: 1, frequency: 50 } });
    const error = netlistError(() => writeIpes(n));
    expect(error.code).to.equal('UNSUPPORTED_COMPONENTS');
    expect(error.details.map((d) => d.component)).to.deep.equal(['V.2', 'H.1', 'SIGNAL.2']);
    expect(error.message).to.match(/pulse waveform/);
  });

  it('output decompresses to text that starts with the wires and ends with the trailer', () => {
    const text = gunzipSync(writeIpes(readIpes(fixture('ex_2.ipes'), 'ex_2.ipes').netlist)).toString('utf-8');
    expect(text.startsWith('verbindungLK  (0)\n<Verbindung>\n')).to.equal(true);
    expect(text).to.include('\nT_pre 0.04\ndt_pre 4.0E-8\nsolverType 0\n');
    // The expanded PWM is written back as one SIGNAL with its external inputs.
    expect(text).to.include('\nidStringDialog SIGNAL.1\n');
    expect(text).to.not.include('SIGNAL.1.carrier');
    expect(text.trimEnd().endsWith('=======================')).to.equal(true);
  });
});

// The control blocks COUNTER, SAMPLEHOLD, PD, INT with reset, HYS with a live width, triangles of
// any duty, PWL (GeckoCIRCUITS' imported signal) and RANDOM: .ipes write → read gives the same
// netlist, the reader maps GeckoCIRCUITS' records, and imported data is found in the model or
// beside it (or the missing file is named).
import { expect } from 'chai';
import { gunzipSync } from 'node:zlib';
import type { Netlist } from '../../../../src/formats/netlist.js';
import { readIpes, readIpesText } from '../../../../src/formats/ipes/read.js';
import { writeIpes } from '../../../../src/formats/ipes/write.js';
import { parseSignalTable } from '../../../../src/formats/ipes/datafiles.js';
import { block, corpusFixture, edit, netlistError, textBytes, asIpes } from './helpers.js';

const netlist = (blocks: Netlist['blocks']): Netlist => ({
  settings: { tEnd: 1e-3, dt: 1e-6, solver: 'backward-euler' },
  elements: [
    { name: 'V.1', type: 'V', nodes: ['a', '0'], params: { waveform: 'signal', signal: 'sum' } },
    { name: 'R.1', type: 'R', nodes: ['a', '0'], params: { R: 1 } },
  ],
  blocks,
});

const strip = (n: Netlist): Netlist => ({ ...n, format: undefined, layout: undefined });

describe('ipes control blocks: counter, sample-hold, PD, resets, live hysteresis, triangles, data sources', () => {
  it('writes and reads back every new block kind (also ASIN, ACOS, TAN, JAVA, POW, PT2 and TF)', () => {
    const n = netlist([
      { name: 'CLK', type: 'SIGNAL', outputs: ['clk'], params: { waveform: 'rectangle', amplitude: 1, frequency: 1000, offset: 0, phase: 0, duty: 0.5 } },
      { name: 'TRI', type: 'SIGNAL', outputs: ['tri'], params: { waveform: 'triangle', amplitude: 2, frequency: 500, offset: 1, phase: 10, duty: 0.25 } },
      { name: 'COUNTER.1', type: 'COUNTER', inputs: ['clk', 'tri'], outputs: ['n'] },
      { name: 'COUNTER.2', type: 'COUNTER', inputs: ['clk'], outputs: ['m'] },
      { name: 'SH.1', type: 'SAMPLEHOLD', inputs: ['tri', 'clk'], outputs: ['held'] },
      { name: 'PD.1', type: 'PD', inputs: ['held'], outputs: ['d'], params: { gain: 0.5 } },
      { name: 'INT.1', type: 'INT', inputs: ['d', 'clk'], outputs: ['i'], params: { gain: 2, y0: 0.5, min: -3, max: 3 } },
      { name: 'HYS.1', type: 'HYS', inputs: ['i', 'tri'], outputs: ['h'], params: { high: 1, low: -1, initial: 0 } },
      { name: 'PWL.1', type: 'PWL', outputs: ['p'], params: { times: [0, 1e-4, 3e-4], values: [0, 2.5, -1e-3] } },
      { name: 'RND.1', type: 'RANDOM', outputs: ['r'] },
      { name: 'ASIN.1', type: 'ASIN', inputs: ['tri'], outputs: ['as'] },
      { name: 'ACOS.1', type: 'ACOS', inputs: ['tri'], outputs: ['ac'] },
      { name: 'TAN.1', type: 'TAN', inputs: ['tri'], outputs: ['ta'] },
      { name: 'JAVA.1', type: 'JAVA', inputs: ['as', 'ac', 'ta'], outputs: ['j1', 'j2'], params: {
        code: 'yOUT[0] = xIN[0] + xIN[1];\nyOUT[1] = count++;\nreturn yOUT;', variables: 'int count = 0;', initCode: 'count = 1;' } },
      { name: 'POW.1', type: 'POW', inputs: ['tri', 'p'], outputs: ['pw'] },
      { name: 'PT2.1', type: 'PT2', inputs: ['pw'], outputs: ['p2'], params: { T: 2e-4, gain: 1.5 } },
      { name: 'TF.1', type: 'TF', inputs: ['p2'], outputs: ['tf'], params: { num: [1, 3e-4], den: [1, 2e-4, 1e-8] } },
      { name: 'ADD.1', type: 'ADD', inputs: ['n', 'm', 'h', 'p', 'r', 'j1', 'j2', 'tf'], outputs: ['sum'] },
    ]);
    const back = readIpes(writeIpes(n)).netlist;
    expect(strip(back)).to.deep.equal(strip(asIpes(n)));
  });

  it('writes a negative asymmetric triangle as GeckoCIRCUITS\' triangle of duty 1 − d', () => {
    const n = netlist([
      { name: 'NEG', type: 'SIGNAL', outputs: ['sum'], params: { waveform: 'triangle', amplitude: -2, frequency: 100, offset: 0, phase: 0, duty: 0.2 } },
    ]);
    const back = readIpes(writeIpes(n)).netlist;
    // Engine triangles: −2·E_0.2(u) = 2·E_0.8(u − 0.2) (E_d: −1 at u = 0, +1 at u = d), so phase
    // 0 − 0.2·360° = −72°.
    expect(block(back, 'NEG').params).to.deep.equal({ waveform: 'triangle', amplitude: 2, frequency: 100, offset: 0, phase: -72, duty: 0.8 });
  });

  it('reads 013_ex_3_pwm\'s triangle of duty 1 as the engine triangle with duty 1', () => {
    const text = gunzipSync(corpusFixture('013_ex_3_pwm.ipes')).toString('utf-8');
    let result;
    try {
      result = readIpesText(text, '013_ex_3_pwm.ipes');
    } catch (error) {
      // Other components of the file may still be unsupported; the triangle must not be among them.
      expect(String((error as Error).message)).to.not.match(/triangle/);
      return;
    }
    const tri = (result.netlist.blocks ?? []).find((b) => b.type === 'SIGNAL' && b.params?.waveform === 'triangle');
    expect(tri?.params?.duty).to.equal(1);
  });

  it('parses GeckoCIRCUITS data files: time shifted to start at 0, strictly increasing', () => {
    expect(parseSignalTable('1.0 5\n1.5 6\n\n3.0 -1\n')).to.deep.equal({ times: [0, 0.5, 2], values: [5, 6, -1] });
    expect(parseSignalTable('0 1\n0 2\n')).to.match(/line 2: time 0 does not increase/);
    expect(parseSignalTable('0 1\nx 2\n')).to.match(/line 2 is not 'time value'/);
    expect(parseSignalTable('0 1\n')).to.match(/fewer than two points/);
  });

  it('names the missing data file of an imported signal, and reads it from beside the .ipes', () => {
    const n = netlist([
      { name: 'PWL.1', type: 'PWL', outputs: ['sum'], params: { times: [0, 1e-4], values: [1, 3] } },
    ]);
    const written = gunzipSync(writeIpes(n)).toString('utf-8');
    // The same model with its data file outside: the GeckoFile entry without contents.
    const contents = /fileContents\[\] [-\d ]+\n/.exec(written)![0];
    let outside = edit(written, contents, '');
    outside = edit(outside, 'isExternal 0', 'isExternal 1');
    outside = outside.replace(/relPath PWL\.1\.txt/, 'relPath ..\\data\\PWL.1.txt');
    const error = netlistError(() => readIpesText(outside, 'model.ipes'));
    expect(error.code).to.equal('UNSUPPORTED_COMPONENTS');
    expect(error.message).to.include("data file 'PWL.1.txt'").and.include('beside model.ipes');
    const asked: string[] = [];
    const read = readIpesText(outside, 'model.ipes', {
      companion: (name) => {
        asked.push(name);
        return name === 'PWL.1.txt' ? textBytes('10.0 1\n10.0001 3\n') : undefined;
      },
    });
    expect(asked).to.deep.equal(['PWL.1.txt']);
    const pwl = block(read.netlist, 'PWL.1');
    expect(pwl.type).to.equal('PWL');
    expect(pwl.params!.values).to.deep.equal([1, 3]);
    expect((pwl.params!.times as number[])[1]).to.be.closeTo(1e-4, 1e-12);
  });

  it('reports the corpus\' imported signals with the name of their missing file', () => {
    const error = netlistError(() => readIpes(corpusFixture('049_CMFilter1Stage.ipes'), '049_CMFilter1Stage.ipes'));
    expect(error.message).to.include("data file 'uCM.txt'");
  });
});

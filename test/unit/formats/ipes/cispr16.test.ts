// The CISPR 16 test receiver (GeckoCIRCUITS typ 60, ReglerCISPR16) in .ipes files: the block of
// 027_cmNoise read from the corpus file (its imported common-mode signal supplied beside it) and
// simulated briefly, the
// automatic frequency selection reported, the settings of a file in interval mode, defaults for
// absent lines, write → read giving the same netlist, and flags GeckoCIRCUITS cannot hold refused.
import { expect } from 'chai';
import { gunzipSync } from 'node:zlib';
import type { Netlist } from '../../../../src/formats/netlist.js';
import { readIpes, readIpesText } from '../../../../src/formats/ipes/read.js';
import { writeIpes } from '../../../../src/formats/ipes/write.js';
import { measurement, simulateSync } from '../../../../src/engine/index.js';
import { block, corpusFixture, edit, netlistError, textBytes, asIpes } from './helpers.js';

const FILE = '027_cmNoise.ipes';
// 027 imports its common-mode voltage from swissuCM.txt, which the corpus does not have.
const companion = (name: string): Uint8Array | undefined => (name === 'swissuCM.txt' ? textBytes('0 0\n1e-3 1\n') : undefined);
const corpusText = (): string => gunzipSync(corpusFixture(FILE)).toString('utf-8');

describe('ipes CISPR16 test receiver (typ 60)', () => {
  it('reads the receiver of 027_cmNoise with its settings and input', () => {
    const { netlist, warnings } = readIpes(corpusFixture(FILE), FILE, { companion });
    const receiver = block(netlist, 'CISPR16.1');
    expect(receiver).to.deep.equal({
      name: 'CISPR16.1', type: 'CISPR16', inputs: ['uMeas'],
      params: { minFrequency: 9000, maxFrequency: 500000, interval: 9000, peak: 0, quasiPeak: 1, average: 0, blackman: 1 },
    });
    expect(block(netlist, 'VOLT.2').outputs).to.deep.equal(['uMeas']);
    // The file predates automaticQPSelection, whose default is the automatic selection.
    expect(warnings).to.include('CISPR16.1: GeckoCIRCUITS selects the analysed frequencies automatically (peaks of its spectrum estimate); ' +
      'the engine analyses every 9000 Hz (QPinterval) from minFreq to maxFreq');
  });

  it('simulates 027 with a supplied common-mode voltage and returns the receiver spectrum', () => {
    // A ±400 V triangle of 50 kHz (odd harmonics 50, 150, 250 kHz, ...) as the imported signal;
    // 4 ms of the 100 ms run: 40 000 steps, the last 2^15 samples analysed (the smallest power of two
    // ≥ half the record), bins of 305 Hz.
    const rows = Array.from({ length: 401 }, (_, i) => `${i * 1e-5} ${i % 2 === 1 ? 400 : -400}`);
    const { netlist } = readIpes(corpusFixture(FILE), FILE, { companion: (name) => (name === 'swissuCM.txt' ? textBytes(rows.join('\n')) : undefined) });
    const result = simulateSync({ ...netlist, settings: { ...netlist.settings, tEnd: 4e-3 } });
    const [spectrum] = result.receivers!;
    expect(spectrum.block).to.equal('CISPR16.1');
    expect(spectrum.resolution).to.be.closeTo(1 / (32768 * 1e-7), 1e-6);
    expect(spectrum.frequency[0]).to.be.closeTo(29 * spectrum.resolution, 1e-6);  // ⌊9 kHz / 305 Hz⌋ = 29
    expect(spectrum.frequency[spectrum.frequency.length - 1]).to.be.at.most(500e3);
    // Band B starts at 150 kHz; the first analysed frequency there lies on the third harmonic.
    expect(measurement(result, 'CISPR16.1.qp_max_frequency')).to.be.closeTo(150e3, 1e3);
    // 4 ms cannot resolve the 200 Hz bandwidth below 150 kHz: reported.
    expect(result.warnings.some((w) => w.startsWith('CISPR16.1: the analysed record resolves frequencies every 305.176 Hz'))).to.equal(true);
  });

  it('refuses 027 without its data file for that file only', () => {
    const error = netlistError(() => readIpes(corpusFixture(FILE), FILE));
    expect(error.code).to.equal('UNSUPPORTED_COMPONENTS');
    expect(error.details.map((d) => d.component)).to.deep.equal(['SIGNAL.1']);
  });

  it('reads the interval mode and every flag', () => {
    let text = edit(corpusText(), 'calcAverage false\n', 'calcAverage true\nautomaticQPSelection false\nQPinterval 4500.0\n');
    text = edit(text, 'calcPeak false\n', 'calcPeak true\n');
    text = edit(text, 'useBlackman true\n', 'useBlackman false\n');
    const { netlist, warnings } = readIpesText(text, FILE, { companion });
    expect(block(netlist, 'CISPR16.1').params).to.deep.equal({
      minFrequency: 9000, maxFrequency: 500000, interval: 4500, peak: 1, quasiPeak: 1, average: 1, blackman: 0,
    });
    expect(warnings.filter((w) => w.startsWith('CISPR16.1'))).to.deep.equal([]);
  });

  it('takes GeckoCIRCUITS defaults for absent settings', () => {
    let text = corpusText();
    for (const line of ['calcAverage false\n', 'calcPeak false\n', 'calcQPeak true\n', 'useBlackman true\n', 'maxFreq 500000.0\n', 'minFreq 9000.0\n']) {
      text = edit(text, line, '');
    }
    const { netlist } = readIpesText(text, FILE, { companion });
    expect(block(netlist, 'CISPR16.1').params).to.deep.equal({
      minFrequency: 9000, maxFrequency: 2e6, interval: 9000, peak: 1, quasiPeak: 1, average: 0, blackman: 1,
    });
  });

  it('writes and reads back the same netlist (a receiver with a frequency bound to a global parameter)', () => {
    // (027 itself cannot be written back: its subcircuit component names contain '/'.)
    const strip = (n: Netlist): Netlist => ({ ...n, format: undefined, layout: undefined });
    const n: Netlist = {
      settings: { tEnd: 1e-3, dt: 1e-7, solver: 'backward-euler' },
      parameters: { fmax: 3e6 },
      elements: [{ name: 'R.1', type: 'R', nodes: ['a', '0'], params: { R: 1 } }, { name: 'V.1', type: 'V', nodes: ['a', '0'], params: { waveform: 'dc', value: 1 } }],
      blocks: [
        { name: 'SIGNAL.1', type: 'SIGNAL', outputs: ['x'], params: { waveform: 'sine', amplitude: 1, frequency: 2e5, offset: 0, phase: 0 } },
        { name: 'CISPR16.1', type: 'CISPR16', inputs: ['x'], params: { minFrequency: 150e3, maxFrequency: '$fmax', interval: 5e3, peak: 1, quasiPeak: 0, average: 1, blackman: 0 } },
      ],
    };
    const written = new TextDecoder().decode(gunzipSync(writeIpes(n)));
    expect(written).to.include('automaticQPSelection false').and.include('maxFreq$ParameterName $fmax');
    const back = readIpes(writeIpes(n));
    expect(strip(back.netlist)).to.deep.equal(strip(asIpes(n)));
    expect(back.warnings.filter((w) => w.startsWith('CISPR16.1'))).to.deep.equal([]);
  });

  it('refuses to write a flag that is not 0 or 1', () => {
    const n: Netlist = {
      settings: { tEnd: 1e-3, dt: 1e-7 },
      elements: [{ name: 'R.1', type: 'R', nodes: ['a', '0'], params: { R: 1 } }, { name: 'V.1', type: 'V', nodes: ['a', '0'], params: { waveform: 'dc', value: 1 } }],
      blocks: [
        { name: 'SIGNAL.1', type: 'SIGNAL', outputs: ['x'], params: { waveform: 'sine', amplitude: 1, frequency: 2e5 } },
        { name: 'CISPR16.1', type: 'CISPR16', inputs: ['x'], params: { average: 2 } },
      ],
    };
    const error = netlistError(() => writeIpes(n));
    expect(error.message).to.include('CISPR16.1').and.include('average must be 0 or 1 for GeckoCIRCUITS, got 2');
  });
});

// SCOPE channels are GeckoCIRCUITS' scope rows: every input (an unconnected one reads 0), each
// followed by its mean-value signal, labelled as GeckoCIRCUITS saved them. The expected rows are
// those GeckoCIRCUITS itself reported for these files (/work/shared/gecko-reference).
import { expect } from 'chai';
import { simulateSync } from '../../../../src/engine/index.js';
import { readIpes, readIpesText, writeIpes } from '../../../../src/formats/ipes/index.js';
import { channelKeys, scopeChannels, type ControlBlock, type Netlist } from '../../../../src/formats/netlist.js';
import { block, corpusFixture, edit } from './helpers.js';
import { gunzipSync } from 'node:zlib';

const read = (file: string): Netlist => readIpes(corpusFixture(file), file).netlist;
const labels = (scope: ControlBlock): string[] => scopeChannels(scope).map((c) => (c.mean ? `*${c.label}` : c.label));

describe('.ipes scopes: channels as GeckoCIRCUITS numbers them', () => {
  it('065: 26 inputs and 3 mean-value signals give 29 channels, inputs 27–29 included', () => {
    const scope = block(read('065_UltraSparseMatrixConverter.ipes'), 'SCOPE.1');
    expect(scope.params?.meanInputs).to.deep.equal([11, 8, 5]);
    expect(scope.params?.meanSpans).to.deep.equal([6.66e-5, 6.66e-5, 6.66e-5]);
    expect(labels(scope)).to.deep.equal(['fDR', 'un1', 'un2', 'un3', 'uL1', '*<uL1>', 'uL2', 'uL3', 'iN1', '*<iN1>', 'sg.8', 'sg.9',
      'uZK', '*<uZK>', 's1p', 's2p', 's3p', 's1m', 's2m', 's3m', 'sA', 'sB', 'sC', 'iN1', 'iN2', 'iN3', 'iL1', 'iL2', 'iL3']);
    const channels = scopeChannels(scope);
    expect(channels[28]).to.deep.equal({ key: 'SCOPE.1.ch29', index: 29, label: 'iL3', input: 25, mean: false });
    expect(channels[5]).to.include({ key: 'SCOPE.1.ch6', input: 4, mean: true });
    // Inputs 9 and 10 are unconnected: they read the zero source.
    expect([scope.inputs![channels[10].input], scope.inputs![channels[11].input]]).to.deep.equal(['_zero', '_zero']);
  });

  it('033: SCOPE.16 has U, <U>, ia, <ia>, two unconnected inputs, then ua, ub, uc', () => {
    const netlist = read('033_indirect_matrix_java_with_PMSM_control.ipes');
    const scope = block(netlist, 'SCOPE.16');
    expect(labels(scope).slice(0, 9)).to.deep.equal(['U', '*<U>', 'ia', '*<ia>', 'sg.2', 'sg.3', 'ua', 'ub', 'uc']);
    expect(scopeChannels(scope)).to.have.length(18);
    expect(channelKeys(netlist).filter((k) => k.startsWith('SCOPE.16.'))).to.have.length(18);
  });

  it('067: seven mean-value signals, each after its input', () => {
    const scope = block(read('067_three-phase_ACAC_sparsematrixConverter_junction_temperature.ipes'), 'SCOPE.6');
    expect(labels(scope).slice(3, 17)).to.deep.equal(['uL1', '*<uL1>', 'uL2', '*<uL2>', 'uL3', '*<uL3>', 'iN1', '*<iN1>', 'iN2', '*<iN2>',
      'iN3', '*<iN3>', 'uZK', '*<uZK>']);
    expect(scopeChannels(scope)).to.have.length(29);
  });

  it('the writer saves the mean-value signals: read → write → read keeps the scope', () => {
    const first = read('065_UltraSparseMatrixConverter.ipes');
    const again = readIpes(writeIpes(first), '065_UltraSparseMatrixConverter.ipes').netlist;
    expect(block(again, 'SCOPE.1')).to.deep.equal(block(first, 'SCOPE.1'));
  });

  it('a mean-value signal averages the samples GeckoCIRCUITS averages', () => {
    // 045 with mean values of u2b over 10 µs (first in the list) and of u2a over 0.1 µs. In this
    // edit GeckoCIRCUITS averaged samples 2..49 of u2b (<u2b> = 3.0299759 with its u2b, which lags
    // pesim's by one step) and reported <u2a> = 0: its interval holds only sample 1, which adds
    // nothing.
    const text = edit(gunzipSync(corpusFixture('045_opamp_frequency.ipes')).toString('latin1'),
      'savedSignalNames[] /u1g/u2a/u2b\navgIndices[] \navgValues[] \n',
      'savedSignalNames[] /u1g/u2a/<u2a>/u2b/<u2b>\navgIndices[] 2 1 \navgValues[] 1.0E-5 1.0E-7 \n');
    const { netlist } = readIpesText(text, '045_mean.ipes');
    const result = simulateSync(netlist);
    const byLabel = (label: string) => result.channels.find((c) => c.label === label)!;
    expect(byLabel('<u2b>').key).to.equal('SCOPE.1.ch5');
    expect(byLabel('<u2a>').key).to.equal('SCOPE.1.ch3');
    const u2b = result.signals['SCOPE.1.ch5'];
    expect(u2b.every((v) => v === u2b[0])).to.equal(true);
    const input = result.signals['SCOPE.1.ch4'].slice(2, 50);
    expect(u2b[0]).to.be.closeTo(input.reduce((a, b) => a + b, 0) / 49, 1e-12);
    expect(result.measurements['SCOPE.1.ch3_avg']).to.equal(0);
  });
});

// Electro-thermal examples of the corpus against GeckoCIRCUITS' own results: their Java blocks
// (dropped by the reader: Java code is not executed) are GeckoCIRCUITS regression checks that state
// the values GeckoCIRCUITS computes, and one hand calculation (device loss × thermal resistance).
import { expect } from 'chai';
import { simulateSync, type SimulationResult } from '../../../../src/engine/index.js';
import type { Netlist } from '../../../../src/formats/netlist.js';
import { readIpes } from '../../../../src/formats/ipes/index.js';
import { corpusFixture } from './helpers.js';

function run(file: string, probes: string[], settings: Partial<Netlist['settings']>): SimulationResult {
  const { netlist } = readIpes(corpusFixture(file), file);
  netlist.blocks = [...(netlist.blocks ?? []), { name: 'SCOPE.CHECK', type: 'SCOPE', inputs: probes }];
  return simulateSync({ ...netlist, settings: { ...netlist.settings, ...settings } });
}

const m = (r: SimulationResult, channel: number, kind: 'min' | 'max' | 'avg'): number => r.measurements[`SCOPE.CHECK.ch${channel}_${kind}`];

describe('GeckoCIRCUITS corpus: electro-thermal examples', function () {
  this.timeout(120_000);

  it('029 buck-boost: the IGBT junction temperature over 90–100 ms is GeckoCIRCUITS\' (58.371 / 51.289 °C, 0.5 %)', () => {
    // MODEL_TEST1 checks max and min of TjSw after 90 ms: TEST_MAX 58.37115267587049, TEST_MIN 51.28910698393673.
    const { netlist } = readIpes(corpusFixture('029_BuckBoost_thermal_with_java.ipes'), '029');
    expect(netlist.blocks!.find((b) => b.outputs?.includes('TjSw'))?.type).to.equal('TEMP');
    const r = run('029_BuckBoost_thermal_with_java.ipes', ['TjSw'], { measureFrom: 0.09 });
    expect(m(r, 1, 'max')).to.be.closeTo(58.37115267587049, 0.005 * 58.37);
    expect(m(r, 1, 'min')).to.be.closeTo(51.28910698393673, 0.005 * 51.29);
  });

  it('029: junction above heat sink = IGBT loss × Rth of the Cauer chain (hand calculation, 3 %)', () => {
    // The chain Rth.5…Rth.8 (0.3837 + 0.4533 + 0.5877 + 0.2483 K/W) has time constants below 20 ms;
    // over the last 10 ms its mean drop is P_IGBT·ΣR (the heat sink, 1 J/K, moves by < 0.2 K).
    const { netlist } = readIpes(corpusFixture('029_BuckBoost_thermal_with_java.ipes'), '029');
    netlist.blocks!.push({ name: 'TEMP.CHECK', type: 'TEMP', outputs: ['drop'], params: { nodes: ['Tj', 'TSink'] } },
      { name: 'SCOPE.CHECK', type: 'SCOPE', inputs: ['drop'] });
    const r = simulateSync({ ...netlist, settings: { ...netlist.settings, measureFrom: 0.09 } });
    const igbt = r.losses!.find((l) => l.device === 'IGBT.1')!;
    expect(igbt.totalLoss).to.be.greaterThan(10);
    const sumR = 0.3837 + 0.4533 + 0.5877 + 0.2483;
    expect(r.measurements['SCOPE.CHECK.ch1_avg']).to.be.closeTo(igbt.totalLoss * sumR, 0.03 * igbt.totalLoss * sumR);
  });

  it('031 three-phase rectifier: the loss peaks and switching counts are GeckoCIRCUITS\' (1e-5, exact)', () => {
    // MODEL_TEST: after 20 ms the three counters sum to 2262, the maximum of the signal labelled
    // pvD1 is 38.8905763261036 W and of pvIGBT1 6582.611049592271 W (its TEST_IGBT / TEST_DIODE).
    const r = run('031_ThreePhase-VSR_10kW_thermal_with_java.ipes', ['pvD1', 'pvIGBT1', 'cntR', 'cntS', 'cntT'], { measureFrom: 0 });
    expect(m(r, 1, 'max')).to.be.closeTo(38.8905763261036, 1e-5 * 38.89);
    expect(m(r, 2, 'max')).to.be.closeTo(6582.611049592271, 1e-5 * 6582.6);
    const counts = [3, 4, 5].map((ch) => r.signals[`SCOPE.CHECK.ch${ch}`].at(-1)!);
    expect(counts.reduce((a, b) => a + b)).to.equal(2262);
  });
});

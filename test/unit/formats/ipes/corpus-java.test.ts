// GeckoCIRCUITS corpus files with Java blocks (c typ 61), read and simulated with their Java code:
// GeckoCIRCUITS' own check of 043 passes, the Java carriers of 019/035 and the Swiss rectifier's
// Java modulator (025) do what their code says, the Java space-vector modulator and speed loop
// of 033 drive the PMSM to its speed reference, and read → write → read keeps every Java block.
import { expect } from 'chai';
import { simulateSync, type SimulationResult } from '../../../../src/engine/index.js';
import type { Netlist } from '../../../../src/formats/netlist.js';
import { readIpes, writeIpes } from '../../../../src/formats/ipes/index.js';
import { corpusFixture } from './helpers.js';

/** Runs a corpus file with an extra scope on `signals` (SCOPE.X) until tEnd (or the file's). */
function run(file: string, signals: (n: Netlist) => string[], tEnd?: number): { netlist: Netlist; r: SimulationResult } {
  const { netlist } = readIpes(corpusFixture(file), file);
  netlist.blocks!.push({ name: 'SCOPE.X', type: 'SCOPE', inputs: signals(netlist) });
  netlist.settings = { ...netlist.settings, maxPoints: 1_000_000, ...(tEnd ? { tEnd, tPre: 0 } : {}) };
  return { netlist, r: simulateSync(netlist) };
}

const java = (n: Netlist, name: string) => n.blocks!.find((b) => b.name === name)!;
const at = (r: SimulationResult, t: number): number => r.time.findIndex((x) => x >= t - 1e-12);

describe('GeckoCIRCUITS corpus: Java blocks run', function () {
  this.timeout(120_000);

  it("043_OpAmp: the file's own Java check (GeckoCIRCUITS' Σ|uN1| + |uOUT1| = 1183185 ± 0.08 %) reports success", () => {
    const { netlist } = readIpes(corpusFixture('043_OpAmp.ipes'), '043');
    expect(java(netlist, 'JAVA.1').params?.observer).to.equal(1);
    const r = simulateSync(netlist);
    expect(r.warnings.some((w) => /^JAVA\.1: the code reported its check passed \(gecko\.GeckoSim\._testSuccessful\) at t = 0\.09999/.test(w))).to.equal(true);
  });

  for (const file of ['019_outputstagemodel.ipes', '035_NPCmodel.ipes']) {
    it(`${file.slice(0, 3)}: JAVA_FUNCTION.1 makes a 0…1 triangle carrier at f_s = 10 kHz (steps of 2·f_s·dt), mean 0.5`, () => {
      const { r } = run(file, (n) => [java(n, 'JAVA_FUNCTION.1').outputs![0]], 2e-3);
      const carrier = r.signals['SCOPE.X.ch1'];
      const tail = carrier.slice(at(r, 1e-3));
      expect(Math.min(...tail)).to.be.within(0, 0.02 + 1e-9);
      expect(Math.max(...tail)).to.be.within(0.98 - 1e-9, 1);
      expect(tail.reduce((a, b) => a + b, 0) / tail.length).to.be.closeTo(0.5, 0.01);
      // One maximum per carrier period: 10 in 1 ms.
      let peaks = 0;
      for (let i = 1; i + 1 < tail.length; i++) if (tail[i] > tail[i - 1] && tail[i] >= tail[i + 1]) peaks++;
      expect(peaks).to.equal(10);
    });
  }

  it('025_Swiss_Rect: the Java modulator\'s angle is (t·50·1000) mod 1000 and its switch pattern is a row of its table', () => {
    const { r } = run('025_Swiss_Rect.ipes', (n) => java(n, 'JAVA_FUNCTION.2').outputs!, 10e-3);
    const theta = r.signals['SCOPE.X.ch7'];
    for (const t of [1e-3, 4.5e-3, 9.99e-3]) expect(theta[at(r, t)]).to.be.closeTo((r.time[at(r, t)] * 50 * 1000) % 1000, 1e-6);
    // 1 ms in (theta 50 < 166 − 0.5·dT): state 1 = steady state case 1, switches S3a and S3b on.
    expect([1, 2, 3, 4, 5, 6].map((k) => r.signals[`SCOPE.X.ch${k}`][at(r, 1e-3)])).to.deep.equal([0, 0, 0, 0, 1, 1]);
  });

  it('033: the Java sparse-matrix modulator and the speed loop drive the PMSM to n* = +3000 rpm, then −3000 rpm after the reversal (1 %)', () => {
    const { r } = run('033_indirect_matrix_java_with_PMSM_control.ipes', (n) => [n.blocks!.find((b) => b.type === 'MACHINE' && b.params?.quantity === 'n')!.outputs![0]]);
    const n = r.signals['SCOPE.X.ch1'];
    // n* is +3000 rpm for the first 70 ms (rectangle, 5 Hz, duty 0.35), then −3000 rpm.
    expect(n[at(r, 0.065)]).to.be.closeTo(3000, 30);
    expect(n[n.length - 1]).to.be.closeTo(-3000, 30);
  });

  it('read → write → read keeps the Java blocks of 019, 025, 033 and 035 (code, terminals, observers)', () => {
    for (const file of ['019_outputstagemodel.ipes', '025_Swiss_Rect.ipes', '033_indirect_matrix_java_with_PMSM_control.ipes', '035_NPCmodel.ipes']) {
      const first = readIpes(corpusFixture(file), file).netlist;
      const again = readIpes(writeIpes(first), file).netlist;
      const javaBlocks = (n: Netlist) => n.blocks!.filter((b) => b.type === 'JAVA' || b.type === 'MACHINE');
      expect(javaBlocks(again), file).to.deep.equal(javaBlocks(first));
      expect(javaBlocks(first).length, file).to.be.greaterThan(0);
    }
  });
});

// The GeckoSCRIPT of the GeckoCIRCUITS examples in test/fixtures/gecko-corpus/, run by the built
// `pesim script` to its end: every file with a non-empty <scripterCode> is listed here, so that a
// new one is noticed. 035's sweep (5 switching × 4 output frequencies, each raising the current
// until the junction temperature reaches its limit: hundreds of runs) runs its code unchanged over
// one switching and one output frequency, to keep the test bounded.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeIpes } from '../../../src/formats/ipes/container.js';
import { embeddedScript } from '../../../src/script/ipes-script.js';

const bin = fileURLToPath(new URL('../../../bin/pesim.js', import.meta.url));
const corpus = fileURLToPath(new URL('../../fixtures/gecko-corpus/', import.meta.url));
const pesimScript = (file: string) => spawnSync(process.execPath, [bin, 'script', file], { encoding: 'utf8', timeout: 600000 });

function withScripts(folder: string): string[] {
  return readdirSync(folder).filter((name) => name.endsWith('.ipes'))
    .filter((name) => embeddedScript(readFileSync(join(folder, name)), name).code.text.trim() !== '');
}

describe('script: the GeckoSCRIPT of the GeckoCIRCUITS corpus', function () {
  this.timeout(600000);

  it('lists the corpus files with a script', () => {
    expect(withScripts(corpus)).to.deep.equal(['002_example.ipes', '017_tutorialBuck.ipes', '035_NPCmodel.ipes', '099_NativeCTest.ipes']);
  });

  it('002: stores its global matrix and ends', () => {
    const r = pesimScript(join(corpus, '002_example.ipes'));
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.equal('');
  });

  it('017: detects the buck\'s steady state with dt and time of the circuit and prints it', () => {
    const r = pesimScript(join(corpus, '017_tutorialBuck.ipes'));
    expect(r.status, r.stderr).to.equal(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).to.match(/^Steady state reached at (\S+) seconds with period of oscillation: (\S+) seconds\.$/);
    expect(lines[1]).to.equal('Steady state reached:  Yes.');
    const time = Number(/time: (\S+) s$/.exec(lines[2])![1]);
    const period = Number(/period: (\S+) s$/.exec(lines[3])![1]);
    const steps = Number(/steady state: (\S+)$/.exec(lines[4])![1]);
    const cycles = Number(/steady state: (\S+)$/.exec(lines[5])![1]);
    // dt = 1 ns, end time 1 ms (the circuit's), switching at 200 kHz.
    expect(time).to.be.greaterThan(100e-9).and.lessThan(1e-3);
    expect(period).to.be.closeTo(5e-6, 2.1e-9);
    expect(steps).to.be.closeTo(time / 1e-9, 1e-6);
    expect(cycles).to.be.closeTo(time / period, 1e-9);
  });

  it('035: raises the output current (iMAX, the sine\'s peak in this 1.62 file) until Tj reaches 130 °C', () => {
    const text = decodeIpes(readFileSync(join(corpus, '035_NPCmodel.ipes')), '035_NPCmodel.ipes').text
      .replace('int[] f_mn = {10, 25, 50, 65};', 'int[] f_mn = {10};')
      .replace('int[] f_sk = {10000, 20000, 50000, 75000, 100000};', 'int[] f_sk = {10000};');
    expect(text).to.include('int[] f_sk = {10000};');
    const file = join(mkdtempSync(join(tmpdir(), 'pesim-corpus-')), '035_NPCmodel.ipes');
    writeFileSync(file, text);
    const r = pesimScript(file);
    expect(r.status, r.stderr).to.equal(0);
    const currents = [...r.stdout.matchAll(/I_RMS = (\S+) A -> Peak output current = (\S+) A/g)].map((m) => [Number(m[1]), Number(m[2])]);
    const temperatures = [...r.stdout.matchAll(/^Tj = (\S+)C$/gm)].map((m) => Number(m[1]));
    expect(currents.length).to.be.greaterThan(1);
    expect(temperatures).to.have.length(currents.length);
    // The script starts at 200 A RMS for 10 kHz and adds 5 A a run; Tj rises with the current.
    expect(currents[0]).to.deep.equal([205, Math.sqrt(2) * 205]);
    for (let i = 1; i < temperatures.length; i++) expect(temperatures[i]).to.be.greaterThan(temperatures[i - 1]);
    expect(temperatures.at(-1)).to.be.at.least(130);
    expect(temperatures.slice(0, -1).every((t) => t < 130)).to.equal(true);
    expect(r.stdout.trim().split('\n').at(-2)).to.equal('The value above is the maximum output current allowable.');
  });

  it('099: refuses the native C block clearly, before the script runs', () => {
    const r = pesimScript(join(corpus, '099_NativeCTest.ipes'));
    expect(r.status).to.equal(1);
    expect(r.stdout).to.equal('');
    expect(r.stderr).to.match(/cannot simulate: libtestJNI_DLL\.so \(c typ 88\): native C block/);
  });
});

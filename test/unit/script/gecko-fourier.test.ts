// GeckoSCRIPT's Fourier functions: realFFT/floatFFT against the DFT's definition in JTransforms'
// packing (the FFT GeckoCIRCUITS calls), and getFourier/getSignalFourier against the exact Fourier
// coefficients of a sine source in a simulated circuit; getSignalCharacteristics against the
// single statistics; getAccessibleParameters' lines.
import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Netlist } from '../../../src/formats/netlist.js';
import { geckoFourier, realForward } from '../../../src/script/gecko-fourier.js';
import { runScript, scriptError } from './run-script.js';

/** JTransforms' realForward packing of X_k = Σ x_j e^(−2πi jk/n), by the definition (O(n²)). */
function packedByDefinition(x: number[]): number[] {
  const n = x.length;
  const re = (k: number) => x.reduce((s, v, j) => s + v * Math.cos((2 * Math.PI * j * k) / n), 0);
  const im = (k: number) => -x.reduce((s, v, j) => s + v * Math.sin((2 * Math.PI * j * k) / n), 0);
  const out = new Array<number>(n).fill(0);
  out[0] = re(0);
  const half = Math.floor(n / 2);
  for (let k = 1; k < (n % 2 === 0 ? half : half + 1); k++) {
    out[2 * k] = re(k);
    if (2 * k + 1 < n) out[2 * k + 1] = im(k);
  }
  if (n > 1) out[1] = n % 2 === 0 ? re(half) : im(half);
  return out;
}

/**
 * A sine of offset 1 and amplitude 2 sampled 1024 times a period: dt = 2⁻²⁰ s, f = 1024 Hz, two
 * periods; every sample time is exact in single precision too, as GeckoCIRCUITS' window ends are.
 */
const DT = 2 ** -20;
function sineCircuit(): Netlist {
  return {
    name: 'sine',
    settings: { tEnd: 2048 * DT, dt: DT, solver: 'backward-euler' },
    elements: [
      { name: 'V.1', type: 'V', nodes: ['a', '0'], params: { value: 1 } },
      { name: 'R.1', type: 'R', nodes: ['a', '0'], params: { R: 1 } },
    ],
    blocks: [
      { name: 'SIGNAL.1', type: 'SIGNAL', outputs: ['x'], params: { waveform: 'sine', amplitude: 2, frequency: 1024, offset: 1 } },
      { name: 'SCOPE.1', type: 'SCOPE', inputs: ['x', 'x'] },
    ],
  };
}

describe('script: GeckoSCRIPT Fourier and parameter lists', function () {
  this.timeout(60000);

  it('realFFT packs the forward DFT (negative exponent) as JTransforms does, for even, odd and power-of-two lengths', () => {
    for (const n of [1, 2, 4, 6, 7, 8, 12, 15, 64]) {
      const x = Array.from({ length: n }, (_, j) => Math.fround(Math.sin(0.7 * j) + 0.3 * j - (j % 3)));
      const got = realForward(x);
      const want = packedByDefinition(x);
      want.forEach((w, i) => expect(got[i], `n=${n} [${i}]`).to.be.closeTo(w, 1e-5 * (1 + Math.abs(w))));
    }
    // X_1 of {1, 2, 3, 4} is −2 + 2i: the imaginary part is +2 with e^(−2πi jk/n)
    expect(realForward([1, 2, 3, 4])).to.deep.equal([10, -2, -2, 2]);
    // GeckoCIRCUITS' realFFT(new float[]{1, 2, 3, 4, 7}) (run headless): the floats it prints
    expect(realForward([1, 2, 3, 4, 7])).to.deep.equal([17.0, 1.9878697, -1.881966, 5.3430676, -4.118034].map(Math.fround));
  });

  it('gives GeckoCIRCUITS\' a_n, b_n, c_n, φ_n of a sampled waveform: power-of-two samples after t1, b_n of the e^(−iωt) transform', () => {
    const n = 1024;
    const time = Float64Array.from({ length: 2 * n + 1 }, (_, k) => k / n);
    // one period from t = 0.5: x = 1 + 2 sin ωt + 0.5 cos 3ωt − 0.25 sin 5ωt = 1 − 2 sin ωs − 0.5 cos 3ωs + 0.25 sin 5ωs, s = t − 0.5
    const w = 2 * Math.PI;
    const values = time.map((t) => 1 + 2 * Math.sin(w * t) + 0.5 * Math.cos(3 * w * t) - 0.25 * Math.sin(5 * w * t));
    const [a, b, c, phi] = geckoFourier(time, values, 0.5 - 0.5 / n, 1.5, 6, 'getFourier');
    const close = (got: number[], want: number[]) => want.forEach((v, i) => expect(got[i], `[${i}]`).to.be.closeTo(v, 2e-6));
    // Fourier series x = A0/2 + Σ A_n cos nωs + B_n sin nωs: A = [2, 0, 0, −0.5], B_1 = −2, B_5 = 0.25; GeckoCIRCUITS' b_n = −B_n
    close(a, [2, 0, 0, -0.5, 0, 0, 0]);
    close(b, [0, 2, 0, 0, 0, -0.25, 0]);
    close(c, [1, 2, 0, 0.5, 0, 0.25, 0]);
    close([phi[0], phi[1], phi[3], phi[5]], [0, 0, -Math.PI / 2, Math.PI]);
    expect(() => geckoFourier(time, values, 0.5 - 0.5 / n, 1.5, 512, 'getFourier')).to.throw(/512 harmonics need more than 1025 samples; .* gives 1024/);
    expect(() => geckoFourier(time, values, 3, 4, 2, 'getFourier')).to.throw(/too few samples/);
  });

  it('getFourier, getSignalFourier, getSignalCharacteristics and realFFT in a script over a simulated sine', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pesim-fourier-')), 'sine.json');
    writeFileSync(file, JSON.stringify(sineCircuit()));
    // one period from sample 512 (half a period in): t1 just before it, t2 just after sample 1536
    const [t1, t2, period] = [511.5 * DT, 1536.5 * DT, 1024 * DT];
    const out = await runScript(`loadCircuit("${file}");
      runSimulation();
      double[][] f = getFourier("SCOPE.1", 1, ${t1}, ${t2}, 3);
      double[][] g = getFourier("SCOPE.1", ${t1}, ${t2}, 3);
      double[][] s = getSignalFourier("SCOPE.1", ${t1}, ${t2}, 3);
      print(f.length + " " + f[0].length + " " + (f[2][1] == g[2][1]) + " " + (s[3][1] == g[3][1]));
      print(f[0][0] + " " + f[1][1] + " " + f[2][0] + " " + f[2][1] + " " + f[3][1] + " " + f[2][2]);
      double[] ch = getSignalCharacteristics("SCOPE.1", 1, 0, ${period});
      double[] ch0 = getSignalCharacteristics("SCOPE.1", 0, ${period});
      print(ch.length + " " + (ch[8] == ch[4] - ch[3]) + " " + (ch[0] == getAvg("SCOPE.1", 1, 0, ${period})) + " " + (ch[1] == getRMS("SCOPE.1", 0, ${period})) + " " + (ch0[4] == getMax("SCOPE.1", 0, 0, ${period})));
      print(ch[2] + " " + ch[3] + " " + ch[4] + " " + (ch[7] == getShape("SCOPE.1", 1, 0, ${period})) + " " + (ch[5] == getRipple("SCOPE.1", 1, 0, ${period})) + " " + (Double.compare(ch[6], getKlirr("SCOPE.1", 0, ${period})) == 0) + " " + (Double.compare(ch[2], getTHD("SCOPE.1", 0, ${period})) == 0));
      for (double[] row : f) print(java.util.Arrays.toString(row));
      float[] spectrum = floatFFT(new float[]{1, 2, 3, 4});
      print(spectrum[0] + " " + spectrum[1] + " " + spectrum[2] + " " + spectrum[3] + " " + realFFT(new float[]{1, 1, 1}).length);`);
    const lines = out.trim().split('\n');
    expect(lines[0]).to.equal('4 4 true true');
    // from half a period in: x = 1 − 2 sin ωs, so a_0 = 2, b_1 = +2 (GeckoCIRCUITS' sign), c_0 = 1, c_1 = 2, φ_1 = 0
    const [a0, b1, c0, c1, phi1, c2] = lines[1].split(' ').map(Number);
    expect(a0).to.be.closeTo(2, 1e-5);
    expect(b1).to.be.closeTo(2, 1e-5);
    expect(c0).to.be.closeTo(1, 1e-5);
    expect(c1).to.be.closeTo(2, 1e-5);
    expect(phi1).to.be.closeTo(0, 1e-5);
    expect(c2).to.be.closeTo(0, 1e-5);
    // GeckoCIRCUITS returns nine: the eight statistics and the peak-to-peak value
    expect(lines[2]).to.equal('9 true true true true');
    // over one period: THD 0 (a pure sine on an offset: √ of ≈ 0, NaN when rounding leaves it below
    // 0, as in GeckoCIRCUITS), min −1, max 3; all statistics match the single functions
    const [thd, min, max, shape, ...same] = lines[3].split(' ');
    expect(thd === 'NaN' || Number(thd) < 1e-3, thd).to.equal(true);
    expect(Number(min)).to.be.closeTo(-1, 1e-4);
    expect(Number(max)).to.be.closeTo(3, 1e-4);
    expect(shape).to.equal('true');
    expect(same).to.deep.equal(['true', 'true', 'true']);
    // what GeckoCIRCUITS (run headless through GeckoExternal on this circuit saved as .ipes) returns
    // for getFourier("SCOPE.1", 1, t1, t2, 3), digit for digit
    expect(lines.slice(4, 8)).to.deep.equal([
      '[2.0, -1.2277638014821657E-16, -4.47035164441445E-9, 2.6099603042689605E-17]',
      '[8.311872079502791E-9, 2.0, 8.441442774589003E-26, -1.7306803767880297E-9]',
      '[1.0, 2.0, 4.47035164441445E-9, 1.7306803767880299E-9]',
      '[0.0, -6.138819007410828E-17, -1.5707963267948966, 3.1415926385092483]',
    ]);
    expect(lines[8]).to.equal('10.0 -2.0 -2.0 2.0 3');
  });

  it('floatFFT and realFFT transform their argument in place and return it, as GeckoCIRCUITS (AbstractGeckoCustom.floatFFT)', async () => {
    const out = await runScript(`float[] x = new float[]{1, 2, 3, 4};
      float[] y = floatFFT(x);
      print(x[0] + " " + x[1] + " " + x[2] + " " + x[3] + " " + (x == y));
      float[] z = {1, 1, 1};
      realFFT(z);
      print(z[0] + " " + z.length);`);
    expect(out.trim().split('\n')).to.deep.equal(['10.0 -2.0 -2.0 2.0 true', '3.0 3']);
  });

  it('lists the short names setParameter accepts, as "name\\t\\tunit\\tdescription", under both names', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pesim-params-')), 'sine.json');
    writeFileSync(file, JSON.stringify(sineCircuit()));
    const out = await runScript(`loadCircuit("${file}");
      for (String p : getAccessibleParameters("SIGNAL.1")) print(p);
      print(getParametersNames("R.1")[0]);
      for (String p : getAccessibleParameters("V.1")) print(p);`);
    // GeckoCIRCUITS' own lines for these elements (run headless), those of the parameters pesim takes
    expect(out.split('\n').slice(0, 11)).to.deep.equal([
      'amplMAX\t\t\tPeak amplitude (sinus/triangle/rect)', 'f\t\tHz\tfrequency', 'offset\t\t\toffset of waveform from zero',
      'phase\t\t\tsignal phase delay (degrees)', 'd\t\t\tduty ratio',
      'R\t\tohm\tResistor R [Ohm]',
      'uDC\t\tV\tDC (constant) value of source component', 'f\t\tHz\tfrequency', 'phase\t\tdegrees\tphase shift of waveform',
      'offset\t\tV\toffset of waveform from zero', 'uMAX\t\tV\tPeak amplitude (sinus/triangle/rect)',
    ]);
    const { text } = await scriptError(`loadCircuit("${file}"); getAccessibleParameters("R.9");`);
    expect(text).to.match(/no component "R\.9"/);
  });
});

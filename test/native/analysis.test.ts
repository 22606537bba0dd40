// Signal analysis through the addon: closed forms (sine RMS, square-wave THD, known harmonics with
// phase and DC offset), agreement with a naive O(N·H) DFT on random data for every FFT path,
// validation errors with their codes and fields, sync/async agreement, and a 10 M-sample run.
import { expect } from 'chai';
import {
  AnalysisError, characteristics, characteristicsSync, fourier, fourierSync, rms, rmsSync, spectrum, spectrumSync,
} from '../../src/engine/analysis.js';
import { mulberry32 } from '../fixtures/prng.js';

const TAU = 2 * Math.PI;

/** Deterministic pseudo-random samples in [-1, 1). */
function random(n: number, seed: number): Float64Array {
  const next = mulberry32(seed);
  return Float64Array.from({ length: n }, () => next() * 2 - 1);
}

/** Naive DFT bin k of x[0..m). */
function dftBin(x: Float64Array, m: number, k: number): [number, number] {
  let re = 0;
  let im = 0;
  for (let j = 0; j < m; j++) {
    const angle = (-TAU * ((j * k) % m)) / m;
    re += x[j] * Math.cos(angle);
    im += x[j] * Math.sin(angle);
  }
  return [re, im];
}

function failure(run: () => unknown): AnalysisError {
  try {
    run();
  } catch (error) {
    expect(error).to.be.instanceOf(AnalysisError);
    return error as AnalysisError;
  }
  throw new Error('expected the call to fail');
}

describe('native: signal analysis', () => {
  it('sine: rms = A/√2, mean 0, peak-to-peak 2A, form factor π/(2√2), no distortion', async () => {
    const fs = 20_000;
    const x = Float64Array.from({ length: 4000 }, (_, j) => 5 * Math.sin((TAU * 50 * j) / fs));
    const c = await characteristics(x, fs);
    expect(c.rms).to.be.closeTo(5 / Math.SQRT2, 1e-12);
    expect(c.average).to.be.closeTo(0, 1e-12);
    expect(c.peakToPeak).to.be.closeTo(10, 1e-9);
    expect(c.ripple).to.equal(0);
    expect(c.thd).to.be.closeTo(0, 1e-12);
    expect(c.klirr).to.be.closeTo(0, 1e-12);
    expect(c.shapeFactor).to.be.closeTo(Math.PI / (2 * Math.SQRT2), 2e-4);
    expect(c.sampleCount).to.equal(4000);
    expect(c.baseFrequency).to.be.closeTo(50, 1e-12);
    expect(await rms(Array.from(x))).to.be.closeTo(5 / Math.SQRT2, 1e-12);
  });

  it('square wave: THD is the finite sum over odd harmonics to Nyquist (≈ 0.4834)', () => {
    const L = 2000;
    const x = Float64Array.from({ length: L * 5 }, (_, j) => (j % L < L / 2 ? 1 : -1));
    // Sampled square wave: c_k = 4 / (L sin(πk/L)) for odd k, 0 for even k.
    const amp = (k: number): number => 4 / (L * Math.sin((Math.PI * k) / L));
    let sum = 0;
    for (let k = 3; k < L / 2; k += 2) sum += amp(k) ** 2;
    const c = characteristicsSync(x, 1e5, { baseFrequency: 50 });
    expect(c.thd).to.be.closeTo(Math.sqrt(sum) / amp(1), 1e-10);
    expect(c.thd).to.be.closeTo(Math.sqrt(Math.PI ** 2 / 8 - 1), 1e-4);
    expect(c.klirr).to.be.closeTo(Math.sqrt(sum / (sum + amp(1) ** 2)), 1e-10);
    expect(c.rms).to.equal(1);
    expect(c.shapeFactor).to.equal(1);
    const f = fourierSync(x, 1e5, { baseFrequency: 50, harmonics: 5 });
    expect(f.cnAmplitudes[0]).to.be.closeTo(amp(1), 1e-12);
    expect(f.cnAmplitudes[2]).to.be.closeTo(amp(3), 1e-12);
    expect(f.cnAmplitudes[1]).to.be.closeTo(0, 1e-12);
  });

  it('known harmonics with amplitude, phase (cosine convention, t = 0 at the first sample) and DC offset', async () => {
    // fs / f0 = 140: x = 1.5 + 4 cos(ωt − 45°) + 0.8 cos(5ωt + 100°); 12.5 periods → window of 12.
    const fs = 7000;
    const f0 = 50;
    const x = Float64Array.from({ length: 1750 }, (_, j) => {
      const t = j / fs;
      return 1.5 + 4 * Math.cos(TAU * f0 * t - Math.PI / 4) + 0.8 * Math.cos(5 * TAU * f0 * t + (100 * Math.PI) / 180);
    });
    const f = await fourier(x, fs, { baseFrequency: f0, harmonics: 7 });
    expect(f.periods).to.equal(12);
    expect(f.windowSamples).to.equal(1680);
    expect(f.harmonics).to.equal(7);
    expect(f.cnAmplitudes).to.have.length(7);
    expect(f.jnPhases).to.have.length(7);
    expect(f.dcComponent).to.be.closeTo(1.5, 1e-12);
    expect(f.fundamentalAmplitude).to.be.closeTo(4, 1e-12);
    expect(f.fundamentalPhaseDegrees).to.be.closeTo(-45, 1e-9);
    expect(f.cnAmplitudes[4]).to.be.closeTo(0.8, 1e-12);
    expect(f.jnPhases[4]).to.be.closeTo(100, 1e-9);
    for (const k of [1, 2, 3, 5, 6]) expect(f.cnAmplitudes[k]).to.be.closeTo(0, 1e-12);
    // Without baseFrequency the strongest bin of all 1750 samples is found: 50 Hz.
    const auto = await fourier(x.subarray(0, 1680), fs, { harmonics: 5 });
    expect(auto.baseFrequency).to.be.closeTo(50, 1e-12);
    expect(auto.fundamentalAmplitude).to.be.closeTo(4, 1e-12);
  });

  it('harmonics of random data agree with a naive DFT for power-of-two, mixed-radix and Bluestein lengths', () => {
    // sampleRate = n and baseFrequency = 1: one period = the whole record, harmonic k = bin k.
    for (const n of [1024, 1000, 1009, 2 * 1013]) {
      const x = random(n, n);
      const f = fourierSync(x, n, { baseFrequency: 1, harmonics: 40 });
      expect(f.dcComponent).to.be.closeTo(dftBin(x, n, 0)[0] / n, 1e-12);
      for (let k = 1; k <= 40; k++) {
        const [re, im] = dftBin(x, n, k);
        expect(f.cnAmplitudes[k - 1], `n=${n} k=${k}`).to.be.closeTo((2 * Math.hypot(re, im)) / n, 1e-11);
        const phase = (Math.atan2(im, re) * 180) / Math.PI;
        const diff = ((f.jnPhases[k - 1] - phase + 540) % 360) - 180;
        expect(Math.abs(diff), `phase n=${n} k=${k}`).to.be.lessThan(1e-8);
      }
      const s = spectrumSync(x);
      expect(s.length).to.equal(2 * (Math.floor(n / 2) + 1));
      const [re7, im7] = dftBin(x, n, 7);
      expect(s[14]).to.be.closeTo(re7, 1e-9);
      expect(s[15]).to.be.closeTo(im7, 1e-9);
    }
  });

  it('the power-of-two fast path (cached plans) agrees with a naive DFT at 2^1..2^17, sync and async alike', async () => {
    for (const bits of [1, 2, 3, 6, 11, 16, 17]) {
      const n = 2 ** bits;
      const x = random(n, 77 + bits);
      const s = spectrumSync(x);
      expect(s.length).to.equal(n + 2);
      const bins = bits <= 6 ? Array.from({ length: n / 2 + 1 }, (_, k) => k) : [0, 1, 5, n / 8 + 3, n / 4, n / 4 + 1, n / 2 - 1, n / 2];
      for (const k of bins) {
        const [re, im] = dftBin(x, n, k);
        expect(s[2 * k], `n=${n} re[${k}]`).to.be.closeTo(re, 1e-10 * Math.sqrt(n));
        expect(s[2 * k + 1], `n=${n} im[${k}]`).to.be.closeTo(im, 1e-10 * Math.sqrt(n));
      }
      expect(spectrumSync(x), 'the cached plan gives the same bits').to.deep.equal(s);
      expect(await spectrum(x), 'async = sync').to.deep.equal(s);
    }
    const [onPool, again] = await Promise.all([spectrum(random(1 << 15, 1)), spectrum(random(1 << 15, 1))]);
    expect(onPool).to.deep.equal(again);
    expect(failure(() => spectrumSync(Float64Array.from([1, Number.NaN]))).field).to.equal('data[1]');
    const rejected = await spectrum([]).then(() => undefined, (e: unknown) => e);
    expect((rejected as AnalysisError).field).to.equal('data');
  });

  it('refuses a NaN or ±∞ anywhere in a power-of-two input, naming the first one (checked after the transform)', () => {
    for (const bits of [1, 2, 5, 11, 16]) {
      const n = 1 << bits;
      const places = [...new Set([0, 1, n >> 1, n - 2, n - 1].filter((i) => i >= 0))];
      for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
        for (const at of places) {
          const x = random(n, 9);
          x[at] = bad;
          const error = failure(() => spectrumSync(x)) as AnalysisError;
          expect(error.code, `n=${n} ${bad} at ${at}`).to.equal('ANALYSIS_INVALID');
          expect(error.field, `n=${n} ${bad} at ${at}`).to.equal(`data[${at}]`);
        }
      }
      const both = random(n, 9);
      both[n - 1] = Number.POSITIVE_INFINITY;
      both[0] = Number.NEGATIVE_INFINITY; // +∞ and −∞ do not cancel: their sum is NaN
      expect(failure(() => spectrumSync(both)).field, `n=${n} ±∞`).to.equal('data[0]');
    }
    // Finite samples whose sum overflows are valid input: no error, the overflowed bins are not finite.
    const huge = new Float64Array(1 << 10).fill(Number.MAX_VALUE);
    expect(Number.isFinite(spectrumSync(huge)[0])).to.equal(false);
  });

  it('writes the spectrum into a caller-provided output array, reused across calls, sync and async', async () => {
    for (const n of [1 << 12, 1000]) {
      const x = random(n, 5);
      const expected = spectrumSync(x);
      const out = new Float64Array(expected.length).fill(Number.NaN);
      expect(spectrumSync(x, out), 'returns the array it was given').to.equal(out);
      expect(out).to.deep.equal(expected);
      const y = random(n, 6);
      expect(await spectrum(y, out)).to.equal(out);
      expect(out, 'reused: the second transform overwrote the first').to.deep.equal(spectrumSync(y));
    }
    const x = random(16, 1);
    expect(failure(() => spectrumSync(x, new Float64Array(17))).field).to.equal('out');
    expect(failure(() => spectrumSync(x, new Float32Array(18) as unknown as Float64Array)).field).to.equal('out');
    expect(failure(() => spectrumSync(x, new Float64Array(x.buffer))).field, 'aliasing the input').to.equal('out');
    const rejected = await spectrum(x, new Float64Array(3)).then(() => undefined, (e: unknown) => e);
    expect((rejected as AnalysisError).field).to.equal('out');
    expect((rejected as AnalysisError).code).to.equal('ANALYSIS_INVALID');
  });

  it('rejects bad input with ANALYSIS_INVALID naming the field', async () => {
    const x = Float64Array.from([1, 2, 3, 4]);
    const cases: Array<[() => unknown, string, RegExp]> = [
      [() => rmsSync([]), 'data', /at least one sample/],
      [() => rmsSync([1, Number.NaN]), 'data[1]', /finite/],
      [() => characteristicsSync([1, Number.POSITIVE_INFINITY], 10), 'data[1]', /finite/],
      [() => characteristicsSync(x, 0), 'sampleRate', /positive/],
      [() => characteristicsSync(x, Number.NaN), 'sampleRate', /positive/],
      [() => fourierSync(x, 10, { harmonics: 0 }), 'harmonics', /1 to 1000/],
      [() => fourierSync(x, 10, { harmonics: 1001 }), 'harmonics', /1 to 1000/],
      [() => fourierSync(x, 10, { harmonics: 2.5 }), 'harmonics', /integer/],
      [() => fourierSync(x, 10, { baseFrequency: 6 }), 'baseFrequency', /Nyquist/],
      [() => fourierSync(x, 10, { baseFrequency: 2 }), 'baseFrequency', /less than one period/],
      [() => characteristicsSync(x, 10, { baseFrequency: -1 }), 'baseFrequency', /positive/],
    ];
    for (const [run, field, message] of cases) {
      const error = failure(run);
      expect(error.code).to.equal('ANALYSIS_INVALID');
      expect(error.field).to.equal(field);
      expect(error.message).to.match(message);
    }
    const rejected = await fourier(x, 10, { baseFrequency: 6 }).then(() => undefined, (e: unknown) => e);
    expect(rejected).to.be.instanceOf(AnalysisError);
    expect((rejected as AnalysisError).field).to.equal('baseFrequency');
  });

  it('async and sync agree, and a 10 M-sample record resolves on the thread pool', async function () {
    this.timeout(120_000);
    const fs = 1e6;
    const n = 10_000_000;
    const x = new Float64Array(n);
    for (let j = 0; j < n; j++) x[j] = 2 + Math.sin((TAU * 50 * j) / fs) + 0.1 * Math.sin((TAU * 250 * j) / fs);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const [c, f, r] = await Promise.all([characteristics(x, fs), fourier(x, fs, { baseFrequency: 50, harmonics: 5 }), rms(x)]);
    clearInterval(timer);
    expect(c.sampleCount).to.equal(n);
    expect(c.average).to.be.closeTo(2, 1e-12);
    expect(c.thd).to.be.closeTo(0.1, 1e-9);
    expect(c.baseFrequency).to.be.closeTo(50, 1e-9);
    expect(f.periods).to.equal(500);
    expect(f.cnAmplitudes[4]).to.be.closeTo(0.1, 1e-9);
    expect(r).to.be.closeTo(Math.sqrt(4 + 0.5 + 0.005), 1e-12);
    expect(ticks, 'the event loop kept running while the pool worked').to.be.greaterThan(0);
    const small = random(3000, 3);
    expect(await characteristics(small, 1000)).to.deep.equal(characteristicsSync(small, 1000));
  });
});

// Key values of a waveform over a time window, the same code for pesim's uniform samples and
// ngspice's variable time steps: average and RMS as time integrals (trapezoidal rule) divided by
// the window, ripple as peak to peak of the samples in the window, and THD from a plain DFT over
// the whole fundamental periods of the window (resampled on a uniform grid).
import type { MetricKind } from './decks.js';
import { valueAt } from '../../src/engine/interpolate.js';


/** The window's points: its two ends (interpolated) and every sample strictly inside. */
function windowPoints(time: Float64Array, values: Float64Array, from: number, to: number): { t: number[]; v: number[] } {
  const t = [from];
  const v = [valueAt(time, values, from)];
  for (let i = 0; i < time.length; i++) {
    if (time[i] > from && time[i] < to) {
      t.push(time[i]);
      v.push(values[i]);
    }
  }
  t.push(to);
  v.push(valueAt(time, values, to));
  return { t, v };
}

function integral(t: number[], v: number[], f: (x: number) => number): number {
  let sum = 0;
  for (let i = 1; i < t.length; i++) sum += 0.5 * (f(v[i]) + f(v[i - 1])) * (t[i] - t[i - 1]);
  return sum;
}

/**
 * THD = sqrt(Σ_{h≥2} A_h²) / A_1 over the largest whole number of fundamental periods ending at
 * `to`, from a DFT of `samples` uniform points; harmonics 2 … `maxHarmonic` (at most Nyquist).
 */
export function thd(time: Float64Array, values: Float64Array, from: number, to: number, fundamental: number, samples = 20_000, maxHarmonic = 1000): number {
  const periods = Math.floor((to - from) * fundamental + 1e-9);
  if (periods < 1) throw new Error(`THD needs at least one period of ${fundamental} Hz in the window`);
  const start = to - periods / fundamental;
  const x = new Float64Array(samples);
  for (let n = 0; n < samples; n++) x[n] = valueAt(time, values, start + (n * (to - start)) / samples);
  const amplitude = (h: number): number => {
    // Bin `periods·h` of the DFT; the phasor advances by a fixed angle per sample.
    const w = (2 * Math.PI * periods * h) / samples;
    const [c, s] = [Math.cos(w), Math.sin(w)];
    let re = 0;
    let im = 0;
    let pr = 1;
    let pi = 0;
    for (let n = 0; n < samples; n++) {
      re += x[n] * pr;
      im -= x[n] * pi;
      [pr, pi] = [pr * c - pi * s, pr * s + pi * c];
    }
    return (2 / samples) * Math.hypot(re, im);
  };
  const top = Math.min(maxHarmonic, Math.floor((samples / 2 - 1) / periods));
  let distortion = 0;
  for (let h = 2; h <= top; h++) distortion += amplitude(h) ** 2;
  return Math.sqrt(distortion) / amplitude(1);
}

/** One key value of a waveform over [from, to]. */
export function metric(kind: MetricKind, time: Float64Array, values: Float64Array, from: number, to: number, fundamental?: number): number {
  if (kind === 'thd') return thd(time, values, from, to, fundamental ?? 50);
  const { t, v } = windowPoints(time, values, from, to);
  const length = to - from;
  switch (kind) {
    case 'avg':
      return integral(t, v, (x) => x) / length;
    case 'rms':
      return Math.sqrt(integral(t, v, (x) => x * x) / length);
    case 'ripple': {
      let [lo, hi] = [Infinity, -Infinity];
      for (const x of v) [lo, hi] = [Math.min(lo, x), Math.max(hi, x)];
      return hi - lo;
    }
  }
}

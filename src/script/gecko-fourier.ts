// GeckoSCRIPT's Fourier functions as GeckoCIRCUITS computes them.
//
// realFFT/floatFFT (AbstractGeckoCustom → Cispr16Fft.realft(data, 1) → FFTLibrary → JTransforms'
// FloatFFT_1D.realForward): the forward DFT X_k = Σ_j x_j·e^(−2πi·jk/n) of n real floats, packed in
// place as JTransforms packs it: a[2k] = Re X_k, a[2k+1] = Im X_k (0 < k < n/2); a[0] = X_0 and,
// for even n, a[1] = Re X_(n/2); for odd n, a[n−1] = Re X_((n−1)/2) and a[1] = Im X_((n−1)/2).
//
// getFourier/getSignalFourier (newscope/FourierGUIless via ReglerOSZI.doFourierAnalysis): from the
// first sample after t1 to the last before the end of the run that is at or before t2, the largest
// power of two N of samples not above their count is taken, evenly spaced in time (each the first
// sample at or after its instant; the window's ends as floats); after realForward,
// a_n = 2·a[2n]/N, b_n = 2·a[2n+1]/N (so b_n = −(2/N)·Σ x_j sin(2πnj/N): a pure sine has b_1 = −amplitude
// and phase π, and b_0 holds the Nyquist term), c_0 = a_0/2, c_n = √(a_n² + b_n²), φ_0 = 0,
// φ_n = atan2(a_n, b_n). Harmonics up to N/2 − 1 exist; GeckoCIRCUITS fails beyond (array index).
import { ScriptError } from './errors.js';

/** In-place iterative radix-2 complex DFT with e^(−2πi·jk/n); n a power of two. */
function radix2(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j], re[i]];
      [im[i], im[j]] = [im[j], im[i]];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const half = len >> 1;
    for (let k = 0; k < half; k++) {
      const angle = (-2 * Math.PI * k) / len;
      const wr = Math.cos(angle), wi = Math.sin(angle);
      for (let i = k; i < n; i += len) {
        const j = i + half;
        const xr = re[j] * wr - im[j] * wi, xi = re[j] * wi + im[j] * wr;
        re[j] = re[i] - xr; im[j] = im[i] - xi;
        re[i] += xr; im[i] += xi;
      }
    }
  }
}

/** The complex DFT X_k = Σ x_j e^(−2πi·jk/n) of any length: radix 2, else Bluestein's chirp z-transform over a power of two. */
export function dft(real: ArrayLike<number>): { re: Float64Array; im: Float64Array } {
  const n = real.length;
  if ((n & (n - 1)) === 0) {
    const re = Float64Array.from(real), im = new Float64Array(n);
    if (n > 1) radix2(re, im);
    return { re, im };
  }
  let m = 1;
  while (m < 2 * n - 1) m <<= 1;
  // jk = (j² + k² − (k − j)²)/2, so X_k = w_k · Σ_j (x_j w_j) · conj(w_(k−j)) with w_k = e^(−iπk²/n):
  // a convolution, done by radix-2 transforms of length m ≥ 2n − 1.
  const cr = new Float64Array(n), ci = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const angle = (-Math.PI * ((k * k) % (2 * n))) / n;
    cr[k] = Math.cos(angle); ci[k] = Math.sin(angle);
  }
  const ar = new Float64Array(m), ai = new Float64Array(m), br = new Float64Array(m), bi = new Float64Array(m);
  for (let k = 0; k < n; k++) {
    ar[k] = real[k] * cr[k]; ai[k] = real[k] * ci[k];
  }
  br[0] = cr[0]; bi[0] = -ci[0];
  for (let k = 1; k < n; k++) {
    br[k] = br[m - k] = cr[k];
    bi[k] = bi[m - k] = -ci[k];
  }
  radix2(ar, ai);
  radix2(br, bi);
  for (let k = 0; k < m; k++) {
    const r = ar[k] * br[k] - ai[k] * bi[k];
    ai[k] = ar[k] * bi[k] + ai[k] * br[k];
    ar[k] = r;
  }
  // inverse by conjugation: conj(DFT(conj(a)))/m
  for (let k = 0; k < m; k++) ai[k] = -ai[k];
  radix2(ar, ai);
  const re = new Float64Array(n), im = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const pr = ar[k] / m, pi = -ai[k] / m;
    re[k] = pr * cr[k] - pi * ci[k];
    im[k] = pr * ci[k] + pi * cr[k];
  }
  return { re, im };
}

/** JTransforms' FloatFFT_1D.realForward of `values` (floats), packed as described above, as floats. */
export function realForward(values: ArrayLike<number>): number[] {
  const n = values.length;
  const { re, im } = dft(Array.from(values, Math.fround));
  const out = new Array<number>(n).fill(0);
  if (n === 0) return out;
  out[0] = re[0];
  const half = n >> 1;
  if (n % 2 === 0) {
    if (n > 1) out[1] = re[half];
    for (let k = 1; k < half; k++) {
      out[2 * k] = re[k]; out[2 * k + 1] = im[k];
    }
  } else {
    for (let k = 1; k <= half; k++) {
      out[2 * k] = re[k];
      if (k < half) out[2 * k + 1] = im[k];
    }
    if (n > 1) out[1] = im[half];
  }
  return out.map(Math.fround);
}

/** double[4][harmonics+1]: rows a_n, b_n, c_n, φ_n (FourierGUIless). */
export function geckoFourier(time: Float64Array, values: Float64Array, t1: number, t2: number, harmonics: number, what: string): number[][] {
  if (!Number.isInteger(harmonics) || harmonics < 0) throw new ScriptError('runtime', `${what}: Invalid harmonics value for Fourier analysis (${harmonics}).`);
  if (!(t2 > t1)) throw new ScriptError('runtime', `${what}: Invalid range supplied for Fourier analysis: [${t1}, ${t2}] s.`);
  const last = time.length - 1;
  let start = 0;
  while (start <= last && time[start] <= t1) start++;
  let stop = start;
  while (stop + 1 < last && time[stop + 2] > time[stop + 1] && time[stop + 1] <= t2) stop++;
  const count = stop - start;
  if (start > last || time[start] > t2 || count < 1) {
    throw new ScriptError('runtime', `${what}: the window (${t1}, ${t2}] s holds too few samples for a Fourier analysis; the run covers [${time[0] ?? 0}, ${time[last] ?? 0}] s`);
  }
  let n = 1;
  while (n * 2 <= count) n *= 2;
  if (2 * harmonics + 1 >= n) {
    throw new ScriptError('runtime', `${what}: ${harmonics} harmonics need more than ${2 * harmonics + 1} samples; the window (${t1}, ${t2}] s gives ${n} (the largest power of two not above its ${count} sample intervals)`);
  }
  const startTime = Math.fround(time[start]);
  const span = Math.fround(Math.fround(time[stop]) - startTime); // float − float in GeckoCIRCUITS
  const data = new Array<number>(n);
  for (let i = 0, j = start; i < n; i++) {
    while (j < stop && time[j] < startTime + (i * span) / n) j++;
    data[i] = values[j];
  }
  const packed = realForward(data);
  const rows: number[][] = [[], [], [], []];
  for (let k = 0; k <= harmonics; k++) {
    const a = (2 * packed[2 * k]) / n, b = (2 * packed[2 * k + 1]) / n;
    rows[0].push(a);
    rows[1].push(b);
    rows[2].push(k === 0 ? a / 2 : Math.sqrt(a * a + b * b));
    rows[3].push(k === 0 ? 0 : Math.atan2(a, b));
  }
  return rows;
}

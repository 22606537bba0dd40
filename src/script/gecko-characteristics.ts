// GeckoSCRIPT's signal characteristics as GeckoCIRCUITS computes them (newscope/
// CharacteristicsCalculator.calculateCharacteristics): over the samples from the first at or after
// t1 while t < t2, each weighted by the step to the next sample, divided by the window t2 − t1,
// which is also one period of the fundamental (ω = 2π/(t2 − t1)). THD and klirr are the harmonics
// above that fundamental against the fundamental and against the RMS; ripple is the AC RMS over
// the (signed) average; "shape" is the RMS over Σ|x|/(t2 − t1), as GeckoCIRCUITS sums |x| without
// the step (so it is not the form factor).
export interface GeckoCharacteristics {
  avg: number;
  rms: number;
  min: number;
  max: number;
  thd: number;
  klirr: number;
  ripple: number;
  shape: number;
}

export function geckoCharacteristics(time: Float64Array, values: Float64Array, t1: number, t2: number): GeckoCharacteristics {
  const total = t2 - t1;
  let start = 0;
  while (start < time.length && time[start] < t1) start++;
  let avg = 0, squares = 0, absolute = 0, a1 = 0, b1 = 0;
  let min = Infinity, max = -Infinity;
  for (let i = start; i < time.length - 1 && time[i + 1] > time[i] && time[i] < t2; i++) {
    const step = time[i + 1] - time[i];
    const x = values[i];
    const omegaT = (2 * Math.PI / total) * time[i];
    avg += x * step;
    squares += x * x * step;
    min = Math.min(min, x);
    max = Math.max(max, x);
    absolute += Math.abs(x);
    a1 += x * Math.cos(omegaT) * step;
    b1 += x * Math.sin(omegaT) * step;
  }
  avg /= total;
  const rms = Math.sqrt(squares / total);
  a1 /= total / 2;
  b1 /= total / 2;
  const fundamental2 = (a1 * a1 + b1 * b1) / 2;
  const higher = Math.sqrt(rms * rms - fundamental2 - avg * avg);
  return {
    avg, rms, min, max,
    thd: fundamental2 > 0 ? higher / Math.sqrt(fundamental2) : 0,
    klirr: rms > 0 ? higher / rms : 0,
    ripple: avg === 0 ? 0 : Math.sqrt(rms * rms - avg * avg) / avg,
    shape: absolute / total > 0 ? rms / (absolute / total) : 0,
  };
}

// Reading a sampled waveform between its samples.

/** Linear interpolation of `values` (sampled at the increasing `time`) at t, clamped to the ends. */
export function valueAt(time: ArrayLike<number>, values: ArrayLike<number>, t: number): number {
  const n = time.length;
  if (t <= time[0]) return values[0];
  if (t >= time[n - 1]) return values[n - 1];
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (time[mid] <= t) lo = mid;
    else hi = mid;
  }
  const span = time[hi] - time[lo];
  return span > 0 ? values[lo] + ((values[hi] - values[lo]) * (t - time[lo])) / span : values[hi];
}

// Min/max decimation for display: a waveform of any length becomes at most two points per pixel
// column (the first and last time of the column carrying the column's minimum and maximum of each
// signal), so the envelope the eye sees is kept while uPlot draws a few thousand points.

/** Index of the first time ≥ t (times ascending). */
export function lowerBound(time: ArrayLike<number>, t: number): number {
  let lo = 0;
  let hi = time.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (time[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The part of [from, to] (from the sample before `from` to the first at or after `to`, so lines
 * reach the edges) in `buckets` columns:
 * [time, ...series] as uPlot takes them. Raw samples when there are fewer than 2 per column.
 */
export function decimate(time: Float64Array, series: Float64Array[], from: number, to: number, buckets: number): number[][] {
  const start = Math.max(0, lowerBound(time, from) - 1);
  const end = Math.min(time.length, lowerBound(time, to) + 1);
  const count = end - start;
  if (count <= 2 * buckets) {
    return [Array.from(time.subarray(start, end)), ...series.map((s) => Array.from(s.subarray(start, end)))];
  }
  const outTime: number[] = [];
  const outSeries: number[][] = series.map(() => []);
  const perBucket = count / buckets;
  for (let b = 0; b < buckets; b++) {
    const i0 = start + Math.floor(b * perBucket);
    const i1 = Math.min(end, start + Math.floor((b + 1) * perBucket));
    if (i1 <= i0) continue;
    outTime.push(time[i0], time[i1 - 1]);
    for (let k = 0; k < series.length; k++) {
      const s = series[k];
      let min = Infinity;
      let max = -Infinity;
      let minAt = i0;
      let maxAt = i0;
      for (let i = i0; i < i1; i++) {
        const v = s[i];
        if (v < min) { min = v; minAt = i; }
        if (v > max) { max = v; maxAt = i; }
      }
      // The extreme reached first comes first, so the drawn line follows the signal's direction.
      if (minAt <= maxAt) outSeries[k].push(min, max);
      else outSeries[k].push(max, min);
    }
  }
  return [outTime, ...outSeries];
}

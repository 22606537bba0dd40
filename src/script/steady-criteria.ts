// GeckoSCRIPT's two steady-state criteria, as GeckoCIRCUITS defines them
// (ch.technokrat.gecko.geckoscript.AbstractGeckoCustom), over values a run recorded:
//
// - simulateUntilSteadyState: after 100 steps of dt, the state vector (the measured values) is
//   kept as a reference; at every step whose time since the reference lies within 2.1·dt of one
//   of the candidate periods, the vector is compared with the reference: steady when every
//   element's relative difference max(|a−b|/a, |a−b|/b) is at most 0.1 % (signed divisions, as
//   there). After 5 such checks per candidate period the reference moves to the current step.
// - simulateToSteadyState: one period is simulated, then one more at a time; the last two periods
//   of every signal are compared: steady when each cross-correlation is at least the target
//   (default 0.998) and, per signal, the smaller of the relative differences of the two periods'
//   means and RMS values is at most the target (default 0.005).
//
// Both return [1 if steady else 0, the time reached, the period]; time accumulates as there
// (time += dt per step, time += period per period), so the checks fall on the same steps.

export interface SteadyOutcome {
  reached: boolean;
  /** The simulated time when the detection stopped [s]. */
  time: number;
  /** The period of oscillation found [s]; 0 when none. */
  period: number;
}

/** Steps simulated before the first reference vector is taken. */
const SETTLING_STEPS = 100;
/** Allowed relative difference of each state variable between two periods. */
const ALLOWED_ERROR = 0.001;
/** Checks per candidate period before the reference vector is renewed. */
const CHECKS_PER_PERIOD = 5;

/** Element-wise relative difference, the larger of the two ratios (signed, as GeckoCIRCUITS divides). */
export function relativeDifferences(reference: number[], current: number[]): number[] {
  return reference.map((a, i) => {
    const difference = Math.abs(a - current[i]);
    return Math.max(difference / a, difference / current[i]);
  });
}

/**
 * The state-vector criterion. `stateAt(time)` gives the state variables' values at a simulated
 * time; the run covers [0, simulationTime].
 */
export function untilSteadyState(stateAt: (time: number) => number[], dt: number, simulationTime: number, periods: number[]): SteadyOutcome {
  let time = 0;
  for (let i = 0; i < SETTLING_STEPS; i++) time += dt;
  let reference = stateAt(time);
  let cycleStart = time;
  let checks = 0;
  let reached = false;
  let period = 0;
  while (!reached && time < simulationTime) {
    time += dt;
    for (const candidate of periods) {
      if (Math.abs(time - cycleStart - candidate) > 2.1 * dt) continue;
      checks++;
      reached = relativeDifferences(reference, stateAt(time)).every((d) => !(d > ALLOWED_ERROR));
      if (reached) {
        period = time - cycleStart;
        break;
      }
    }
    if (checks === periods.length * CHECKS_PER_PERIOD) {
      reference = stateAt(time);
      cycleStart = time;
      checks = 0;
    }
  }
  return { reached, time, period };
}

export interface PeriodComparison {
  correlations: number[];
  meanDifferences: number[];
  rmsDifferences: number[];
}

/**
 * Compares the two halves of each waveform (two periods' samples): cross-correlation, and the
 * relative differences of the means and RMS values. With an odd sample count the middle sample
 * belongs to both halves; the first period's statistics start at its second sample, as there.
 */
export function comparePeriods(waveforms: ArrayLike<number>[]): PeriodComparison {
  const size = waveforms[0].length;
  const offset = Math.floor(size / 2);
  const endFirst = size % 2 === 0 ? offset - 1 : offset;
  const out: PeriodComparison = { correlations: [], meanDifferences: [], rmsDifferences: [] };
  const count = waveforms.length;
  // GeckoCIRCUITS counts the points of all waveforms together when averaging (pointsAdded).
  const firstPoints = Math.max(0, endFirst) * count;
  const secondPoints = (size - offset) * count;
  for (const w of waveforms) {
    let sum1 = 0, squares1 = 0, sum2 = 0, squares2 = 0;
    for (let i = 1; i <= endFirst; i++) {
      sum1 += w[i];
      squares1 += w[i] * w[i];
    }
    for (let i = offset; i < size; i++) {
      sum2 += w[i];
      squares2 += w[i] * w[i];
    }
    const mean1 = sum1 / firstPoints, rms1 = Math.sqrt(squares1 / firstPoints);
    const mean2 = sum2 / secondPoints, rms2 = Math.sqrt(squares2 / secondPoints);
    const meanDiff = Math.abs(mean1 - mean2);
    const rmsDiff = Math.abs(rms1 - rms2);
    out.meanDifferences.push(Math.max(Math.abs(meanDiff / mean1), Math.abs(meanDiff / mean2)));
    out.rmsDifferences.push(Math.max(Math.abs(rmsDiff / rms1), Math.abs(rmsDiff / rms2)));
    let s1 = 0, s2 = 0, s12 = 0;
    for (let i = 0; i <= endFirst; i++) {
      const a = w[i] - mean1, b = w[i + offset] - mean2;
      s1 += a * a;
      s2 += b * b;
      s12 += a * b;
    }
    out.correlations.push(s12 / (Math.sqrt(s1) * Math.sqrt(s2)));
  }
  return out;
}

/** True when every correlation reaches the target and every min(mean, RMS) difference is within it. */
export function periodsAgree(c: PeriodComparison, targetCorrelation: number, targetMeanPctDiff: number): boolean {
  if (c.correlations.some((r) => r < targetCorrelation)) return false;
  return c.meanDifferences.every((m, i) => !(Math.min(m, c.rmsDifferences[i]) > targetMeanPctDiff));
}

/**
 * The cross-correlation criterion. `samples(start, end)` gives each signal's samples over
 * [start, end] (two periods); the run covers [0, simulationTime].
 */
export function toSteadyState(
  samples: (start: number, end: number) => ArrayLike<number>[], period: number, simulationTime: number,
  targetCorrelation: number, targetMeanPctDiff: number,
): SteadyOutcome {
  let time = period;
  let start = 0;
  let reached = false;
  while (!reached && time < simulationTime) {
    time += period;
    reached = periodsAgree(comparePeriods(samples(start, time)), targetCorrelation, targetMeanPctDiff);
    start += period;
  }
  return { reached, time, period };
}

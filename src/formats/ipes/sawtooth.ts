// Writer side: an engine sawtooth is written as the GeckoCIRCUITS triangle with duty 1 or 0 that
// makes the same ramp (the reader reads it back as the engine triangle with that duty, signals.ts).
// GeckoCIRCUITS triangles with duty 1 or 0 are sawtooth ramps (`SignalCalculatorTriangle`): the
// ramp rises by 2·A·f·dt per step and falls by 2·A·f·dt/(1 − d) (rise by …/d); with d = 1 the fall
// is instantaneous, with d = 0 the rise. Started at 0 rising (phase 0), the output is
//   d = 1: y = D − A + 2A·frac(f·t + 1/2)     d = 0: y = D + A − 2A·frac(f·t)
// which is the engine's sawtooth `offset + amplitude·frac(f·t + phase/360°)` with
//   d = 1: amplitude 2A, offset D − A, phase 180°;   d = 0: amplitude −2A, offset D + A, phase 0.
// Like the symmetric triangle, GeckoCIRCUITS clamps its stepwise ramp at the peaks, so its period
// is rounded to whole time steps; the mapping uses the exact period 1/f. A non-zero phase starts
// GeckoCIRCUITS' ramp at a negated pre-run value; the engine triangle of that duty models it.
import type { ParamValue } from '../netlist.js';

/** The GeckoCIRCUITS triangle (amplitude, offset, duty) of an engine sawtooth, if one matches. */
export function triangleOfSawtooth(p: Record<string, ParamValue>): { amplitude: number; offset: number; duty: number } | undefined {
  const amplitude = p.amplitude ?? 1;
  const offset = p.offset ?? 0;
  const phase = p.phase ?? 0;
  if (typeof amplitude !== 'number' || typeof offset !== 'number' || typeof phase !== 'number') return undefined;
  // Rising ramp from phase 180° (d = 1) or falling ramp from phase 0 (d = 0); both: A = |amplitude|/2.
  if (amplitude > 0 && phase === 180) return { amplitude: amplitude / 2, offset: offset + amplitude / 2, duty: 1 };
  if (amplitude < 0 && phase === 0) return { amplitude: -amplitude / 2, offset: offset + amplitude / 2, duty: 0 };
  return undefined;
}

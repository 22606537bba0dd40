// Source waveforms that become a `pwl` table (the engine interpolates linearly between the points
// and holds the last value):
// - PWL with ngspice's `td=` (every time shifted by td) and `r=` (the part from time r, one of the
//   PWL times, to the last time repeats until TSTOP; a jump at the seam is a step of 1e-6·TSTEP);
// - PWL from a file (`PWL file=NAME`): `time value` pairs, one per line, blank, `*` and `;` lines
//   skipped, numbers with SI suffixes; the path is relative to the deck;
// - EXP(V1 V2 TD1 TAU1 TD2 TAU2), SIN with a damping factor THETA, PULSE with a pulse count: sampled
//   at every simulation step (exact on the steps the engine takes).
// Equal consecutive times (vertical steps) are moved apart by 1e-6·TSTEP, with a warning.
import { posix } from 'node:path';
import type { ParamValue } from '../netlist.js';
import { type Token, lineError, parseSpiceNumber } from './lexer.js';
import type { CardCursor } from './cursor.js';
import type { TranTimes } from './sources.js';

const MAX_POINTS = 2_000_000;

type Table = Record<string, ParamValue>;

function tooLong(count: number, fn: Token, name: string, cursor: CardCursor): void {
  if (count > MAX_POINTS) {
    throw lineError('SPICE_UNSUPPORTED', fn.line, `${name}: ${fn.text.toUpperCase()} needs ${count} table points up to TSTOP (at most ${MAX_POINTS})`, cursor.ctx.fileName, name);
  }
}

/** The table with equal consecutive times moved apart (decreasing times are an error). */
function increasing(times: number[], values: number[], fn: Token, name: string, tran: TranTimes, cursor: CardCursor): Table {
  const nudge = 1e-6 * tran.tstep;
  const out: number[] = [];
  let moved = 0;
  for (let i = 0; i < times.length; i++) {
    const raw = times[i];
    if (i > 0 && raw < times[i - 1]) {
      throw lineError('SPICE_SYNTAX', fn.line, `${name}: PWL times must increase (${raw} after ${times[i - 1]})`, cursor.ctx.fileName, name);
    }
    let t = raw;
    const previous = out[out.length - 1];
    if (previous !== undefined && t <= previous) {
      t = previous + nudge;
      if (moved++ === 0) cursor.warn(`${name}: PWL step at t = ${raw} s moved to ${t} s (pesim needs increasing times)`, fn.line);
    }
    out.push(t);
  }
  if (moved > 1) cursor.warn(`${name}: ${moved} vertical PWL steps moved by ${nudge} s`, fn.line);
  return { waveform: 'pwl', times: out, values };
}

/** PWL time-value pairs with ngspice's `r=` and `td=`. */
export function pwlTable(v: number[], fn: Token, name: string, tran: TranTimes, cursor: CardCursor, options: { repeat?: number; delay: number }): Table {
  if (v.length < 2 || v.length % 2 !== 0) {
    throw lineError('SPICE_SYNTAX', fn.line, `${name}: PWL needs time-value pairs, got ${v.length} numbers`, cursor.ctx.fileName, name);
  }
  let times = v.filter((_, i) => i % 2 === 0);
  let values = v.filter((_, i) => i % 2 === 1);
  if (options.repeat !== undefined) {
    const from = times.indexOf(options.repeat);
    const last = times.length - 1;
    if (from < 0 || from === last) {
      throw lineError('SPICE_SYNTAX', fn.line, `${name}: PWL r=${options.repeat} must be one of the PWL times before the last (${times.join(' ')})`, cursor.ctx.fileName, name);
    }
    const period = times[last] - times[from];
    const cycles = Math.ceil((tran.tstop - options.delay - times[last]) / period);
    tooLong(times.length + Math.max(0, cycles) * (last - from + 1), fn, name, cursor);
    const repeatedTimes = [...times];
    const repeatedValues = [...values];
    for (let k = 1; k <= cycles; k++) {
      const seam = times[last] + (k - 1) * period;
      if (values[from] !== values[last]) { repeatedTimes.push(seam); repeatedValues.push(values[from]); }
      for (let j = from + 1; j <= last; j++) { repeatedTimes.push(times[j] + k * period); repeatedValues.push(values[j]); }
    }
    times = repeatedTimes;
    values = repeatedValues;
  }
  return increasing(times.map((t) => t + options.delay), values, fn, name, tran, cursor);
}

/** `PWL file=NAME`: the pairs of a text file beside the deck. */
export function pwlFromFile(file: string, fn: Token, name: string, tran: TranTimes, cursor: CardCursor, options: { repeat?: number; delay: number }): Table {
  const reader = cursor.ctx.files;
  if (!reader) {
    throw lineError('SPICE_UNSUPPORTED', fn.line, `${name}: PWL file ${file}: this deck was given without its folder, so the file cannot be read`, cursor.ctx.fileName, name);
  }
  const base = cursor.card.file ? posix.dirname(cursor.card.file) : '';
  const bytes = reader(posix.isAbsolute(file) ? file : posix.normalize(posix.join(base, file)));
  if (!bytes) throw lineError('SPICE_SYNTAX', fn.line, `${name}: PWL file '${file}' not found`, cursor.ctx.fileName, name);
  const numbers: number[] = [];
  new TextDecoder().decode(bytes).split(/\r?\n/).forEach((line, index) => {
    const text = line.replace(/;.*$/, '').trim();
    if (text === '' || text.startsWith('*')) return;
    for (const word of text.split(/[\s,]+/)) {
      const value = parseSpiceNumber(word);
      if (value === undefined) throw lineError('SPICE_SYNTAX', fn.line, `${name}: PWL file ${file} line ${index + 1}: '${word}' is not a number`, cursor.ctx.fileName, name);
      numbers.push(value);
    }
  });
  return pwlTable(numbers, fn, name, tran, cursor, options);
}

/** A waveform sampled at every simulation step from 0 to TSTOP. */
function sampled(f: (t: number) => number, fn: Token, name: string, tran: TranTimes, cursor: CardCursor): Table {
  const count = Math.ceil(tran.tstop / tran.dt) + 1;
  tooLong(count, fn, name, cursor);
  const times = Array.from({ length: count }, (_, k) => k * tran.dt);
  return { waveform: 'pwl', times, values: times.map(f) };
}

/** EXP(V1 V2 [TD1 [TAU1 [TD2 [TAU2]]]]) with ngspice's defaults (TAU → TSTEP, TD2 → TD1 + TSTEP). */
export function exponential(v: number[], fn: Token, name: string, tran: TranTimes, cursor: CardCursor): Table {
  if (v.length < 2 || v.length > 6) throw lineError('SPICE_SYNTAX', fn.line, `${name}: EXP takes 2 to 6 arguments, got ${v.length}`, cursor.ctx.fileName, name);
  const [v1, v2, td1 = 0] = v;
  const tau1 = v[3] || tran.tstep;
  const td2 = v[4] || td1 + tran.tstep;
  const tau2 = v[5] || tran.tstep;
  if (!(tau1 > 0 && tau2 > 0)) throw lineError('SPICE_SYNTAX', fn.line, `${name}: EXP time constants must be greater than 0`, cursor.ctx.fileName, name);
  return sampled((t) => {
    if (t < td1) return v1;
    const rise = (v2 - v1) * -Math.expm1(-(t - td1) / tau1);
    return t < td2 ? v1 + rise : v1 + rise + (v1 - v2) * -Math.expm1(-(t - td2) / tau2);
  }, fn, name, tran, cursor);
}

/** SIN(VO VA FREQ TD THETA PHASE) with THETA ≠ 0: VO + VA·e^(−(t−TD)·THETA)·sin(2π·FREQ·(t−TD) + PHASE). */
export function dampedSine(s: { vo: number; va: number; freq: number; td: number; theta: number; phase: number }, fn: Token, name: string, tran: TranTimes, cursor: CardCursor): Table {
  const phase = (s.phase * Math.PI) / 180;
  return sampled((t) => (t < s.td
    ? s.vo + s.va * Math.sin(phase)
    : s.vo + s.va * Math.exp(-(t - s.td) * s.theta) * Math.sin(2 * Math.PI * s.freq * (t - s.td) + phase)), fn, name, tran, cursor);
}

/** PULSE with a pulse count (ngspice NP, LTspice Ncycles): that many pulses, then V1. */
export function pulseTrain(p: { v1: number; v2: number; delay: number; rise: number; fall: number; width: number; period: number }, count: number, fn: Token, name: string, tran: TranTimes, cursor: CardCursor): Table {
  if (!(count >= 1) || !Number.isInteger(count)) throw lineError('SPICE_SYNTAX', fn.line, `${name}: PULSE pulse count must be a whole number ≥ 1, got ${count}`, cursor.ctx.fileName, name);
  const pulses = p.period > 0 ? Math.min(count, Math.ceil((tran.tstop - p.delay) / p.period) + 1) : 1;
  tooLong(4 * pulses + 1, fn, name, cursor);
  const times = [0];
  const values = [p.v1];
  for (let k = 0; k < pulses; k++) {
    const start = p.delay + k * p.period;
    times.push(start, start + p.rise, start + p.rise + p.width, start + p.rise + p.width + p.fall);
    values.push(p.v1, p.v2, p.v2, p.v1);
  }
  if (times[1] === 0) { times.shift(); values.shift(); }
  return increasing(times, values, fn, name, tran, cursor);
}

// Independent sources V and I: `Vname n+ n- [[DC] value] [AC mag [phase]] [SIN(...)|PULSE(...)|PWL(...)]`
// → pesim source waveforms. Defaults follow ngspice: SIN FREQ 0/absent → 1/TSTOP; PULSE TR and TF
// 0/absent → TSTEP, PW 0/absent → TSTOP, PER 0/absent → one pulse (ngspice's TSTOP period never
// repeats inside the run); SIN THETA ≠ 0 (damping) is an error. A PULSE whose TR + PW reaches PER
// restarts before falling in ngspice; it is mapped to width PER − TR and fall 0, which is the same
// waveform. Equal PWL times (vertical steps) are moved apart by 1e-6·TSTEP, with a warning.
import type { ParamValue } from '../netlist.js';
import type { Token } from './lexer.js';
import { lineError } from './lexer.js';
import type { CardCursor, NumericValue } from './cursor.js';

export interface TranTimes {
  tstep: number;
  tstop: number;
}

const UNSUPPORTED_FUNCTIONS = new Set(['exp', 'sffm', 'am', 'trnoise', 'trrandom', 'pat', 'distof1', 'distof2', 'portnum', 'z0']);

function param(v: NumericValue): ParamValue {
  return v.ref !== undefined ? `$${v.ref}` : v.value;
}

/** Reads the specification after the nodes of a V or I card; returns the element parameters. */
export function readSourceSpec(cursor: CardCursor, name: string, tran: TranTimes): Record<string, ParamValue> {
  let dc: NumericValue | undefined;
  let transient: Record<string, ParamValue> | undefined;
  while (!cursor.atEnd()) {
    const t = cursor.peek()!;
    if (t.kind === 'word' && t.lower === 'dc') {
      cursor.next();
      dc = cursor.value(`${name} DC value`);
    } else if (t.kind === 'word' && t.lower === 'ac') {
      cursor.next();
      if (cursor.isValueNext()) cursor.next();
      if (cursor.isValueNext()) cursor.next();
      cursor.warn(`${name}: AC specification ignored (transient analysis only)`, t.line);
    } else if (t.kind === 'word' && ['sin', 'pulse', 'pwl'].includes(t.lower)) {
      if (transient) throw lineError('SPICE_SYNTAX', t.line, `${name} has more than one transient function`, cursor.ctx.fileName, name);
      cursor.next();
      const args = cursor.argumentTokens(`${name} ${t.text.toUpperCase()}`);
      const values = args.map((a) => cursor.valueOf(a, `${name} ${t.text.toUpperCase()} argument`));
      if (t.lower === 'sin') transient = sine(values, t, name, tran, cursor);
      else if (t.lower === 'pulse') transient = pulse(values, t, name, tran, cursor);
      else transient = pwl(values, t, name, tran, cursor);
    } else if (t.kind === 'word' && UNSUPPORTED_FUNCTIONS.has(t.lower)) {
      throw lineError('SPICE_UNSUPPORTED', t.line, `${name}: source function ${t.text.toUpperCase()} is not supported (use DC, SIN, PULSE or PWL)`, cursor.ctx.fileName, name);
    } else if (dc === undefined && !transient && cursor.isValueNext()) {
      dc = cursor.value(`${name} value`);
    } else {
      throw lineError('SPICE_UNSUPPORTED', t.line, `${name}: unexpected '${t.text}' in the source specification`, cursor.ctx.fileName, name);
    }
  }
  return transient ?? { waveform: 'dc', value: dc ? param(dc) : 0 };
}

function arity(values: NumericValue[], min: number, max: number, fn: Token, name: string, cursor: CardCursor): void {
  if (values.length < min || values.length > max) {
    const expected = min === max ? `${min}` : `${min} to ${max}`;
    throw lineError('SPICE_SYNTAX', fn.line, `${name}: ${fn.text.toUpperCase()} takes ${expected} arguments, got ${values.length}`, cursor.ctx.fileName, name);
  }
}

function sine(v: NumericValue[], fn: Token, name: string, tran: TranTimes, cursor: CardCursor): Record<string, ParamValue> {
  arity(v, 2, 6, fn, name, cursor);
  if (v[4] !== undefined && v[4].value !== 0) {
    throw lineError('SPICE_UNSUPPORTED', fn.line, `${name}: SIN damping factor THETA = ${v[4].value} is not supported (only 0)`, cursor.ctx.fileName, name);
  }
  const frequency = v[2] !== undefined && v[2].value !== 0 ? param(v[2]) : 1 / tran.tstop;
  return {
    waveform: 'sine',
    offset: param(v[0]),
    amplitude: param(v[1]),
    frequency,
    delay: v[3] !== undefined ? param(v[3]) : 0,
    phase: v[5] !== undefined ? param(v[5]) : 0,
  };
}

function pulse(v: NumericValue[], fn: Token, name: string, tran: TranTimes, cursor: CardCursor): Record<string, ParamValue> {
  arity(v, 2, 7, fn, name, cursor);
  const orDefault = (x: NumericValue | undefined, fallback: number): NumericValue =>
    x !== undefined && x.value !== 0 ? x : { value: fallback };
  const delay = v[2] ?? { value: 0 };
  const rise = orDefault(v[3], tran.tstep);
  let fall = orDefault(v[4], tran.tstep);
  let width = orDefault(v[5], tran.tstop);
  const periodGiven = v[6] !== undefined && v[6].value !== 0;
  for (const [label, x] of [['TD', delay], ['TR', rise], ['TF', fall], ['PW', width], ['PER', v[6] ?? { value: 0 }]] as const) {
    if (x.value < 0) throw lineError('SPICE_SYNTAX', fn.line, `${name}: PULSE ${label} must not be negative`, cursor.ctx.fileName, name);
  }
  const period: NumericValue = periodGiven ? v[6] : { value: 0 };
  if (periodGiven && rise.value + width.value + fall.value > period.value) {
    if (rise.value > period.value) {
      throw lineError('SPICE_SYNTAX', fn.line, `${name}: PULSE rise time TR is longer than the period PER`, cursor.ctx.fileName, name);
    }
    if (rise.value + width.value < period.value) {
      throw lineError('SPICE_UNSUPPORTED', fn.line, `${name}: PULSE fall (TF) is cut short by the period PER; make TR + PW + TF ≤ PER`, cursor.ctx.fileName, name);
    }
    width = { value: period.value - rise.value };
    fall = { value: 0 };
  }
  return {
    waveform: 'pulse',
    v1: param(v[0]),
    v2: param(v[1]),
    delay: param(delay),
    rise: param(rise),
    fall: param(fall),
    width: param(width),
    period: param(period),
  };
}

function pwl(v: NumericValue[], fn: Token, name: string, tran: TranTimes, cursor: CardCursor): Record<string, ParamValue> {
  if (v.length < 2 || v.length % 2 !== 0) {
    throw lineError('SPICE_SYNTAX', fn.line, `${name}: PWL needs time-value pairs, got ${v.length} numbers`, cursor.ctx.fileName, name);
  }
  const times: number[] = [];
  const values: number[] = [];
  const nudge = 1e-6 * tran.tstep;
  let rawPrevious: number | undefined;
  for (let i = 0; i < v.length; i += 2) {
    const raw = v[i].value;
    if (rawPrevious !== undefined && raw < rawPrevious) {
      throw lineError('SPICE_SYNTAX', fn.line, `${name}: PWL times must increase (${raw} after ${rawPrevious})`, cursor.ctx.fileName, name);
    }
    let t = raw;
    const previous = times[times.length - 1];
    if (previous !== undefined && t <= previous) {
      t = previous + nudge;
      cursor.warn(`${name}: PWL step at t = ${raw} s moved to ${t} s (pesim needs increasing times)`, fn.line);
    }
    rawPrevious = raw;
    times.push(t);
    values.push(v[i + 1].value);
  }
  return { waveform: 'pwl', times, values };
}

// Independent sources V and I: `Vname n+ n- [[DC] value] [AC mag [phase]] [SIN(...)|PULSE(...)|PWL(...)|EXP(...)]`
// → pesim source waveforms. Defaults follow ngspice: SIN FREQ 0/absent → 1/TSTOP; PULSE TR and TF
// 0/absent → TSTEP, PW 0/absent → TSTOP, PER 0/absent → one pulse (ngspice's TSTOP period never
// repeats inside the run). A PULSE whose TR + PW reaches PER restarts before falling in ngspice; it
// is mapped to width PER − TR and fall 0, which is the same waveform. Waveforms the engine has no
// form for are tables (source-tables.ts): PWL with `r=`/`td=` or from a file, EXP, damped SIN
// (THETA ≠ 0), PULSE with a pulse count NP (8th argument, LTspice's Ncycles). LTspice's `SINE` is SIN.
import type { ParamValue } from '../netlist.js';
import type { Token } from './lexer.js';
import { lineError } from './lexer.js';
import type { CardCursor, NumericValue } from './cursor.js';
import { dampedSine, exponential, pulseTrain, pwlFromFile, pwlTable } from './source-tables.js';

export interface TranTimes {
  tstep: number;
  tstop: number;
  /** The simulation step (TSTEP, or TMAX when smaller). */
  dt: number;
}

const UNSUPPORTED_FUNCTIONS = new Set(['sffm', 'am', 'trnoise', 'trrandom', 'pat', 'distof1', 'distof2', 'portnum', 'z0']);

function param(v: NumericValue): ParamValue {
  return v.ref !== undefined ? `$${v.ref}` : v.value;
}

/** `r=` / `td=` after a PWL (ngspice's repeat and delay). */
function pwlOptions(cursor: CardCursor, name: string): { repeat?: number; delay: number } {
  let repeat: number | undefined;
  let delay = 0;
  while (cursor.isKeyValue() && ['r', 'td'].includes(cursor.peek()!.lower)) {
    const key = cursor.next()!;
    cursor.next();
    const value = cursor.value(`${name} PWL ${key.text}`).value;
    if (key.lower === 'r') repeat = value;
    else delay = value;
  }
  return { repeat, delay };
}

/**
 * Reads the specification after the nodes of a V or I card; returns the element parameters. With
 * `series` (V cards), LTspice's `Rser=` is accepted and stored there.
 */
export function readSourceSpec(cursor: CardCursor, name: string, tran: TranTimes, series?: Map<string, number>): Record<string, ParamValue> {
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
    } else if (t.kind === 'word' && ['sin', 'sine', 'pulse', 'pwl', 'exp'].includes(t.lower)) {
      if (transient) throw lineError('SPICE_SYNTAX', t.line, `${name} has more than one transient function`, cursor.ctx.fileName, name);
      cursor.next();
      const file = t.lower === 'pwl' ? pwlFileName(cursor) : undefined;
      const args = file === undefined ? cursor.argumentTokens(`${name} ${t.text.toUpperCase()}`) : [];
      const values = args.map((a) => cursor.valueOf(a, `${name} ${t.text.toUpperCase()} argument`));
      if (t.lower === 'sin' || t.lower === 'sine') transient = sine(values, t, name, tran, cursor);
      else if (t.lower === 'pulse') transient = pulse(values, t, name, tran, cursor);
      else if (t.lower === 'exp') transient = exponential(values.map((v) => v.value), t, name, tran, cursor);
      else if (file !== undefined) transient = pwlFromFile(file, t, name, tran, cursor, pwlOptions(cursor, name));
      else transient = pwlTable(values.map((v) => v.value), t, name, tran, cursor, pwlOptions(cursor, name));
    } else if (series && cursor.isKeyValue() && t.lower === 'rser') {
      cursor.next();
      cursor.next();
      series.set('rser', cursor.value(`${name} Rser`).value);
    } else if (t.kind === 'word' && UNSUPPORTED_FUNCTIONS.has(t.lower)) {
      throw lineError('SPICE_UNSUPPORTED', t.line, `${name}: source function ${t.text.toUpperCase()} is not supported (use DC, SIN, PULSE, PWL or EXP)`, cursor.ctx.fileName, name);
    } else if (dc === undefined && !transient && cursor.isValueNext()) {
      dc = cursor.value(`${name} value`);
    } else {
      throw lineError('SPICE_UNSUPPORTED', t.line, `${name}: unexpected '${t.text}' in the source specification`, cursor.ctx.fileName, name);
    }
  }
  return transient ?? { waveform: 'dc', value: dc ? param(dc) : 0 };
}

/** `PWL file=NAME`, `PWL FILE NAME` or `PWL(file=NAME)`: the file name, else undefined. */
function pwlFileName(cursor: CardCursor): string | undefined {
  const paren = cursor.isPunct('(') ? 1 : 0;
  const key = cursor.peek(paren);
  if (key?.lower !== 'file') return undefined;
  const eq = cursor.isPunct('=', paren + 1) ? 1 : 0;
  const file = cursor.peek(paren + 1 + eq);
  if (!file || file.kind === 'punct') return undefined;
  for (let i = 0; i < paren + 2 + eq; i++) cursor.next();
  if (paren && !cursor.isPunct(')')) throw cursor.error(`expected ')' after the PWL file name`);
  if (paren) cursor.next();
  return file.text.replace(/^"(.*)"$/, '$1');
}

function arity(values: NumericValue[], min: number, max: number, fn: Token, name: string, cursor: CardCursor): void {
  if (values.length < min || values.length > max) {
    const expected = min === max ? `${min}` : `${min} to ${max}`;
    throw lineError('SPICE_SYNTAX', fn.line, `${name}: ${fn.text.toUpperCase()} takes ${expected} arguments, got ${values.length}`, cursor.ctx.fileName, name);
  }
}

function sine(v: NumericValue[], fn: Token, name: string, tran: TranTimes, cursor: CardCursor): Record<string, ParamValue> {
  arity(v, 2, 6, fn, name, cursor);
  const frequency = v[2] !== undefined && v[2].value !== 0 ? param(v[2]) : 1 / tran.tstop;
  if (v[4] !== undefined && v[4].value !== 0) {
    const [vo, va, , td = 0, theta, phase = 0] = v.map((x) => x.value);
    return dampedSine({ vo, va, freq: v[2]?.value || 1 / tran.tstop, td, theta, phase }, fn, name, tran, cursor);
  }
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
  arity(v, 2, 8, fn, name, cursor);
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
  if (v[7] !== undefined) {
    const shape = { v1: v[0].value, v2: v[1].value, delay: delay.value, rise: rise.value, fall: fall.value, width: width.value, period: period.value };
    return pulseTrain(shape, v[7].value, fn, name, tran, cursor);
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

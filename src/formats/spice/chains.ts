// Control chains the writer can express exactly as ngspice independent sources. A signal produced by
// CONST, SIGNAL (sine, triangle, sawtooth, rectangle) or a comparator GT/GE/LT/LE between such a
// SIGNAL and a CONST becomes a shape; a GATE sees the shape compared with 0.5 (a 0/1 window), a
// `signal` source sees it scaled. Shapes become DC, SIN or PULSE specifications:
//   window (on while frac(f·t + q) < width): PULSE with edges of ε = 1e-3·min(dt, shorter phase),
//     centred on the exact switching instants; a window already on at t = 0 is written inverted
//     (V1 = on level) so that TD stays ≥ 0;
//   triangle / sawtooth: PULSE with TD = −(phase)·T (ngspice accepts a negative TD), the sawtooth's
//     drop taking ε;   sine: SIN with the phase in degrees.
// Any other block in the chain (PI, PT1, HYS, ...) has no exact independent-source form: the writer
// throws a NetlistError naming it.
import type { ControlBlock } from '../netlist.js';
import { NetlistError } from '../errors.js';
import { formatNumber as n } from './naming.js';

export type Shape =
  | { kind: 'const'; value: number }
  | { kind: 'sine' | 'triangle' | 'sawtooth'; frequency: number; q: number; offset: number; amplitude: number }
  | { kind: 'window'; frequency: number; q: number; width: number; low: number; high: number };

const frac = (x: number) => x - Math.floor(x);

function num(block: ControlBlock, key: string, fallback?: number): number {
  const value = block.params?.[key];
  if (typeof value === 'number') return value;
  if (value === undefined && fallback !== undefined) return fallback;
  throw new NetlistError('SPICE_UNSUPPORTED', `${block.name}: parameter ${key} must be a number to be written to SPICE`, [
    { field: `${block.name}.${key}`, component: block.name, message: 'not a number' },
  ]);
}

function unsupported(block: ControlBlock, why: string): NetlistError {
  return new NetlistError('SPICE_UNSUPPORTED', `${block.name} (${block.type}): ${why}; the SPICE writer expresses only CONST, SIGNAL and comparisons of a SIGNAL with a CONST`, [
    { field: block.name, component: block.name, message: why },
  ]);
}

/** A 0/1 window, or a constant when it is always or never on. */
function window(frequency: number, q: number, width: number): Shape {
  if (width <= 0) return { kind: 'const', value: 0 };
  if (width >= 1) return { kind: 'const', value: 1 };
  return { kind: 'window', frequency, q, width, low: 0, high: 1 };
}

/** Positions p in [0, 1) of a unit shape where shape(p) > u: a window start and width. */
function above(kind: 'sine' | 'triangle' | 'sawtooth', u: number): { start: number; width: number } {
  const top = 1;
  const bottom = kind === 'sawtooth' ? 0 : -1;
  if (u >= top) return { start: 0, width: 0 };
  if (u < bottom) return { start: 0, width: 1 };
  if (kind === 'triangle') return { start: (u + 1) / 4, width: (1 - u) / 2 };
  if (kind === 'sawtooth') return { start: u, width: 1 - u };
  const a = Math.asin(u) / (2 * Math.PI);
  return { start: a, width: 0.5 - 2 * a };
}

/** The 0/1 shape of `shape > c` (greater) or `shape < c`. */
export function compare(shape: Shape, c: number, greater: boolean): Shape {
  const test = (v: number) => (greater ? v > c : v < c);
  switch (shape.kind) {
    case 'const':
      return { kind: 'const', value: test(shape.value) ? 1 : 0 };
    case 'window': {
      const high = test(shape.high);
      const low = test(shape.low);
      if (high === low) return { kind: 'const', value: high ? 1 : 0 };
      if (high) return window(shape.frequency, shape.q, shape.width);
      return window(shape.frequency, shape.q - shape.width, 1 - shape.width);
    }
    default: {
      if (shape.amplitude === 0) return { kind: 'const', value: test(shape.offset) ? 1 : 0 };
      const u = (c - shape.offset) / shape.amplitude;
      const { start, width } = above(shape.kind, u);
      // shape > u when the amplitude is positive and we want "greater" (or both reversed).
      if (greater === shape.amplitude > 0) return window(shape.frequency, shape.q - start, width);
      return window(shape.frequency, shape.q - start - width, 1 - width);
    }
  }
}

/** The shape of `signal` as produced by the blocks; `user` names who needs it, for errors. */
export function shapeOf(signal: string, producers: Map<string, ControlBlock>, user: string): Shape {
  const block = producers.get(signal);
  if (!block) {
    throw new NetlistError('UNKNOWN_REFERENCE', `${user}: no control block produces signal '${signal}'`, [
      { field: user, component: user, message: `no block produces ${signal}` },
    ]);
  }
  switch (block.type) {
    case 'CONST':
      return { kind: 'const', value: num(block, 'value') };
    case 'SIGNAL': {
      const waveform = block.params?.waveform ?? 'sine';
      const frequency = num(block, 'frequency');
      const amplitude = num(block, 'amplitude', 1);
      const offset = num(block, 'offset', 0);
      const q = num(block, 'phase', 0) / 360;
      if (!(frequency > 0)) throw unsupported(block, 'frequency must be greater than 0');
      if (waveform === 'rectangle') {
        const width = num(block, 'duty', 0.5);
        if (width <= 0) return { kind: 'const', value: offset };
        if (width >= 1) return { kind: 'const', value: offset + amplitude };
        return { kind: 'window', frequency, q, width, low: offset, high: offset + amplitude };
      }
      if (waveform === 'sine' || waveform === 'triangle' || waveform === 'sawtooth') {
        return { kind: waveform, frequency, q, offset, amplitude };
      }
      throw unsupported(block, `waveform ${String(waveform)}`);
    }
    case 'GT':
    case 'GE':
    case 'LT':
    case 'LE': {
      const inputs = block.inputs ?? [];
      if (inputs.length !== 2) throw unsupported(block, 'a comparison needs two inputs');
      const [a, b] = inputs.map((s) => shapeOf(s, producers, block.name));
      const greater = block.type === 'GT' || block.type === 'GE';
      if (b.kind === 'const') return compare(a, b.value, greater);
      if (a.kind === 'const') return compare(b, a.value, !greater);
      throw unsupported(block, 'compares two time-varying signals');
    }
    default:
      throw unsupported(block, `a ${block.type} block cannot be written as an independent source`);
  }
}

/** ε of the edges written for a period T: small against both the step and the shorter phase. */
function edge(dt: number, period: number, width = 0.5): number {
  return 1e-3 * Math.min(dt, period * Math.min(width, 1 - width));
}

/**
 * The SPICE source specification of `gain·shape + offset`, delayed by `shift` seconds (pesim's
 * `signal` sources see the control value of the previous step: shift = dt; gates: shift = 0).
 */
export function sourceSpec(shape: Shape, dt: number, gain = 1, offset = 0, shift = 0): string {
  const y = (v: number) => offset + gain * v;
  if (shape.kind === 'const') return `DC ${n(y(shape.value))}`;
  const T = 1 / shape.frequency;
  const q = shape.q - shape.frequency * shift;
  if (shape.kind === 'window') return windowPulse(shape.frequency, q, shape.width, y(shape.low), y(shape.high), dt);
  if (shape.kind === 'sine') {
    return `SIN(${n(y(shape.offset))} ${n(gain * shape.amplitude)} ${n(shape.frequency)} 0 0 ${n(360 * frac(q))})`;
  }
  {
    const eps = edge(dt, T);
    const td = -frac(q) * T;
    const lo = y(shape.kind === 'triangle' ? shape.offset - shape.amplitude : shape.offset);
    const hi = y(shape.offset + shape.amplitude);
    const [tr, pw, tf] = shape.kind === 'triangle' ? [T / 2 - eps / 2, eps, T / 2 - eps / 2] : [T - 2 * eps, eps, eps];
    return `PULSE(${n(lo)} ${n(hi)} ${n(td)} ${n(tr)} ${n(tf)} ${n(pw)} ${n(T)})`;
  }
}

/** PULSE for a value `high` while frac(f·t + q) < width, else `low` (0 < width < 1). */
export function windowPulse(frequency: number, q: number, width: number, low: number, high: number, dt: number): string {
  const T = 1 / frequency;
  const eps = edge(dt, T, width);
  const p0 = frac(q);
  // On at t = 0: start with the on level and switch off at the end of the present window.
  const [v1, v2, td, plateau] = p0 < width ? [high, low, (width - p0) * T, (1 - width) * T] : [low, high, (1 - p0) * T, width * T];
  const start = Math.max(0, td - eps / 2);
  return `PULSE(${n(v1)} ${n(v2)} ${n(start)} ${n(eps)} ${n(eps)} ${n(plateau - eps)} ${n(T)})`;
}

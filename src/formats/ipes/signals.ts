// SIGNAL sources and parameters taken from input terminals. GeckoCIRCUITS semantics (see
// SignalCalculator*): sine = A·sin(2πft − φ) + offset → engine phase −φ; rectangle = offset + A
// while frac(ft − φ/360°) < d, else offset → engine phase −φ; triangle (SignalCalculatorTriangle)
// = offset + A·tri(frac(ft − φ/360°)), where tri rises from 0 to 1 in d/2 of the period, falls to −1
// in 1 − d and rises back to 0 in d/2 (d = 0.5: A·(2/π)·asin(sin(2πft − φ)); d = 1: a sawtooth)
// → the engine triangle (−1 at the period start, +1 at d) with phase 180°·d − φ and duty d.
// (GeckoCIRCUITS starts the triangle at phase φ by running it φ/360° of a period and negating the
// value, keeping the direction; for every d that is the waveform at time −φ/(360° f).)
// Files without `version170` store φ in radians.
// A SIGNAL with external parameters gets `restartAtSecondStep: 1`: GeckoCIRCUITS starts it again
// at its second step (SignalCalculatorExternalWrapper).
// External parameters (`useExternal`: inputs amplitude, frequency, offset, phase [°], duty; HYS h;
// LIMIT min/max; the INT reset) are folded when their signals are constant (CONST and arithmetic of
// constants; unconnected = 0). A rectangle whose duty is a live signal becomes an equivalent
// comparison: LIMIT(d) > carrier, carrier = 0.5 − 0.5·triangle, as GeckoCIRCUITS compares its
// internal triangle with 1 − 2d.
import type { ControlBlock, ParamValue } from '../netlist.js';
import type { ComponentRecord } from './components.js';
import { GECKO_HYSTERESIS, type PendingBlock } from './controls.js';
import { negate, netParam, numericParam, resolveParam, unsupported, type ReadContext } from './params.js';
import { importedSignal } from './datafiles.js';

const WAVEFORMS: Record<number, 'sine' | 'triangle' | 'rectangle'> = { 402: 'sine', 0: 'sine', 403: 'triangle', 1: 'triangle', 404: 'rectangle', 2: 'rectangle' };
const EXTERNAL_PARAMS = ['amplitude', 'frequency', 'offset', 'phase', 'duty'];
/** GeckoCIRCUITS clamps an external duty to this range (`SignalCalculatorExternalWrapper`). */
export const DUTY_RANGE: [number, number] = [1e-7, 0.99999999];

export interface MappedSignal {
  blocks: ControlBlock[];
  extra?: Record<string, unknown>;
  synthetic?: string[];
}

/** Netlist parameters of a SIGNAL from GeckoCIRCUITS values (phase φ in degrees). */
export function signalParams(waveform: 'sine' | 'triangle' | 'rectangle', v: Record<string, ParamValue>, phaseDeg: number): Record<string, ParamValue> {
  const base = { waveform, amplitude: v.amplitude, frequency: v.frequency, offset: v.offset };
  if (waveform === 'sine') return { ...base, phase: negate(phaseDeg) };
  if (waveform === 'triangle') {
    const duty = typeof v.duty === 'number' ? v.duty : 0.5;
    return duty === 0.5 ? { ...base, phase: 90 - phaseDeg } : { ...base, phase: 180 * duty - phaseDeg, duty };
  }
  return { ...base, phase: negate(phaseDeg), duty: v.duty };
}

export function mapSignal(ctx: ReadContext, c: ComponentRecord, outputs: string[], external: Array<string | undefined> | undefined): { mapped?: MappedSignal; pending?: Omit<PendingBlock, 'index'> } | undefined {
  const typ = resolveParam(ctx, c, { key: 'typQuelle', slot: 0, def: 404 }).value;
  const waveform = WAVEFORMS[typ];
  if (!waveform && (typ === 406 || typ === 4) && !external) {
    const table = importedSignal(ctx, c, ctx.dataFiles ?? new Map(), ctx.companion);
    return table ? { mapped: { blocks: [{ name: c.name, type: 'PWL', outputs, params: { ...table } }] } } : undefined;
  }
  if (!waveform && (typ === 405 || typ === 3) && !external) {
    return { mapped: { blocks: [{ name: c.name, type: 'RANDOM', outputs }] } };
  }
  if (!waveform) {
    unsupported(ctx, c, typ === 405 || typ === 3 ? 'random signal source with external inputs' : typ === 406 || typ === 4 ? 'signal imported from a file, with external inputs' : `signal type ${typ}`);
    return undefined;
  }
  const block: ControlBlock = { name: c.name, type: 'SIGNAL', outputs };
  if (external) {
    block.params = { waveform };
    return { pending: { record: c, block, external: EXTERNAL_PARAMS.map((param, i) => ({ param, signal: external[i] })) } };
  }
  const values: Record<string, ParamValue> = {
    amplitude: netParam(ctx, c, { key: 'amplitudeAC', slot: 1, def: 10 }),
    frequency: netParam(ctx, c, { key: 'frequenz', slot: 2, def: 50 }),
    offset: netParam(ctx, c, { key: 'anteilDC', slot: 3, def: 0 }),
    duty: netParam(ctx, c, { key: 'tastverhaeltnis', slot: 5, def: 0.5 }),
  };
  const raw = numericParam(ctx, c, { key: 'phase', slot: 4, def: 0 });
  const phaseDeg = c.tokens.has('version170') ? raw : (raw * 180) / Math.PI;
  if (waveform === 'triangle') {
    const duty = resolveParam(ctx, c, { key: 'tastverhaeltnis', slot: 5, def: 0.5 }).value;
    if (!(duty >= 0 && duty <= 1)) {
      unsupported(ctx, c, `triangle with duty ${duty} (expected 0 to 1)`);
      return undefined;
    }
    values.duty = duty;
  }
  block.params = signalParams(waveform, values, phaseDeg);
  const extra = waveform === 'triangle' ? { phaseDegrees: phaseDeg } : undefined;
  return { mapped: { blocks: [block], extra } };
}

/** Value of a signal if it is constant (CONST blocks and arithmetic of constants). */
export function constantValue(signal: string, producers: Map<string, ControlBlock>, globals: Record<string, number>, seen = new Set<string>()): number | undefined {
  const block = producers.get(signal);
  if (!block || seen.has(signal)) return undefined;
  seen.add(signal);
  const num = (v: ParamValue | undefined, def: number): number | undefined => {
    if (v === undefined) return def;
    if (typeof v === 'number') return v;
    if (typeof v === 'string' && v.startsWith('$')) return globals[v.slice(1)];
    return undefined;
  };
  if (block.type === 'CONST') return num(block.params?.value, NaN);
  const inputs = (block.inputs ?? []).map((s) => constantValue(s, producers, globals, new Set(seen)));
  if (inputs.some((v) => v === undefined)) return undefined;
  const x = inputs as number[];
  const p = block.params ?? {};
  switch (block.type) {
    case 'GAIN': { const k = num(p.k, 1); return k === undefined ? undefined : k * x[0]; }
    case 'ADD': {
      const signs = Array.isArray(p.signs) ? (p.signs as number[]) : x.map(() => 1);
      return x.reduce((sum, v, i) => sum + signs[i] * v, 0);
    }
    case 'SUB': return x[0] - x[1];
    case 'MUL': return x.reduce((a, v) => a * v, 1);
    case 'DIV': return x[0] / x[1];
    case 'POW': return Math.pow(x[0], x[1]); // as java.lang.Math.pow, also for NaN and (±1)^±∞
    case 'MIN': return Math.min(...x);
    case 'MAX': return Math.max(...x);
    case 'LIMIT': {
      const lo = num(p.min, -Infinity);
      const hi = num(p.max, Infinity);
      return lo === undefined || hi === undefined ? undefined : Math.min(hi, Math.max(lo, x[0]));
    }
    case 'ABS': return Math.abs(x[0]);
    case 'SIGN': return Math.sign(x[0]);
    case 'SQR': return x[0] * x[0];
    case 'SQRT': return Math.sqrt(x[0]);
    case 'EXP': return Math.exp(x[0]);
    case 'LN': return Math.log(x[0]);
    case 'SIN': return Math.sin(x[0]);
    case 'COS': return Math.cos(x[0]);
    case 'ATAN': return Math.atan(x[0]);
    case 'ASIN': return Math.asin(x[0]);
    case 'ACOS': return Math.acos(x[0]);
    case 'TAN': return Math.tan(x[0]);
    default: return undefined;
  }
}

export interface Resolved {
  blocks: ControlBlock[];
  extra?: Record<string, unknown>;
  synthetic?: string[];
}

function pwmChain(name: string, output: string, duty: string, v: Record<string, number>): ControlBlock[] {
  const carrier = `${name}.carrier`;
  const limited = `${name}.duty`;
  const blocks: ControlBlock[] = [
    { name: carrier, type: 'SIGNAL', outputs: [carrier], params: { waveform: 'triangle', amplitude: -0.5, offset: 0.5, frequency: v.frequency, phase: negate(v.phase), restartAtSecondStep: 1 } },
    { name: limited, type: 'LIMIT', inputs: [duty], outputs: [limited], params: { min: DUTY_RANGE[0], max: DUTY_RANGE[1] } },
  ];
  const plain = v.amplitude === 1 && v.offset === 0;
  const pwm = plain ? output : `${name}.pwm`;
  blocks.unshift({ name: plain ? name : pwm, type: 'GT', inputs: [limited, carrier], outputs: [pwm] });
  if (plain) return blocks;
  if (v.offset === 0) return [{ name, type: 'GAIN', inputs: [pwm], outputs: [output], params: { k: v.amplitude } }, ...blocks];
  return [
    { name, type: 'ADD', inputs: [`${name}.amplitude`, `${name}.offset`], outputs: [output] },
    { name: `${name}.amplitude`, type: 'GAIN', inputs: [pwm], outputs: [`${name}.amplitude`], params: { k: v.amplitude } },
    { name: `${name}.offset`, type: 'CONST', outputs: [`${name}.offset`], params: { value: v.offset } },
    ...blocks,
  ];
}

/** Resolves the external parameters of one block; undefined when it is reported unsupported. */
export function resolvePending(ctx: ReadContext, pending: PendingBlock, producers: Map<string, ControlBlock>): Resolved | undefined {
  const { record: c, block } = pending;
  const folded: Record<string, number> = {};
  const live: Record<string, string> = {};
  for (const { param, signal } of pending.external) {
    const value = signal === undefined ? 0 : constantValue(signal, producers, ctx.globals);
    if (value === undefined) live[param] = signal!;
    else folded[param] = value;
  }
  const dynamic = Object.keys(live);
  const inputs = pending.external.map((e) => e.signal ?? '');
  if (block.type === 'HYS' && live.h) {
    return { blocks: [{ ...block, inputs: [...block.inputs!, live.h], params: { ...GECKO_HYSTERESIS } }], extra: { externalInputs: inputs, values: folded } };
  }
  if (block.type !== 'SIGNAL') {
    if (dynamic.length > 0) {
      unsupported(ctx, c, `parameter ${dynamic.join(', ')} taken from the live signal ${dynamic.map((p) => `'${live[p]}'`).join(', ')}`);
      return undefined;
    }
    return { blocks: [{ ...block, params: { ...block.params, ...folded } }], extra: { externalInputs: inputs, values: folded } };
  }
  const waveform = block.params!.waveform as 'sine' | 'triangle' | 'rectangle';
  const duty = Math.min(DUTY_RANGE[1], Math.max(DUTY_RANGE[0], Math.min(1, Math.max(0, folded.duty ?? 0))));
  const v = { amplitude: folded.amplitude, frequency: folded.frequency, offset: folded.offset, phase: folded.phase, duty };
  const liveOther = dynamic.filter((p) => !(p === 'duty' && waveform === 'rectangle'));
  if (liveOther.length > 0) {
    unsupported(ctx, c, `${waveform} with ${liveOther.join(', ')} taken from the live signal ${liveOther.map((p) => `'${live[p]}'`).join(', ')}`);
    return undefined;
  }
  if (!(v.frequency > 0)) {
    unsupported(ctx, c, `frequency input is ${v.frequency} (unconnected inputs read 0)`);
    return undefined;
  }
  const extra = { externalInputs: inputs, values: v };
  if (live.duty) {
    const blocks = pwmChain(c.name, block.outputs![0], live.duty, v);
    const synthetic = blocks.map((b) => b.name).filter((n) => n !== c.name);
    ctx.warnings.push(`${c.name}: the duty cycle comes from signal '${live.duty}'; mapped to a comparison of the limited duty with a triangle carrier (${synthetic.join(', ')}). GeckoCIRCUITS sets the carrier phase from the duty at the first step; the mapping assumes it is 1 (pulses centred in the period)`);
    return { blocks, extra, synthetic };
  }
  const restart: Record<string, ParamValue> = waveform === 'sine' ? {} : { restartAtSecondStep: 1 };
  return { blocks: [{ ...block, params: { ...signalParams(waveform, v, v.phase), ...restart } }], extra };
}

// Typed facade of the addon's signal analysis (native/addon/analysis.cc, definitions in
// native/core/include/pesim/analysis.hpp and docs/analysis.md). The Promise functions run on the
// libuv thread pool and never block the event loop (10 M samples take well under a second);
// the *Sync ones run on the calling thread, for worker threads.
import { loadBinding } from './binding.js';
import { EngineError } from './errors.js';

export interface Characteristics {
  average: number;
  rms: number;
  /** sqrt(Σ_{k≥2} c_k²) / c_1 up to the Nyquist frequency. */
  thd: number;
  min: number;
  max: number;
  peakToPeak: number;
  /** peakToPeak / |average|; 0 when the average is 0. */
  ripple: number;
  /** sqrt(Σ_{k≥2} c_k²) / sqrt(Σ_{k≥1} c_k²). */
  klirr: number;
  /** rms / mean(|x|). */
  shapeFactor: number;
  sampleCount: number;
  /** The fundamental used for thd/klirr [Hz]: given, or the strongest non-DC bin. */
  baseFrequency: number;
}

export interface FourierResult {
  baseFrequency: number;
  harmonics: number;
  dcComponent: number;
  fundamentalAmplitude: number;
  fundamentalPhaseDegrees: number;
  /** c_k for k = 1..harmonics (index k − 1). */
  cnAmplitudes: number[];
  /** φ_k in degrees for x(t) = c0 + Σ c_k cos(2π k f0 t + φ_k), t = 0 at the first sample. */
  jnPhases: number[];
  /** Whole fundamental periods in the analysis window. */
  periods: number;
  /** Samples in the analysis window (from the first sample). */
  windowSamples: number;
}

export interface CharacteristicsOptions {
  /** Fundamental [Hz]; default: the strongest non-DC bin. */
  baseFrequency?: number;
}

export interface FourierOptions extends CharacteristicsOptions {
  /** 1..1000, default 20. */
  harmonics?: number;
}

export const MAX_SAMPLES = 10_000_000;
export const MAX_HARMONICS = 1000;
export const DEFAULT_HARMONICS = 20;

/** Analysis input out of its domain; `field` names it (`data[12]`, `sampleRate`, `harmonics`, `baseFrequency`). */
export class AnalysisError extends EngineError {}

type Samples = Float64Array | readonly number[];

interface AnalysisBinding {
  characteristicsSync(data: Float64Array, sampleRate: number, baseFrequency?: number): Characteristics;
  characteristicsAsync(data: Float64Array, sampleRate: number, baseFrequency?: number): Promise<Characteristics>;
  fourierSync(data: Float64Array, sampleRate: number, baseFrequency?: number, harmonics?: number): FourierResult;
  fourierAsync(data: Float64Array, sampleRate: number, baseFrequency?: number, harmonics?: number): Promise<FourierResult>;
  rmsSync(data: Float64Array): number;
  rmsAsync(data: Float64Array): Promise<number>;
  spectrumSync(data: Float64Array, out?: Float64Array): Float64Array;
  spectrumAsync(data: Float64Array, out?: Float64Array): Promise<Float64Array>;
}

// The analysis functions are part of the addon's exports (registered in addon.cc) but not of the
// simulation binding type; they are typed here, next to their only user.
const binding = (): AnalysisBinding => loadBinding() as unknown as AnalysisBinding;

function toAnalysisError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const raw = error as Error & { code?: string; field?: string };
  if (raw.code !== 'ANALYSIS_INVALID') return error;
  return new AnalysisError('ANALYSIS_INVALID', raw.message, { field: raw.field });
}

/** Float64Array as is (read in place: do not modify it while a Promise is pending); arrays copied. */
function samples(data: Samples): Float64Array {
  if (data instanceof Float64Array) return data;
  if (!Array.isArray(data)) throw new AnalysisError('ANALYSIS_INVALID', 'data must be an array of numbers or a Float64Array', { field: 'data' });
  return Float64Array.from(data);
}

function sync<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw toAnalysisError(error);
  }
}

async function pooled<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw toAnalysisError(error);
  }
}

export function characteristics(data: Samples, sampleRate: number, options: CharacteristicsOptions = {}): Promise<Characteristics> {
  return pooled(() => binding().characteristicsAsync(samples(data), sampleRate, options.baseFrequency));
}

export function characteristicsSync(data: Samples, sampleRate: number, options: CharacteristicsOptions = {}): Characteristics {
  return sync(() => binding().characteristicsSync(samples(data), sampleRate, options.baseFrequency));
}

export function fourier(data: Samples, sampleRate: number, options: FourierOptions = {}): Promise<FourierResult> {
  return pooled(() => binding().fourierAsync(samples(data), sampleRate, options.baseFrequency, options.harmonics));
}

export function fourierSync(data: Samples, sampleRate: number, options: FourierOptions = {}): FourierResult {
  return sync(() => binding().fourierSync(samples(data), sampleRate, options.baseFrequency, options.harmonics));
}

export function rms(data: Samples): Promise<number> {
  return pooled(() => binding().rmsAsync(samples(data)));
}

export function rmsSync(data: Samples): number {
  return sync(() => binding().rmsSync(samples(data)));
}

/**
 * Bins 0..N/2 of the unnormalised DFT, interleaved [re0, im0, re1, im1, ...] (length 2·(⌊N/2⌋+1)).
 * Power-of-two N take their FFT plan from a cache the addon keeps per thread (4 sizes at most), so
 * only the first call of a size pays for building it.
 * `out`, when given, receives the spectrum and is returned (a Float64Array of exactly that length,
 * not sharing memory with `data`): repeated transforms of one size then allocate nothing. With the
 * Promise form, do not read or modify `out` before it resolves.
 */
export function spectrum(data: Samples, out?: Float64Array): Promise<Float64Array> {
  return pooled(() => binding().spectrumAsync(samples(data), out));
}

export function spectrumSync(data: Samples, out?: Float64Array): Float64Array {
  return sync(() => binding().spectrumSync(samples(data), out));
}

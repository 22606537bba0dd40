// Response shapes of the analysis endpoints, built from the engine's results.
import type { Characteristics, FourierResult } from '../engine/analysis.js';
import type { CharacteristicsResponse, FourierResponse } from './model.js';

export function presentCharacteristics(c: Characteristics): CharacteristicsResponse {
  return {
    average: c.average, rms: c.rms, thd: c.thd, min: c.min, max: c.max, peakToPeak: c.peakToPeak,
    ripple: c.ripple, klirr: c.klirr, shapeFactor: c.shapeFactor, sampleCount: c.sampleCount,
  };
}

export function presentFourier(f: FourierResult): FourierResponse {
  return {
    baseFrequency: f.baseFrequency, harmonics: f.harmonics, dcComponent: f.dcComponent,
    fundamentalAmplitude: f.fundamentalAmplitude, fundamentalPhaseDegrees: f.fundamentalPhaseDegrees,
    cnAmplitudes: f.cnAmplitudes, jnPhases: f.jnPhases,
  };
}

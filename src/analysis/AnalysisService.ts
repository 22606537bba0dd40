// Signal analysis for the HTTP interface: resolves the signal (raw samples or a stored simulation
// signal), runs the engine's analysis on the thread pool, and turns engine input errors into
// 400 VALIDATION_ERROR naming the field.
import {
  AnalysisError, characteristics, DEFAULT_HARMONICS, fourier, MAX_HARMONICS, rms, type Characteristics, type FourierResult,
} from '../engine/analysis.js';
import { AppError, validationError } from '../http/errors.js';
import type { CharacteristicsRequest, FourierRequest, RmsRequest } from './model.js';
import { resolveSamples, type ResultReader } from './signal-source.js';

function asValidation(error: unknown): unknown {
  if (!(error instanceof AnalysisError)) return error;
  const field = error.field ?? 'data';
  return validationError(error.message, [{ field, message: error.message }]);
}

/**
 * The engine scales its sums, so finite samples give finite measures unless a measure itself lies
 * beyond the double range (the peak-to-peak of ±1e308): that is a 422 naming the measure.
 */
function requireFinite<T extends object>(result: T): T {
  const infinite = Object.entries(result).filter(([, v]) => typeof v === 'number' && !Number.isFinite(v)).map(([k]) => k);
  if (infinite.length > 0) {
    throw new AppError(422, 'RESULT_NOT_FINITE', `${infinite.join(', ')} of these samples exceed the range of a double (±1.8e308)`, infinite.map((field) => ({ field, message: 'not a finite number' })));
  }
  return result;
}

export class AnalysisService {
  constructor(private readonly readResult: ResultReader) {}

  async characteristics(body: CharacteristicsRequest): Promise<Characteristics> {
    const { data, sampleRate } = await resolveSamples(body, this.readResult, true);
    const result = await characteristics(data, sampleRate ?? Number.NaN, { baseFrequency: body.baseFrequency }).catch((e: unknown) => {
      throw asValidation(e);
    });
    return requireFinite(result);
  }

  async fourier(body: FourierRequest, harmonics = DEFAULT_HARMONICS): Promise<FourierResult> {
    if (!Number.isInteger(harmonics) || harmonics < 1 || harmonics > MAX_HARMONICS) {
      throw validationError(`harmonics: must be an integer from 1 to ${MAX_HARMONICS}, got ${harmonics}`, [
        { field: 'harmonics', message: `must be an integer from 1 to ${MAX_HARMONICS}` },
      ]);
    }
    const { data, sampleRate } = await resolveSamples(body, this.readResult, true);
    const result = await fourier(data, sampleRate ?? Number.NaN, { baseFrequency: body.baseFrequency, harmonics }).catch((e: unknown) => {
      throw asValidation(e);
    });
    return requireFinite(result);
  }

  async rms(body: RmsRequest): Promise<number> {
    const { data } = await resolveSamples(body, this.readResult, false);
    const value = await rms(data).catch((e: unknown) => {
      throw asValidation(e);
    });
    return requireFinite({ rms: value }).rms;
  }
}

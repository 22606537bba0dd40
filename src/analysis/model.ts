// Request and response shapes of the analysis endpoints (OpenAPI schemas through tsoa).

/**
 * The signal to analyse: either raw samples (`data` + `sampleRate`) or a window of a signal a
 * completed simulation recorded (`simulationId` + `signalName`, optional `startTime`/`endTime`).
 * @example { "data": [0, 1, 0, -1, 0, 1, 0, -1], "sampleRate": 400 }
 */
export interface SignalRequest {
  /** Samples, at most 10 000 000. */
  data?: number[];
  /** Samples per second of `data`. */
  sampleRate?: number;
  /** A completed simulation of this service. */
  simulationId?: string;
  /** A recorded signal of that simulation, e.g. `SCOPE.1.ch1` (GET /simulations/{id} lists them). */
  signalName?: string;
  /** Start of the window [s]; default the first sample. */
  startTime?: number;
  /** End of the window [s]; default the last sample. */
  endTime?: number;
}

/**
 * @example { "data": [0, 1, 0, -1, 0, 1, 0, -1], "sampleRate": 400, "baseFrequency": 100 }
 */
export interface CharacteristicsRequest extends SignalRequest {
  /** Fundamental for thd/klirr [Hz]; default the strongest non-DC frequency bin. */
  baseFrequency?: number;
}

/**
 * @example { "data": [1.5, 2.5, 1.5, 0.5, 1.5, 2.5, 1.5, 0.5], "sampleRate": 400, "baseFrequency": 100 }
 */
export interface FourierRequest extends SignalRequest {
  /** Fundamental [Hz]; default the strongest non-DC frequency bin. */
  baseFrequency?: number;
}

/** @example { "data": [3, -4, 3, -4] } */
export type RmsRequest = SignalRequest;

export interface CharacteristicsResponse {
  average: number;
  rms: number;
  /** Total harmonic distortion sqrt(Σ_{k≥2} c_k²) / c_1, harmonics up to the Nyquist frequency. */
  thd: number;
  min: number;
  max: number;
  peakToPeak: number;
  /** peakToPeak / |average| (0 when the average is 0). */
  ripple: number;
  /** Distortion factor sqrt(Σ_{k≥2} c_k²) / sqrt(Σ_{k≥1} c_k²). */
  klirr: number;
  /** Form factor rms / mean(|x|). */
  shapeFactor: number;
  sampleCount: number;
}

export interface FourierResponse {
  /** The fundamental [Hz]: as given, or the strongest non-DC bin. */
  baseFrequency: number;
  harmonics: number;
  /** c0, the mean over the analysis window. */
  dcComponent: number;
  fundamentalAmplitude: number;
  fundamentalPhaseDegrees: number;
  /** c_k for k = 1..harmonics (index k − 1); 0 above the Nyquist frequency. */
  cnAmplitudes: number[];
  /** φ_k in degrees, x(t) = c0 + Σ c_k cos(2π k f0 t + φ_k), t = 0 at the first sample of the window. */
  jnPhases: number[];
}

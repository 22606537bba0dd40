// HTTP interface of signal analysis (/api/v1/analysis): characteristics, Fourier coefficients and
// RMS of raw samples or of a stored simulation signal. Thin: AnalysisService does the work,
// AnalysisPresenter shapes the bodies. Definitions: docs/analysis.md and docs/spec/decisions.md §1.4.
import { Body, Controller, Example, Post, Query, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { SimulationService } from '../simulations/SimulationService.js';
import type { ErrorBody } from '../http/error-body.js';
import { AnalysisService } from './AnalysisService.js';
import { presentCharacteristics, presentFourier } from './AnalysisPresenter.js';
import type { CharacteristicsRequest, CharacteristicsResponse, FourierRequest, FourierResponse, RmsRequest } from './model.js';

const ID = '3d2f8a61-5c4b-4e0f-8a7d-9b1c2e3f4a5b';
const AT = '2025-01-01T12:00:00.000Z';

/** What the analysis endpoints need of the service: the stored waveforms of a simulation. */
export interface AnalysisDeps {
  simulations: Pick<SimulationService, 'result'>;
}

@Route('api/v1/analysis')
@Tags('analysis')
@Security('api_key')
@Response<ErrorBody>(400, 'Invalid request or signal (the field is named in details)', { error: 'VALIDATION_ERROR', message: 'baseFrequency 600 Hz is above the Nyquist frequency 500 Hz (sampleRate / 2)', details: [{ field: 'baseFrequency', message: 'baseFrequency 600 Hz is above the Nyquist frequency 500 Hz (sampleRate / 2)' }], path: '/api/v1/analysis/fourier', timestamp: AT })
@Response<ErrorBody>(401, 'API key missing or invalid (when sim.api.auth-enabled)', { error: 'UNAUTHORIZED', message: 'This endpoint needs an API key in the X-API-Key header', path: '/api/v1/analysis/rms', timestamp: AT })
@Response<ErrorBody>(404, 'Unknown simulation', { error: 'SIMULATION_NOT_FOUND', message: `No simulation ${ID}; GET /api/v1/simulations lists them`, path: '/api/v1/analysis/characteristics', timestamp: AT })
@Response<ErrorBody>(409, 'The simulation has not completed', { error: 'INVALID_STATE', message: `Simulation ${ID} is running; its results exist once it is completed`, path: '/api/v1/analysis/characteristics', timestamp: AT })
@Response<ErrorBody>(413, 'Body larger than sim.api.max-body-size')
@Response<ErrorBody>(422, 'A measure of finite samples lies beyond the double range (peakToPeak of ±1e308)', { error: 'RESULT_NOT_FINITE', message: 'peakToPeak of these samples exceed the range of a double (±1.8e308)', details: [{ field: 'peakToPeak', message: 'not a finite number' }], path: '/api/v1/analysis/characteristics', timestamp: AT })
@Response<ErrorBody>(415, 'A request body that is not application/json (multipart/form-data for uploads)', { error: 'UNSUPPORTED_MEDIA_TYPE', message: 'The request body has the Content-Type text/plain, which this service does not read: send application/json (multipart/form-data for file uploads)', details: [{ field: 'Content-Type', message: 'must be application/json (multipart/form-data for file uploads)' }], path: '/api/v1/simulations', timestamp: '2025-01-01T12:00:00.000Z' })
@Response<ErrorBody>(500, 'Internal error')
export class AnalysisController extends Controller {
  private readonly analysis: AnalysisService;

  constructor(services: AnalysisDeps) {
    super();
    this.analysis = new AnalysisService((id) => services.simulations.result(id));
  }

  /**
   * Average, rms, min, max, peak-to-peak, ripple (peakToPeak / |average|), form factor
   * (rms / mean |x|), THD and distortion factor (klirr) of a signal. THD/klirr sum every harmonic
   * up to the Nyquist frequency from a DFT over the largest whole number of fundamental periods;
   * the fundamental is `baseFrequency` or the strongest non-DC bin. The signal is either `data` with
   * `sampleRate`, or `simulationId` + `signalName` (+ `startTime`, `endTime` in seconds) of a
   * completed simulation (its sample rate is taken from the recorded time axis).
   */
  @Post('characteristics')
  @Example<CharacteristicsResponse>({ average: 0, rms: 0.7071067811865476, thd: 0, min: -1, max: 1, peakToPeak: 2, ripple: 0, klirr: 0, shapeFactor: 1.1107207345395915, sampleCount: 2000 })
  public async characteristics(@Body() body: CharacteristicsRequest): Promise<CharacteristicsResponse> {
    return presentCharacteristics(await this.analysis.characteristics(body));
  }

  /**
   * Fourier coefficients of `baseFrequency` (default: the strongest non-DC bin) and its harmonics
   * k = 1..harmonics over the largest whole number of fundamental periods, from the first sample:
   * x(t) ≈ dcComponent + Σ cnAmplitudes[k−1] · cos(2π·k·f0·t + jnPhases[k−1]·π/180), with t = 0 at
   * the first sample of the window (a pure sine has phase −90°). Harmonics above the Nyquist
   * frequency are reported as 0.
   * @param harmonics number of harmonics, 1–1000 (default 20)
   */
  @Post('fourier')
  @Example<FourierResponse>({ baseFrequency: 100, harmonics: 3, dcComponent: 1.5, fundamentalAmplitude: 1, fundamentalPhaseDegrees: 0, cnAmplitudes: [1, 0, 0], jnPhases: [0, 0, 0] })
  public async fourier(@Body() body: FourierRequest, @Query() harmonics?: number): Promise<FourierResponse> {
    return presentFourier(await this.analysis.fourier(body, harmonics));
  }

  /**
   * Root mean square sqrt(mean(x²)) of `data` (no sampleRate needed) or of a window of a stored
   * simulation signal. The response is a bare JSON number.
   */
  @Post('rms')
  @Example<number>(3.5355339059327378)
  public async rms(@Body() body: RmsRequest): Promise<number> {
    return this.analysis.rms(body);
  }
}

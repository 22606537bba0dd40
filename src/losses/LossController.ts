// HTTP interface of loss calculation (/api/v1/loss): switching and conduction losses from
// datasheet-style parameters, and detailed losses of one device from simulated waveforms. Thin:
// LossService applies the formulas of docs/spec/decisions.md §1.5, LossPresenter shapes the bodies.
import { Body, Controller, Example, Post, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { SimulationService } from '../simulations/SimulationService.js';
import type { ErrorBody } from '../http/error-body.js';
import { LossService } from './LossService.js';
import { presentConduction, presentDetailed, presentSwitching } from './LossPresenter.js';
import type {
  ConductionLossRequest, ConductionLossResponse, DetailedLossRequest, DetailedLossResponse, SwitchingLossRequest, SwitchingLossResponse,
} from './model.js';

const ID = '3d2f8a61-5c4b-4e0f-8a7d-9b1c2e3f4a5b';
const AT = '2025-01-01T12:00:00.000Z';

/** What the loss endpoints need of the service: the stored waveforms of a simulation. */
export interface LossDeps {
  simulations: Pick<SimulationService, 'result'>;
}

@Route('api/v1/loss')
@Tags('losses')
@Security('api_key')
@Response<ErrorBody>(400, 'Invalid request (the field is named in details)', { error: 'VALIDATION_ERROR', message: 'Invalid request: referenceVoltage must be greater than 0', details: [{ field: 'referenceVoltage', message: 'must be greater than 0' }], path: '/api/v1/loss/switching', timestamp: AT })
@Response<ErrorBody>(401, 'API key missing or invalid (when sim.api.auth-enabled)', { error: 'UNAUTHORIZED', message: 'This endpoint needs an API key in the X-API-Key header', path: '/api/v1/loss/switching', timestamp: AT })
@Response<ErrorBody>(413, 'Body larger than sim.api.max-body-size')
@Response<ErrorBody>(415, 'A request body that is not application/json (multipart/form-data for uploads)', { error: 'UNSUPPORTED_MEDIA_TYPE', message: 'The request body has the Content-Type text/plain, which this service does not read: send application/json (multipart/form-data for file uploads)', details: [{ field: 'Content-Type', message: 'must be application/json (multipart/form-data for file uploads)' }], path: '/api/v1/simulations', timestamp: '2025-01-01T12:00:00.000Z' })
@Response<ErrorBody>(500, 'Internal error')
export class LossController extends Controller {
  private readonly losses: LossService;

  constructor(services: LossDeps) {
    super();
    this.losses = new LossService((id) => services.simulations.result(id));
  }

  /**
   * Switching loss of one device: Psw = (e_on_ref + e_off_ref) · frequency · (voltage /
   * referenceVoltage)^kv · (current / referenceCurrent)^ki · (1 + tc · (temperature −
   * referenceTemperature)), kv = voltageExponent (default 1), ki = currentExponent (default 1),
   * tc = temperatureCoefficient (default 0). Losses in W, energyPerCycle in J.
   */
  @Post('switching')
  @Example<SwitchingLossResponse>({ switchingLoss: 46.666666666666664, turnOnLoss: 26.666666666666664, turnOffLoss: 20, energyPerCycle: 0.0023333333333333335 })
  public switching(@Body() body: SwitchingLossRequest): SwitchingLossResponse {
    return presentSwitching(this.losses.switching(body));
  }

  /**
   * Conduction loss: Pcond = dutyCycle · (V0 · I + Ron(T) · I²) with V0 = `voltage` (threshold
   * voltage), Ron(T) = onResistance · (1 + temperatureCoefficient · (temperature −
   * referenceTemperature)); onResistance defaults to 0, dutyCycle to 1.
   */
  @Post('conduction')
  @Example<ConductionLossResponse>({ conductionLoss: 23.85, onStateVoltage: 1.59 })
  public conduction(@Body() body: ConductionLossRequest): ConductionLossResponse {
    return presentConduction(this.losses.conduction(body));
  }

  /**
   * Losses of one device. With `simulationId` and `device` only: the losses the engine computed
   * during the run with the device's own loss model (simple kOn/kOff/uSWnorm or measured curves
   * `lossModel`, see docs/netlist.md), over the run's measurement window, with the mean and
   * highest junction temperature when a PV element couples the device to a thermal network; the
   * run has device losses when its circuit has a thermal network or LOSS blocks.
   * Otherwise from its voltage and current waveforms. With `simulationId`, name the
   * scope channels that recorded the device: a VOLT meter across the device and an AMP meter
   * through it, both wired into a SCOPE (e.g. `SCOPE.2.ch1` voltage, `SCOPE.2.ch2` current; GET
   * /api/v1/simulations/{id} lists the recorded signals); `startTime`/`endTime` choose the window.
   * Or send `time`, `voltage` and `current` arrays directly. The device is on while |v| ≤
   * onStateVoltageThreshold (default 10 % of max |v|); conduction loss integrates v·i over the on
   * state, switching loss scales e_on_ref / e_off_ref by (V/Vref)·(I/Iref) at every turn-on and
   * turn-off; both are averaged over the window.
   */
  @Post('detailed')
  @Example<DetailedLossResponse>({ device: 'S.1', conductionLoss: 12.5, switchingLoss: 46.7, totalLoss: 59.2, switchingEvents: 40, averageCurrent: 5, rmsCurrent: 7.07 })
  @Example<DetailedLossResponse>({ device: 'IGBT.1', conductionLoss: 18.2, switchingLoss: 31.4, totalLoss: 49.6, switchingEvents: 400, averageCurrent: 9.1, rmsCurrent: 14.2, junctionTemperature: 88.5, maxJunctionTemperature: 91.2 })
  @Response<ErrorBody>(404, 'Unknown simulation', { error: 'SIMULATION_NOT_FOUND', message: `No simulation ${ID}; GET /api/v1/simulations lists them`, path: '/api/v1/loss/detailed', timestamp: AT })
  @Response<ErrorBody>(409, 'The simulation has not completed', { error: 'INVALID_STATE', message: `Simulation ${ID} is running; its results exist once it is completed`, path: '/api/v1/loss/detailed', timestamp: AT })
  public async detailed(@Body() body: DetailedLossRequest): Promise<DetailedLossResponse> {
    return presentDetailed(await this.losses.detailed(body));
  }
}

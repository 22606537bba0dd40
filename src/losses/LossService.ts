// Loss calculation for the HTTP interface: applies the defaults of docs/spec/decisions.md §1.5, checks what
// the schema cannot (finite results, consistent detailed-request variants), and reads a stored
// simulation's waveforms for the detailed calculation.
import { validationError } from '../http/errors.js';
import type { StoredResult } from '../jobs/types.js';
import { windowOf } from '../analysis/signal-source.js';
import { conductionLoss, switchingLosses, type SwitchingLosses } from './formulas.js';
import type { ConductionLossRequest, DetailedLossRequest, SwitchingLossRequest } from './model.js';
import { WaveformError, waveformLosses, type DeviceWaveforms, type WaveformLosses } from './waveform-losses.js';
import type { DeviceLossSummary } from '../engine/types.js';

const DEFAULT_REFERENCE_TEMPERATURE = 25;

const invalid = (field: string, message: string): Error => validationError(`${field}: ${message}`, [{ field, message }]);

function requireFinite(value: number, field: string, what: string): number {
  if (!Number.isFinite(value)) throw invalid(field, `gives a non-finite ${what}; check the exponents and reference values`);
  return value;
}

/**
 * The temperature factor 1 + tc·(T − Tref), checked: a factor beyond the double range (tc = 1e308)
 * is the temperature coefficient's fault, a negative one too.
 */
function temperatureFactor(tc: number, temperature: number, referenceTemperature: number, what: string): void {
  const factor = 1 + tc * (temperature - referenceTemperature);
  if (!Number.isFinite(factor)) throw invalid('temperatureCoefficient', `gives ${what} 1 + tc·(T − Tref) beyond the range of a double; use a smaller coefficient`);
  if (factor < 0) throw invalid('temperatureCoefficient', `makes ${what} 1 + tc·(T − Tref) negative`);
}

/** The field of a switching-loss request whose term of E·(V/Vref)^kv·(I/Iref)^ki·f overflows first. */
function switchingOverflowField(body: SwitchingLossRequest): string {
  if (!Number.isFinite((body.voltage / body.referenceVoltage) ** (body.voltageExponent ?? 1))) return body.voltageExponent === undefined ? 'voltage' : 'voltageExponent';
  if (!Number.isFinite((body.current / body.referenceCurrent) ** (body.currentExponent ?? 1))) return body.currentExponent === undefined ? 'current' : 'currentExponent';
  return 'frequency';
}

/** Reference values are divisors: they must be positive (the schema's minimum allows 0). */
function requirePositiveReferences(body: { referenceVoltage: number; referenceCurrent: number }): void {
  for (const field of ['referenceVoltage', 'referenceCurrent'] as const) {
    if (!(body[field] > 0)) throw invalid(field, `must be greater than 0, got ${body[field]}`);
  }
}

const REFERENCE_FIELDS = ['referenceVoltage', 'referenceCurrent', 'e_on_ref', 'e_off_ref'] as const;
type References = Required<Pick<DetailedLossRequest, (typeof REFERENCE_FIELDS)[number]>>;

/** The waveform forms need the reference energies (optional in the schema for the engine form). */
function requireReferences(body: DetailedLossRequest): References {
  for (const field of REFERENCE_FIELDS) {
    if (body[field] === undefined) throw invalid(field, 'is required with voltageSignal/currentSignal or direct waveforms');
  }
  const refs = body as References;
  requirePositiveReferences(refs);
  return refs;
}

/** The engine form: a simulationId and a device, nothing that names waveforms. */
function isEngineForm(body: DetailedLossRequest): boolean {
  return body.simulationId !== undefined && body.voltageSignal === undefined && body.currentSignal === undefined &&
    body.time === undefined && body.voltage === undefined && body.current === undefined;
}

export class LossService {
  constructor(private readonly readResult: (simulationId: string) => Promise<StoredResult>) {}

  switching(body: SwitchingLossRequest): SwitchingLosses {
    requirePositiveReferences(body);
    const referenceTemperature = body.referenceTemperature ?? DEFAULT_REFERENCE_TEMPERATURE;
    const tc = body.temperatureCoefficient ?? 0;
    const temperature = body.temperature ?? referenceTemperature;
    temperatureFactor(tc, temperature, referenceTemperature, 'the temperature factor');
    const losses = switchingLosses({
      voltage: body.voltage, current: body.current, frequency: body.frequency, temperature,
      referenceVoltage: body.referenceVoltage, referenceCurrent: body.referenceCurrent, referenceTemperature,
      eOnRef: body.e_on_ref, eOffRef: body.e_off_ref,
      voltageExponent: body.voltageExponent ?? 1, currentExponent: body.currentExponent ?? 1, temperatureCoefficient: tc,
    });
    requireFinite(losses.turnOnLoss + losses.turnOffLoss, switchingOverflowField(body), 'loss');
    return losses;
  }

  conduction(body: ConductionLossRequest): { loss: number; onStateVoltage: number } {
    const referenceTemperature = body.referenceTemperature ?? DEFAULT_REFERENCE_TEMPERATURE;
    const tc = body.temperatureCoefficient ?? 0;
    const temperature = body.temperature ?? referenceTemperature;
    temperatureFactor(tc, temperature, referenceTemperature, 'the on-resistance factor');
    const result = conductionLoss({
      thresholdVoltage: body.voltage, current: body.current, onResistance: body.onResistance ?? 0,
      dutyCycle: body.dutyCycle ?? 1, temperature, referenceTemperature, temperatureCoefficient: tc,
    });
    // Ron(T)·I² overflows through the on-resistance or the current.
    const ronOverflows = !Number.isFinite((body.onResistance ?? 0) * (1 + tc * (temperature - referenceTemperature)) * body.current);
    requireFinite(result.loss, ronOverflows && Math.abs(body.onResistance ?? 0) > Math.abs(body.current) ? 'onResistance' : 'current', 'loss');
    return result;
  }

  async detailed(body: DetailedLossRequest): Promise<WaveformLosses & { device: string }> {
    if (isEngineForm(body)) return this.engineLosses(body);
    const refs = requireReferences(body);
    const waveforms = await this.waveforms(body);
    try {
      const losses = waveformLosses(waveforms, {
        referenceVoltage: refs.referenceVoltage, referenceCurrent: refs.referenceCurrent,
        eOnRef: refs.e_on_ref, eOffRef: refs.e_off_ref, onStateVoltageThreshold: body.onStateVoltageThreshold,
      });
      return { device: body.device ?? 'device', ...losses };
    } catch (error) {
      if (error instanceof WaveformError) throw invalid(error.field, error.message);
      throw error;
    }
  }

  /** The device's losses as the engine computed them during the run (its measurement window). */
  private async engineLosses(body: DetailedLossRequest): Promise<DeviceLossSummary> {
    if (body.device === undefined) {
      throw invalid('device', 'is required with simulationId alone (or name voltageSignal and currentSignal)');
    }
    for (const field of [...REFERENCE_FIELDS, 'onStateVoltageThreshold', 'startTime', 'endTime'] as const) {
      if (body[field] !== undefined) {
        throw invalid(field, 'applies only with voltageSignal/currentSignal; with simulationId and device alone the engine\'s loss model and measurement window are used');
      }
    }
    const result = await this.readResult(body.simulationId ?? '');
    const losses = result.losses ?? [];
    const found = losses.find((l) => l.device === body.device);
    if (found) return found;
    const known = losses.map((l) => l.device).join(', ');
    throw invalid('device', known
      ? `the run computed no losses for ${body.device}; devices with losses: ${known}`
      : 'the run computed no device losses: the circuit needs a thermal network (PV elements) or LOSS blocks; or name voltageSignal, currentSignal and reference energies');
  }

  private async waveforms(body: DetailedLossRequest): Promise<DeviceWaveforms> {
    const direct = body.time !== undefined || body.voltage !== undefined || body.current !== undefined;
    if (direct === (body.simulationId !== undefined)) {
      throw invalid('simulationId', 'give either simulationId (with voltageSignal and currentSignal) or time, voltage and current');
    }
    if (direct) {
      for (const field of ['time', 'voltage', 'current'] as const) {
        if (body[field] === undefined) throw invalid(field, 'is required with direct waveforms');
      }
      for (const field of ['voltageSignal', 'currentSignal', 'startTime', 'endTime'] as const) {
        if (body[field] !== undefined) throw invalid(field, 'applies only with simulationId');
      }
      return { time: body.time ?? [], voltage: body.voltage ?? [], current: body.current ?? [] };
    }
    if (body.voltageSignal === undefined) throw invalid('voltageSignal', 'is required with simulationId (the scope channel recording the device voltage)');
    if (body.currentSignal === undefined) throw invalid('currentSignal', 'is required with simulationId (the scope channel recording the device current)');
    const result = await this.readResult(body.simulationId ?? '');
    const pick = (name: string, field: string): Float64Array => {
      if (!result.signals[name]) throw invalid(field, `no recorded signal ${name}; recorded: ${Object.keys(result.signals).join(', ') || 'none'}`);
      return windowOf(result, name, body.startTime, body.endTime).data;
    };
    const voltage = pick(body.voltageSignal, 'voltageSignal');
    const current = pick(body.currentSignal, 'currentSignal');
    const from = body.startTime ?? result.time[0];
    const to = body.endTime ?? result.time[result.time.length - 1];
    const time = result.time.filter((t) => t >= from && t <= to);
    return { time, voltage, current };
  }
}

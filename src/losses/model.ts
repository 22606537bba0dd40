// Request and response shapes of the loss endpoints (docs/spec/decisions.md §1.5; OpenAPI through tsoa).

/**
 * Switching loss of one device from reference switching energies (datasheet values), scaled to
 * the operating point.
 * @example { "voltage": 400, "current": 50, "frequency": 20000, "temperature": 125, "referenceVoltage": 600, "referenceCurrent": 100, "referenceFrequency": 20000, "referenceTemperature": 25, "e_on_ref": 0.004, "e_off_ref": 0.003 }
 */
export interface SwitchingLossRequest {
  /** Blocking voltage at switching [V]. @minimum 0 */
  voltage: number;
  /** Switched current [A]. @minimum 0 */
  current: number;
  /** Switching frequency [Hz]. @minimum 0 */
  frequency: number;
  /** Junction temperature [°C]; default referenceTemperature. */
  temperature?: number;
  /** Voltage of the reference energies [V]. @minimum 0 (must be greater than 0) */
  referenceVoltage: number;
  /** Current of the reference energies [A]. @minimum 0 (must be greater than 0) */
  referenceCurrent: number;
  /** Frequency of the datasheet measurement [Hz]; informational (the energies are per event). */
  referenceFrequency?: number;
  /** Temperature of the reference energies [°C]; default 25. */
  referenceTemperature?: number;
  /** Turn-on energy at the reference point [J]. @minimum 0 */
  e_on_ref: number;
  /** Turn-off energy at the reference point [J]. @minimum 0 */
  e_off_ref: number;
  /** kv in (V/Vref)^kv; default 1. */
  voltageExponent?: number;
  /** ki in (I/Iref)^ki; default 1. */
  currentExponent?: number;
  /** tc in (1 + tc·(T − Tref)) [1/K]; default 0. */
  temperatureCoefficient?: number;
}

export interface SwitchingLossResponse {
  /** Turn-on plus turn-off loss [W]. */
  switchingLoss: number;
  /** [W] */
  turnOnLoss: number;
  /** [W] */
  turnOffLoss: number;
  /** Turn-on plus turn-off energy of one switching cycle at the operating point [J]. */
  energyPerCycle: number;
}

/**
 * Conduction loss of a device modelled as threshold voltage plus on-resistance.
 * @example { "voltage": 1.2, "current": 30, "onResistance": 0.01, "dutyCycle": 0.5, "temperature": 100, "temperatureCoefficient": 0.004 }
 */
export interface ConductionLossRequest {
  /** On-state threshold voltage V0 [V]. @minimum 0 */
  voltage: number;
  /** Conducted current [A]. @minimum 0 */
  current: number;
  /** Junction temperature [°C]; default referenceTemperature. */
  temperature?: number;
  /** On-resistance at referenceTemperature [Ω]; default 0. @minimum 0 */
  onResistance?: number;
  /** Fraction of the time the device conducts; default 1. @minimum 0 @maximum 1 */
  dutyCycle?: number;
  /** Ron(T) = Ron·(1 + tc·(T − Tref)) [1/K]; default 0. */
  temperatureCoefficient?: number;
  /** Temperature at which onResistance is given [°C]; default 25. */
  referenceTemperature?: number;
}

export interface ConductionLossResponse {
  /** dutyCycle · (V0·I + Ron(T)·I²) [W]. */
  conductionLoss: number;
  /** V0 + Ron(T)·I [V]. */
  onStateVoltage: number;
}

/**
 * Losses of one device. Three forms: a completed simulation and a device name only (`simulationId`,
 * `device`): the loss model the engine ran for that device (simple kOn/kOff or measured curves,
 * with the junction temperature when a thermal network is coupled); a completed simulation with
 * the scope channels that recorded the device's voltage and current (`voltageSignal`,
 * `currentSignal`) and reference energies; or the waveforms themselves (`time`, `voltage`,
 * `current`) and reference energies.
 * @example { "simulationId": "3d2f8a61-5c4b-4e0f-8a7d-9b1c2e3f4a5b", "device": "S.1", "voltageSignal": "SCOPE.2.ch1", "currentSignal": "SCOPE.2.ch2", "referenceVoltage": 600, "referenceCurrent": 100, "e_on_ref": 0.004, "e_off_ref": 0.003 }
 */
export interface DetailedLossRequest {
  /** A completed simulation of this service. */
  simulationId?: string;
  /** Device name for the response (e.g. `S.1`); default `device`. */
  device?: string;
  /** Recorded signal with the device voltage (first terminal minus second), e.g. `SCOPE.2.ch1`. */
  voltageSignal?: string;
  /** Recorded signal with the device current (first to second terminal), e.g. `SCOPE.2.ch2`. */
  currentSignal?: string;
  /** Start of the evaluation window [s]; default the first sample. */
  startTime?: number;
  /** End of the evaluation window [s]; default the last sample. */
  endTime?: number;
  /** Sample times [s], increasing (direct waveforms). */
  time?: number[];
  /** Device voltage per sample [V] (direct waveforms). */
  voltage?: number[];
  /** Device current per sample [A] (direct waveforms). */
  current?: number[];
  /** Voltage of the reference energies [V] (waveform forms). @minimum 0 (must be greater than 0) */
  referenceVoltage?: number;
  /** Current of the reference energies [A] (waveform forms). @minimum 0 (must be greater than 0) */
  referenceCurrent?: number;
  /** Turn-on energy at the reference point [J] (waveform forms). @minimum 0 */
  e_on_ref?: number;
  /** Turn-off energy at the reference point [J] (waveform forms). @minimum 0 */
  e_off_ref?: number;
  /** The device counts as on while |v| ≤ this [V]; default 10 % of max |v| in the window. @minimum 0 */
  onStateVoltageThreshold?: number;
}

export interface DetailedLossResponse {
  device: string;
  /** Mean of v·i over the on-state intervals, per second of the window [W]. */
  conductionLoss: number;
  /** Scaled reference energies of every turn-on and turn-off, per second of the window [W]. */
  switchingLoss: number;
  /** conductionLoss + switchingLoss [W]. */
  totalLoss: number;
  /** Turn-on plus turn-off events in the window. */
  switchingEvents: number;
  /** Time average of the current [A]. */
  averageCurrent: number;
  /** Time rms of the current [A]. */
  rmsCurrent: number;
  /** Mean junction temperature over the window [°C] (engine form, device coupled to a thermal network). */
  junctionTemperature?: number;
  /** Highest junction temperature in the window [°C] (engine form, thermal network). */
  maxJunctionTemperature?: number;
}

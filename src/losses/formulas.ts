// Loss formulas of docs/spec/decisions.md §1.5, as pure functions (units: V, A, Hz, J, W, °C).

export interface SwitchingInput {
  voltage: number;
  current: number;
  frequency: number;
  temperature: number;
  referenceVoltage: number;
  referenceCurrent: number;
  referenceTemperature: number;
  eOnRef: number;
  eOffRef: number;
  voltageExponent: number;
  currentExponent: number;
  temperatureCoefficient: number;
}

export interface SwitchingLosses {
  turnOnEnergy: number;
  turnOffEnergy: number;
  turnOnLoss: number;
  turnOffLoss: number;
}

/** Factor that scales a reference energy to the operating point. */
export function energyScale(s: Omit<SwitchingInput, 'frequency' | 'eOnRef' | 'eOffRef'>): number {
  return (
    (s.voltage / s.referenceVoltage) ** s.voltageExponent *
    (s.current / s.referenceCurrent) ** s.currentExponent *
    (1 + s.temperatureCoefficient * (s.temperature - s.referenceTemperature))
  );
}

/** Psw = (Eon + Eoff)·f·(V/Vref)^kv·(I/Iref)^ki·(1 + tc·(T − Tref)), split into turn-on and turn-off. */
export function switchingLosses(s: SwitchingInput): SwitchingLosses {
  const scale = energyScale(s);
  const turnOnEnergy = s.eOnRef * scale;
  const turnOffEnergy = s.eOffRef * scale;
  return { turnOnEnergy, turnOffEnergy, turnOnLoss: turnOnEnergy * s.frequency, turnOffLoss: turnOffEnergy * s.frequency };
}

export interface ConductionInput {
  thresholdVoltage: number;
  current: number;
  onResistance: number;
  dutyCycle: number;
  temperature: number;
  referenceTemperature: number;
  temperatureCoefficient: number;
}

/** Pcond = D·(V0·I + Ron(T)·I²) with Ron(T) = Ron·(1 + tc·(T − Tref)); also V0 + Ron(T)·I. */
export function conductionLoss(c: ConductionInput): { loss: number; onStateVoltage: number } {
  const ron = c.onResistance * (1 + c.temperatureCoefficient * (c.temperature - c.referenceTemperature));
  return { loss: c.dutyCycle * (c.thresholdVoltage * c.current + ron * c.current ** 2), onStateVoltage: c.thresholdVoltage + ron * c.current };
}

// Response shapes of the loss endpoints.
import type { SwitchingLosses } from './formulas.js';
import type { ConductionLossResponse, DetailedLossResponse, SwitchingLossResponse } from './model.js';
import type { WaveformLosses } from './waveform-losses.js';

export function presentSwitching(l: SwitchingLosses): SwitchingLossResponse {
  return {
    switchingLoss: l.turnOnLoss + l.turnOffLoss,
    turnOnLoss: l.turnOnLoss,
    turnOffLoss: l.turnOffLoss,
    energyPerCycle: l.turnOnEnergy + l.turnOffEnergy,
  };
}

export function presentConduction(c: { loss: number; onStateVoltage: number }): ConductionLossResponse {
  return { conductionLoss: c.loss, onStateVoltage: c.onStateVoltage };
}

export function presentDetailed(d: WaveformLosses & { device: string; junctionTemperature?: number; maxJunctionTemperature?: number }): DetailedLossResponse {
  return {
    device: d.device, conductionLoss: d.conductionLoss, switchingLoss: d.switchingLoss, totalLoss: d.totalLoss,
    switchingEvents: d.switchingEvents, averageCurrent: d.averageCurrent, rmsCurrent: d.rmsCurrent,
    ...(d.junctionTemperature !== undefined ? { junctionTemperature: d.junctionTemperature, maxJunctionTemperature: d.maxJunctionTemperature } : {}),
  };
}

// Device losses from sampled voltage and current waveforms (the "detailed" loss calculation):
//  - on state: |v| ≤ onStateVoltageThreshold (default 10 % of max |v| in the window);
//  - conduction: ∫ v·i dt over intervals whose both ends are on (trapezoid), divided by the window;
//  - switching: each off→on change is a turn-on with energy e_on_ref·(V/Vref)·(I/Iref), V the
//    blocking voltage before and I the current after it; each on→off change a turn-off with
//    e_off_ref·(V/Vref)·(I/Iref), V after and I before; the sum divided by the window;
//  - average and rms current: trapezoidal time averages.

import type { DeviceLossSummary } from '../engine/types.js';
import { energyScale } from './formulas.js';
import { PesimError } from '../errors/pesim-error.js';

export interface DeviceWaveforms {
  time: ArrayLike<number>;
  voltage: ArrayLike<number>;
  current: ArrayLike<number>;
}

export interface ReferenceEnergies {
  referenceVoltage: number;
  referenceCurrent: number;
  eOnRef: number;
  eOffRef: number;
  onStateVoltageThreshold?: number;
}

/** The quantities the engine's loss model reports per device, here from sampled waveforms. */
export type WaveformLosses = Omit<DeviceLossSummary, 'device' | 'junctionTemperature' | 'maxJunctionTemperature'>;

/** Why the waveforms cannot be evaluated, with the field at fault. */
export class WaveformError extends PesimError {
  declare readonly field: string;

  constructor(field: string, message: string) {
    super('WAVEFORM_INVALID', message, { field });
  }
}

function check(w: DeviceWaveforms): void {
  const n = w.time.length;
  if (n < 2) throw new WaveformError('time', `needs at least 2 samples, got ${n}`);
  if (w.voltage.length !== n) throw new WaveformError('voltage', `has ${w.voltage.length} samples, time has ${n}`);
  if (w.current.length !== n) throw new WaveformError('current', `has ${w.current.length} samples, time has ${n}`);
  for (let j = 0; j < n; j++) {
    for (const [field, values] of [['time', w.time], ['voltage', w.voltage], ['current', w.current]] as const) {
      if (!Number.isFinite(values[j])) throw new WaveformError(`${field}[${j}]`, `is not a finite number`);
    }
    if (j > 0 && !(w.time[j] > w.time[j - 1])) throw new WaveformError(`time[${j}]`, `must be greater than time[${j - 1}] (${w.time[j - 1]})`);
  }
}

export function waveformLosses(w: DeviceWaveforms, ref: ReferenceEnergies): WaveformLosses {
  check(w);
  const n = w.time.length;
  const duration = w.time[n - 1] - w.time[0];
  let peak = 0;
  for (let j = 0; j < n; j++) peak = Math.max(peak, Math.abs(w.voltage[j]));
  const threshold = ref.onStateVoltageThreshold ?? 0.1 * peak;
  const on = (j: number): boolean => Math.abs(w.voltage[j]) <= threshold;
  // The switching endpoint's scaling (formulas.ts) with kv = ki = 1 and no temperature term.
  const scale = (v: number, i: number): number => energyScale({
    voltage: Math.abs(v), current: Math.abs(i), temperature: 0, referenceVoltage: ref.referenceVoltage, referenceCurrent: ref.referenceCurrent,
    referenceTemperature: 0, voltageExponent: 1, currentExponent: 1, temperatureCoefficient: 0,
  });

  let conductionEnergy = 0;
  let switchingEnergy = 0;
  let events = 0;
  let charge = 0;
  let squares = 0;
  for (let j = 1; j < n; j++) {
    const dt = w.time[j] - w.time[j - 1];
    const i0 = w.current[j - 1];
    const i1 = w.current[j];
    charge += 0.5 * (i0 + i1) * dt;
    squares += 0.5 * (i0 * i0 + i1 * i1) * dt;
    const wasOn = on(j - 1);
    const isOn = on(j);
    if (wasOn && isOn) conductionEnergy += 0.5 * (w.voltage[j - 1] * i0 + w.voltage[j] * i1) * dt;
    if (!wasOn && isOn) {
      switchingEnergy += ref.eOnRef * scale(w.voltage[j - 1], i1);
      events++;
    } else if (wasOn && !isOn) {
      switchingEnergy += ref.eOffRef * scale(w.voltage[j], i0);
      events++;
    }
  }
  const conductionLoss = conductionEnergy / duration;
  const switchingLoss = switchingEnergy / duration;
  return {
    conductionLoss,
    switchingLoss,
    totalLoss: conductionLoss + switchingLoss,
    switchingEvents: events,
    averageCurrent: charge / duration,
    rmsCurrent: Math.sqrt(Math.max(0, squares / duration)),
  };
}

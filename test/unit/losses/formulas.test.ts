// Loss formulas (docs/spec/decisions.md §1.5) and the waveform-based device losses, against hand-computed values.
import { expect } from 'chai';
import { conductionLoss, switchingLosses } from '../../../src/losses/formulas.js';
import { waveformLosses, WaveformError } from '../../../src/losses/waveform-losses.js';
import { LossService } from '../../../src/losses/LossService.js';
import { AppError } from '../../../src/http/errors.js';

const base = {
  voltage: 400, current: 50, frequency: 20_000, temperature: 25, referenceVoltage: 600, referenceCurrent: 100,
  referenceTemperature: 25, eOnRef: 0.004, eOffRef: 0.003, voltageExponent: 1, currentExponent: 1, temperatureCoefficient: 0,
};

describe('losses: formulas', () => {
  it('switching: (Eon + Eoff)·f·(V/Vref)·(I/Iref) with the default exponents', () => {
    // scale = (400/600)·(50/100) = 1/3: Eon = 1.3333 mJ → 26.667 W, Eoff = 1 mJ → 20 W.
    const l = switchingLosses(base);
    expect(l.turnOnLoss).to.be.closeTo(26.666666666666668, 1e-12);
    expect(l.turnOffLoss).to.be.closeTo(20, 1e-12);
    expect(l.turnOnEnergy + l.turnOffEnergy).to.be.closeTo(0.007 / 3, 1e-15);
  });

  it('switching: exponents and the temperature coefficient', () => {
    // (2/3)^1.3 = 0.590310, (1/2)^0.6 = 0.659754, 1 + 0.005·(125 − 25) = 1.5 → scale 0.584191.
    const l = switchingLosses({ ...base, temperature: 125, voltageExponent: 1.3, currentExponent: 0.6, temperatureCoefficient: 0.005 });
    const scale = (2 / 3) ** 1.3 * 0.5 ** 0.6 * 1.5;
    expect(scale).to.be.closeTo(0.584191, 1e-6);
    expect(l.turnOnLoss + l.turnOffLoss).to.be.closeTo(0.007 * 20_000 * scale, 1e-9);
    expect(l.turnOnLoss + l.turnOffLoss).to.be.closeTo(81.787, 1e-3);
  });

  it('conduction: D·(V0·I + Ron(T)·I²)', () => {
    // Ron(100 °C) = 0.01·(1 + 0.004·75) = 0.013 Ω; 0.5·(1.2·30 + 0.013·900) = 23.85 W; 1.2 + 0.39 V.
    const c = conductionLoss({ thresholdVoltage: 1.2, current: 30, onResistance: 0.01, dutyCycle: 0.5, temperature: 100, referenceTemperature: 25, temperatureCoefficient: 0.004 });
    expect(c.loss).to.be.closeTo(23.85, 1e-12);
    expect(c.onStateVoltage).to.be.closeTo(1.59, 1e-12);
    expect(conductionLoss({ thresholdVoltage: 0.7, current: 10, onResistance: 0, dutyCycle: 1, temperature: 25, referenceTemperature: 25, temperatureCoefficient: 0 }).loss).to.equal(7);
  });

  it('service defaults: temperature = reference, tc = 0, Ron = 0, D = 1; bad temperature factor is a 400', () => {
    const service = new LossService(() => Promise.reject(new Error('unused')));
    const s = service.switching({ voltage: 300, current: 100, frequency: 10_000, referenceVoltage: 600, referenceCurrent: 100, e_on_ref: 0.002, e_off_ref: 0.002 });
    expect(s.turnOnLoss + s.turnOffLoss).to.be.closeTo(20, 1e-12); // 0.004 J · 0.5 · 10 kHz
    expect(service.conduction({ voltage: 1, current: 20 }).loss).to.equal(20);
    let error: unknown;
    try {
      service.conduction({ voltage: 1, current: 20, onResistance: 0.1, temperature: -500, temperatureCoefficient: 0.004 });
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(AppError);
    expect((error as AppError).details?.[0].field).to.equal('temperatureCoefficient');
  });
});

describe('losses: waveforms', () => {
  // Ideal switch, period 10 µs, on for the first half: on v = 1 V, i = 10 A; off v = 400 V, i = 0.
  // Samples every 1 µs over two periods (t = 0..20 µs).
  const time = Array.from({ length: 21 }, (_, j) => j * 1e-6);
  const on = (j: number): boolean => j % 10 < 5;
  const voltage = time.map((_, j) => (on(j) ? 1 : 400));
  const current = time.map((_, j) => (on(j) ? 10 : 0));
  const ref = { referenceVoltage: 400, referenceCurrent: 10, eOnRef: 1e-4, eOffRef: 2e-4 };

  it('counts turn-on and turn-off events and scales the reference energies', () => {
    const l = waveformLosses({ time, voltage, current }, ref);
    // On intervals with both ends on: j = 0..4 and 10..14 → 8 intervals of 1 µs at 10 W = 80 µJ.
    expect(l.conductionLoss).to.be.closeTo(80e-6 / 20e-6, 1e-9);
    // Events: off (j=4→5), on (9→10), off (14→15), on (19→20): 2·1e-4 + 2·2e-4 = 6e-4 J over 20 µs.
    expect(l.switchingEvents).to.equal(4);
    expect(l.switchingLoss).to.be.closeTo(6e-4 / 20e-6, 1e-6);
    expect(l.totalLoss).to.be.closeTo(4 + 30, 1e-6);
    // ∫ i dt: 8 full intervals at 10 A + 3 ramps (4→5, 9→10, 14→15, 19→20 → 4 half-intervals) = 80 + 20 µC.
    expect(l.averageCurrent).to.be.closeTo(100e-6 / 20e-6, 1e-9);
    expect(l.rmsCurrent).to.be.closeTo(Math.sqrt((800e-6 + 4 * 50e-6) / 20e-6), 1e-9);
  });

  it('rejects inconsistent waveforms naming the field', () => {
    const bad = (w: { time: number[]; voltage: number[]; current: number[] }): string => {
      try {
        waveformLosses(w, ref);
      } catch (error) {
        expect(error).to.be.instanceOf(WaveformError);
        return (error as WaveformError).field;
      }
      return 'none';
    };
    expect(bad({ time: [0], voltage: [0], current: [0] })).to.equal('time');
    expect(bad({ time: [0, 1], voltage: [0], current: [0, 1] })).to.equal('voltage');
    expect(bad({ time: [0, 1], voltage: [0, 1], current: [0, Number.NaN] })).to.equal('current[1]');
    expect(bad({ time: [0, 0], voltage: [0, 1], current: [0, 1] })).to.equal('time[1]');
  });
});

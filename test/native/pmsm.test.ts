// Permanent-magnet synchronous machine (PMSM, GeckoCIRCUITS MotorPMSM) against closed forms: the
// no-load back-EMF at constant speed and the speed ramp under a known torque.
import { expect } from 'chai';
import { simulateSync, type Netlist } from '../../src/index.js';
import type { NetlistElement } from '../../src/formats/netlist.js';
import { scope, volt } from '../fixtures/circuits.js';

const PSI = 0.1, P = 2;

/** Stator terminals a, b, c tied to ground through 1 MΩ each (open circuit in practice). */
function openTerminals(): NetlistElement[] {
  return ['a', 'b', 'c'].map((n) => ({ name: `R${n}`, type: 'R' as const, nodes: [n, '0'], params: { R: 1e6 } }));
}

describe('PMSM', () => {
  it('open terminals at constant speed: line voltage amplitude √3·ψ·p·ω_m', () => {
    const omega = 100;
    const period = (2 * Math.PI) / (P * omega);
    const n: Netlist = {
      settings: { tEnd: 0.1, dt: 1e-5, measureFrom: 0.1 - 2 * period },
      elements: [
        { name: 'PMSM.1', type: 'PMSM', nodes: ['a', 'b', 'c'],
          params: { psi: PSI, polePairs: P, Rs: 0.5, Ld: 2e-3, Lq: 2e-3, J: 1e6, friction: 0, omega0: omega } },
        ...openTerminals(),
      ],
      blocks: [volt('VOLT.1', 'uab', 'a', 'b'), scope('SCOPE.1', ['uab'])],
    };
    const r = simulateSync(n);
    const amplitude = Math.sqrt(3) * PSI * P * omega;
    expect(r.measurements['SCOPE.1.ch1_max']).to.be.closeTo(amplitude, 1e-3 * amplitude);
    expect(r.measurements['SCOPE.1.ch1_rms']).to.be.closeTo(amplitude / Math.SQRT2, 1e-2 * amplitude);
  });

  it('accelerates from rest at T/J under a driving load torque (back-EMF grows with the speed)', () => {
    // Load torque −0.1 N·m drives the shaft: ω_m(t) = 0.1/J·t = 10 rad/s² · t.
    const j = 0.01, torque = 0.1, tEnd = 2;
    const n: Netlist = {
      settings: { tEnd, dt: 1e-4, measureFrom: 1.6 },
      elements: [
        { name: 'PMSM.1', type: 'PMSM', nodes: ['a', 'b', 'c'],
          params: { psi: PSI, polePairs: P, Rs: 0.5, Ld: 2e-3, Lq: 2e-3, J: j, friction: 0, loadTorque: -torque } },
        ...openTerminals(),
      ],
      blocks: [volt('VOLT.1', 'uab', 'a', 'b'), scope('SCOPE.1', ['uab'])],
    };
    const r = simulateSync(n);
    // The window spans more than two electric periods; its largest peak lies within one period of tEnd.
    const atEnd = Math.sqrt(3) * PSI * P * (torque / j) * tEnd;
    const period = (2 * Math.PI) / (P * (torque / j) * tEnd);
    const lowest = Math.sqrt(3) * PSI * P * (torque / j) * (tEnd - period);
    expect(r.measurements['SCOPE.1.ch1_max']).to.be.within(lowest, atEnd);
  });
});

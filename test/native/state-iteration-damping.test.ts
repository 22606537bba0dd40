// The damping of a step whose device states keep changing (docs/engine.md, "Switches"): as
// GeckoCIRCUITS does (SimulationsKern.doDiodeErrorsRecalculations), the forward thresholds shrink
// from the fourth re-solve on until the devices agree. The circuit is a phase-shifted full bridge
// feeding a current doubler through a tightly coupled (k = 1) transformer whose secondary shares
// the bridge's node: at some commutations no two-state assignment of the rectifier diodes and the
// bridge is consistent with vf = 1.2 V (the states cycle, contradicting their devices by about
// 0.3 V), so an undamped iteration never settles.
import { expect } from 'chai';
import { simulateSync, type Netlist } from '../../src/index.js';
import { amp, scope } from '../fixtures/circuits.js';

const igbt = { vf: 0.06, ron: 0.4, roff: 1e7, vfOff: 1 };
const diode = { vf: 0.6, ron: 0.01, roff: 1e7, vfOff: 1 };
const rectifier = { vf: 1.2, ron: 0.002, roff: 1e7, vfOff: 1 };

function currentDoubler(maxSwitchIterations?: number): Netlist {
  const gate = (name: string, output: string, phase: number) =>
    ({ name, type: 'SIGNAL', outputs: [output], params: { waveform: 'rectangle', amplitude: 1, frequency: 50e3, phase, duty: 0.5 } });
  return {
    settings: { tEnd: 1e-3, dt: 3e-8, solver: 'backward-euler', timing: 'gecko', ...(maxSwitchIterations ? { maxSwitchIterations } : {}) },
    elements: [
      { name: 'U.dc', type: 'V', nodes: ['p', '0'], params: { waveform: 'dc', value: 400 } },
      { name: 'S.ah', type: 'IGBT', nodes: ['p', 'a'], params: igbt },
      { name: 'S.bh', type: 'IGBT', nodes: ['p', 'b'], params: igbt },
      { name: 'S.al', type: 'IGBT', nodes: ['a', '0'], params: igbt },
      { name: 'S.bl', type: 'IGBT', nodes: ['b', '0'], params: igbt },
      { name: 'D.ah', type: 'D', nodes: ['a', 'p'], params: diode },
      { name: 'D.bh', type: 'D', nodes: ['b', 'p'], params: diode },
      { name: 'D.al', type: 'D', nodes: ['0', 'a'], params: diode },
      { name: 'D.bl', type: 'D', nodes: ['0', 'b'], params: diode },
      { name: 'R.p', type: 'R', nodes: ['m', 'b'], params: { R: 0.15 } },
      { name: 'L.p', type: 'L', nodes: ['a', 'm'], params: { L: 1e-3, i0: 0 } },
      { name: 'L.s', type: 'L', nodes: ['a', 's'], params: { L: 97.4e-6, i0: 7 } },
      { name: 'K.1', type: 'K', nodes: [], params: { k: 1, inductors: ['L.p', 'L.s'] } },
      { name: 'D.1', type: 'D', nodes: ['s', 'o'], params: rectifier },
      { name: 'D.2', type: 'D', nodes: ['a', 'o'], params: rectifier },
      { name: 'U.bat', type: 'V', nodes: ['o', 'n'], params: { waveform: 'dc', value: 48 } },
      { name: 'L.1', type: 'L', nodes: ['n', 's'], params: { L: 46.08e-6, i0: 20 } },
      { name: 'L.2', type: 'L', nodes: ['n', 'a'], params: { L: 46.08e-6, i0: 7 } },
    ],
    blocks: [
      gate('G.a', 'ga', 0),
      gate('G.b', 'gb', -144),
      { name: 'NOT.a', type: 'NOT', inputs: ['ga'], outputs: ['gan'] },
      { name: 'NOT.b', type: 'NOT', inputs: ['gb'], outputs: ['gbn'] },
      { name: 'GATE.ah', type: 'GATE', inputs: ['ga'], params: { target: 'S.ah' } },
      { name: 'GATE.bh', type: 'GATE', inputs: ['gb'], params: { target: 'S.bh' } },
      { name: 'GATE.al', type: 'GATE', inputs: ['gan'], params: { target: 'S.al' } },
      { name: 'GATE.bl', type: 'GATE', inputs: ['gbn'], params: { target: 'S.bl' } },
      amp('AMP.1', 'i1', 'L.1'),
      scope('SCOPE.1', ['i1']),
    ],
  } as Netlist;
}

describe('state iteration damping', () => {
  it('needs it: five re-solves end in a cycle that contradicts its devices by about 0.3 V', () => {
    expect(() => simulateSync(currentDoubler(5))).to.throw(/did not settle within 5 iterations at t = 0\.00066936 s .*the states cycle and the least inconsistent one contradicts its devices by 0\.28/);
  });

  it('settles the rectifier of a current doubler behind a k = 1 transformer', () => {
    const result = simulateSync(currentDoubler());
    expect(result.stats.steps).to.be.greaterThan(30000);
    const current = result.signals['SCOPE.1.ch1'];
    expect(Array.from(current).every(Number.isFinite)).to.equal(true);
  });
});

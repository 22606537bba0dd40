// Every GeckoCIRCUITS example file the engine supports, read and simulated to its own tDURATION,
// with its key outputs checked against the physics of the circuit (averages of ideal converters,
// power balance, the diode law, the bridge's peak). Measurements are the engine's, over the last
// 20 % of the run. Left out: thyristor_RL_single (rejected by the reader, fixtures.test.ts).
import { expect } from 'chai';
import { simulateSync, type SimulationResult } from '../../../../src/engine/index.js';
import type { Netlist } from '../../../../src/formats/netlist.js';
import { readIpes } from '../../../../src/formats/ipes/index.js';
import { fixture, geckoSteps } from './helpers.js';

interface Run {
  netlist: Netlist;
  result: SimulationResult;
  /** Measurement of the first scope channel saved under `label`. */
  m(label: string, kind: 'avg' | 'rms' | 'min' | 'max'): number;
}

function simulateFixture(name: string): Run {
  const { netlist } = readIpes(fixture(name), name);
  const result = simulateSync(netlist);
  const { tEnd, dt } = netlist.settings;
  // GeckoCIRCUITS' steps (helpers.ts): the last one within a step of tDURATION.
  expect(result.time[result.time.length - 1], `${name} reaches tDURATION`).to.be.within(tEnd - dt * (1 + 1e-6), tEnd + dt * 1e-6);
  if (!(netlist.settings.tPre! > 0)) expect(result.stats.steps).to.equal(geckoSteps(tEnd, dt));
  return {
    netlist,
    result,
    m: (label, kind) => {
      const channel = result.channels.find((c) => c.label === label);
      expect(channel, `${name}: scope channel ${label}`).to.not.equal(undefined);
      return result.measurements[`${channel!.key}_${kind}`];
    },
  };
}

describe('GeckoCIRCUITS example files simulated to their tDURATION', function () {
  this.timeout(60_000);

  it('buck_simple: Vout = D·Vin − (1 − D)·vf, and iL = Vout / R', () => {
    const run = simulateFixture('buck_simple.ipes');
    const expected = 0.4 * 48 - 0.6 * 0.6;
    expect(run.m('u2', 'avg')).to.be.closeTo(expected, 0.02 * expected);
    expect(run.m('iL', 'avg')).to.be.closeTo(run.m('u2', 'avg') / 10, 0.02 * run.m('iL', 'avg'));
    expect(run.m('u1', 'avg')).to.equal(48);
  });

  it('boost_simple: output above the input, below Vin/(1 − D), power in ≈ power out', () => {
    const run = simulateFixture('boost_simple.ipes');
    const ideal = 12 / (1 - 0.7);
    expect(run.m('u2', 'min')).to.be.above(12);
    expect(run.m('u2', 'avg')).to.be.within(0.8 * ideal, ideal);
    const pin = 12 * run.m('iL', 'avg');
    const pout = run.m('u2', 'rms') ** 2 / 10;
    expect(pout / pin).to.be.within(0.85, 1);
  });

  it('BuckBoost_const_dutyCycle: inverted output near −D/(1 − D)·Vin, power in ≈ power out', () => {
    const run = simulateFixture('BuckBoost_const_dutyCycle.ipes');
    const ideal = (-0.8 / 0.2) * 20;
    expect(run.m('uOUT', 'max')).to.be.below(0);
    expect(run.m('uOUT', 'avg')).to.be.within(ideal, 0.8 * ideal);
    const pin = 20 * Math.abs(run.m('iS', 'avg'));
    const pout = run.m('uOUT', 'rms') ** 2 / 10;
    expect(pout / pin).to.be.within(0.85, 1);
  });

  it('2phaseDiodeBridge_AC-Inductor: DC output near the 327 V peak; the conducting diode obeys vf + ron·i', () => {
    const run = simulateFixture('2phaseDiodeBridge_AC-Inductor.ipes');
    expect(run.m('u2', 'avg')).to.be.within(0.85 * 327, 327);
    expect(run.m('u2', 'min')).to.be.above(0);
    // D.2 conducts the (negative) inductor current in this window: v = vf + ron·|i|.
    const peakCurrent = Math.abs(run.m('iL1', 'min'));
    expect(run.m('uD2', 'max')).to.be.closeTo(0.6 + 0.01 * peakCurrent, 0.01);
    expect(run.m('u1', 'min')).to.be.closeTo(-327, 0.5);
  });

  it('diode_RL_singlePH_trafo: centre-tapped rectifier below the secondary peak, load current never reverses', () => {
    const run = simulateFixture('diode_RL_singlePH_trafo.ipes');
    // Half secondary (Lc.2 = 2 mH against Lc.1 = 5 mH): peak 327·√(2/5).
    const secondaryPeak = 327 * Math.sqrt(2 / 5);
    expect(run.m('uOUT', 'max')).to.be.below(secondaryPeak);
    expect(run.m('uOUT', 'avg')).to.be.within(0.5 * (2 / Math.PI) * secondaryPeak, (2 / Math.PI) * secondaryPeak);
    expect(run.m('uOUT', 'min')).to.be.at.least(-0.61 - 0.01 * run.m('iOUT', 'max'));
    expect(run.m('iOUT', 'min')).to.be.above(0);
    expect(run.m('iD1', 'min')).to.be.above(-1e-3);
    expect(run.m('iD2', 'min')).to.be.above(-1e-3);
  });

  it('singlePhase_PWM_converter: the bridge output swings to ±Udc (plus diode drops), load current flows', () => {
    const run = simulateFixture('singlePhase_PWM_converter.ipes');
    expect(run.m('uDC', 'avg')).to.be.closeTo(100, 1e-9);
    const bound = 100 + 2 * (0.6 + 0.01 * Math.max(run.m('i', 'max'), -run.m('i', 'min'))) + 1e-6;
    expect(run.m('uA', 'max')).to.be.within(95, bound);
    expect(run.m('uA', 'min')).to.be.within(-bound, -95);
    expect(run.m('i', 'rms')).to.be.above(0.5);
    expect(run.m('uH', 'max')).to.equal(1);
    expect(run.m('uH', 'min')).to.equal(-1);
  });

  it("ex_2: the two-switch forward converter's PI loop holds 60 V, and Vout ≈ D·(N2/N1)·Vin", () => {
    // 40 ms of pre-simulation (T_pre) and 1 ms recorded, both at 40 ns.
    const run = simulateFixture('ex_2.ipes');
    expect(run.result.stats.preSteps).to.equal(geckoSteps(0.04, 4e-8));
    // The set-point CONST.5 = 60 V: the PI loop has settled on it.
    expect(run.m('uOUT', 'avg')).to.be.closeTo(60, 0.005 * 60);
    // Forward converter: the secondary sees (N2/N1)·Vin while the switches conduct, turns ratio
    // √(Lc.2/Lc.1) of the coupled windings; the output averages D times that, less the rectifier
    // diode drop (vf = 0.6 V during D, the free-wheeling diode's the rest of the period).
    const ratio = Math.sqrt(0.0007 / 0.0054);
    const duty = run.m('d', 'avg');
    expect(duty).to.be.within(0.35, 0.5);
    const ideal = duty * ratio * 400 - 0.6;
    expect(run.m('uOUT', 'avg')).to.be.closeTo(ideal, 0.01 * ideal);
    // The secondary winding swings to ≈ +(N2/N1)·Vin (408 V peak of the input with its 8 V ripple).
    expect(run.m('uLs', 'max')).to.be.within(0.97 * ratio * 400, ratio * 408);
    // The L-C output filter passes the rectified average: ux averages uOUT, to the ripple of a window
    // that is not a whole number of switching periods (GeckoCIRCUITS' own run: 59.86 against 60.01 V).
    expect(run.m('ux', 'avg')).to.be.closeTo(run.m('uOUT', 'avg'), 0.005 * 60);
  });
});

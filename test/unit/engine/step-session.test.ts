// The Node API's StepSession: a run in pieces gives simulate()'s result, result() reads the run so
// far, rebuild() continues with other parameter values, engine failures are EngineErrors, and the
// session refuses calls once finished.
import { expect } from 'chai';
import { EngineError, simulate, StepSession } from '../../../src/engine/index.js';
import type { Netlist } from '../../../src/formats/netlist.js';
import { buck } from '../../fixtures/circuits.js';

describe('engine: StepSession', function () {
  this.timeout(60000);
  const netlist: Netlist = buck({ tEnd: 2e-4, dt: 1e-7 });

  it('runs in pieces to simulate()\'s samples and measurements, and reads the run so far', async () => {
    const whole = await simulate(netlist);
    const session = new StepSession(netlist);
    expect(session.totalSteps).to.equal(2000);
    expect(session.step(700)).to.equal(700);
    const part = session.result();
    expect(part.time.length).to.equal(701);
    expect(part.signals['SCOPE.1.ch2']).to.deep.equal(whole.signals['SCOPE.1.ch2'].subarray(0, 701));
    expect(session.time).to.equal(part.time[700]);
    while (session.step(300) > 0);
    expect(session.stepsDone).to.equal(2000);
    const stepped = session.finish();
    expect(stepped.time).to.deep.equal(whole.time);
    expect(stepped.signals).to.deep.equal(whole.signals);
    expect(stepped.measurements).to.deep.equal(whole.measurements);
    expect(session.ended).to.equal(true);
    expect(() => session.step(1)).to.throw('the step-wise run has ended');
  });

  it('continues with other parameter values after rebuild(); refuses another structure and bad settings', () => {
    const session = new StepSession(netlist);
    session.step(1000);
    const lighter = structuredClone(netlist);
    lighter.elements.find((e) => e.name === 'R.1')!.params!.R = 50;
    session.rebuild(lighter);
    session.step(1000);
    const changed = session.finish().signals['SCOPE.1.ch2'];
    const same = new StepSession(netlist);
    same.step(2000);
    const unchanged = same.finish().signals['SCOPE.1.ch2'];
    expect(changed.subarray(0, 1001)).to.deep.equal(unchanged.subarray(0, 1001));
    expect(changed[2000]).to.not.equal(unchanged[2000]);

    const other = new StepSession(netlist);
    const smaller = structuredClone(netlist);
    smaller.blocks = smaller.blocks!.filter((b) => b.type !== 'SCOPE');
    expect(() => other.rebuild(smaller)).to.throw(EngineError, /the scopes changed during the step-wise run/);
    other.release();
    expect(() => new StepSession({ ...netlist, settings: { ...netlist.settings, dt: 1e-3 } })).to.throw(EngineError, /'dt' must not exceed 'tEnd'/);
  });
});

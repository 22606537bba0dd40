// GeckoSCRIPT's step-wise simulation over real circuits: stepping in pieces gives the uninterrupted
// run's samples bit for bit, the result functions read the run so far, a resistance set between
// steps acts from the next step (an RC charge against its backward-Euler recursion), simulateTime
// steps as GeckoCIRCUITS' SimulationsKern does, GeckoCIRCUITS' messages at the end and without
// initSimulation, continueSimulation, and errors with the script line.
import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Netlist } from '../../../src/formats/netlist.js';
import { buck } from '../../fixtures/circuits.js';
import { BUCK_IPES, runScript, scriptError } from './run-script.js';

const dir = mkdtempSync(join(tmpdir(), 'pesim-stepping-'));

function write(name: string, netlist: Netlist): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(netlist));
  return file;
}

/** 1 V through R into 1 µF (0 V at the start), backward Euler, dt 1 µs, 1000 steps; SCOPE.1 records v(C) as "v". */
function rc(): Netlist {
  return {
    name: 'rc',
    settings: { tEnd: 1e-3, dt: 1e-6, solver: 'backward-euler' },
    elements: [
      { name: 'V.1', type: 'V', nodes: ['in', '0'], params: { value: 1 } },
      { name: 'R.1', type: 'R', nodes: ['in', 'out'], params: { R: 1000 } },
      { name: 'C.1', type: 'C', nodes: ['out', '0'], params: { C: 1e-6 } },
    ],
    blocks: [
      { name: 'VOLT.1', type: 'VOLT', inputs: [], outputs: ['v'], params: { nodes: ['out', '0'] } },
      { name: 'SCOPE.1', type: 'SCOPE', inputs: ['v'] },
    ],
  };
}

describe('script: GeckoSCRIPT step-wise simulation', function () {
  this.timeout(120000);
  const buckFile = write('buck.json', buck({ tEnd: 1e-4, dt: 1e-7 }));
  const rcFile = write('rc.json', rc());

  it('steps 10 × 100 steps, 1000 single steps and runSimulation() to the same samples, bit for bit', async () => {
    const out = await runScript(`loadCircuit("${buckFile}");
      initSimulation();
      for (int i = 0; i < 10; i++) simulateSteps(100);
      endSimulation();
      float[] pieces = getSignalData("il", 0, 1, 0);
      double[] time = getTimeArray("il", 0, 1, 0);
      initSimulation();
      while (getSimulationTime() < 1e-4 - 1e-12) simulateStep();
      endSimulation();
      float[] single = getSignalData("il", 0, 1, 0);
      runSimulation();
      float[] whole = getSignalData("il", 0, 1, 0);
      print(pieces.length + " " + time[time.length - 1] + " " + java.util.Arrays.equals(pieces, whole) + " " + java.util.Arrays.equals(single, whole));
      print(java.util.Arrays.equals(time, getTimeArray("il", 0, 1, 0)) + " " + (getSignalAvg("vout", 0, 1e-4) == getSignalAvg("vout", 0, 1e-4)));`);
    expect(out.trim().split('\n')).to.deep.equal(['1001 9.999999999999999E-5 true true', 'true true']);
  });

  it('reads the run so far between steps: samples, statistics, getOutput, getSimulationTime', async () => {
    const out = await runScript(`loadCircuit("${buckFile}");
      runSimulation();
      float[] whole = getSignalData("vout", 0, 1, 0);
      double avg = getSignalAvg("vout", 0, 4e-5);
      initSimulation();
      simulateSteps(500);
      float[] part = getSignalData("vout", 0, 1, 0);
      boolean same = part.length == 501;
      for (int i = 0; i < part.length; i++) same = same && part[i] == whole[i];
      print(getSimulationTime() + " " + same + " " + (getSignalAvg("vout", 0, 4e-5) == avg) + " " + ((float) getOutput("VOLT.1") == part[500]));
      simulateSteps(10);
      print(getSignalData("vout", 0, 1, 0).length + " " + getSimulationTime());
      endSimulation();`);
    expect(out.trim().split('\n')).to.deep.equal(['4.9999999999999996E-5 true true true', '511 5.1E-5']);
  });

  it('takes a resistance set between steps from the next step on (backward-Euler recursion of the RC charge)', async () => {
    const out = await runScript(`loadCircuit("${rcFile}");
      initSimulation();
      simulateSteps(300);
      setParameter("R.1", "R", 250);
      simulateSteps(700);
      endSimulation();
      double[] t = getTimeArray("v", 0, 1, 0);
      for (double x : getSignalData("v", 0, 1, 0)) System.out.println(x);`);
    const v = out.trim().split('\n').map(Number);
    expect(v).to.have.length(1001);
    // C dv/dt = (1 − v)/R: v_n = (v_(n−1) + a)/(1 + a), a = dt/(RC) = 1e-3 up to step 300, then 4e-3
    let expected = 0;
    for (let n = 1; n <= 1000; n++) {
      const a = n <= 300 ? 1e-3 : 4e-3;
      expected = (expected + a) / (1 + a);
      expect(v[n], `step ${n}`).to.equal(Math.fround(expected));
    }
  });

  it('simulateTime(t) runs ⌊t/dt⌋ + 1 steps (while the step time ≤ now + t); initSimulation(dt, tEnd) sets both', async () => {
    const out = await runScript(`loadCircuit("${rcFile}");
      initSimulation(2e-6, 1e-4);
      print(get_dt() + " " + get_Tend());
      simulateTime(1e-5);
      print(getSimulationTime());
      simulateTime(0);
      print(getSimulationTime());
      simulateTime(1);
      print(getSimulationTime());
      endSimulation();
      print(getTimeArray("v", 0, 1, 0).length);`);
    expect(out.trim().split('\n')).to.deep.equal([
      '2.0E-6 1.0E-4', '1.2E-5', '1.4E-5',
      'simulateTime(): Specified simulation time goes beyond specified simulated end time; simulated only up to end time', '9.999999999999999E-5', '51',
    ]);
  });

  it('prints GeckoCIRCUITS\' messages: stepping without initSimulation, past the end, endScript with a run left going', async () => {
    const out = await runScript(`loadCircuit("${rcFile}");
      set_Tend(3e-6);
      simulateStep();
      simulateSteps(5);
      simulateStep();
      print(getSimulationTime());
      endScript();
      print(getSignalData("v", 0, 1, 0).length);
      endScript();
      endSimulation();`);
    expect(out.trim().split('\n')).to.deep.equal([
      'Warning: Simulation was not initialized prior to calling simulateStep(). Simulation has been initialized to values specified in GeckoCIRCUITS.',
      'simulateSteps(): Specified end of simulation reached! Cannot simulate another step.',
      'simulateStep(): Specified end of simulation reached! Cannot simulate another step.',
      '3.0E-6',
      'Warning: Did not call endSimulation() after using simulation control methods! Please call this method at the end of your script after using simulateStep(), simulateSteps(), or simulateTime().',
      '4',
    ]);
  });

  it('continueSimulation() goes on as GeckoCIRCUITS\' continueCalculation: another end time after a complete run, to the end after an early endSimulation', async () => {
    const out = await runScript(`loadCircuit("${rcFile}");
      set_Tend(5e-4);
      runSimulation();
      setParameter("R.1", "R", 250);
      continueSimulation();
      float[] continued = getSignalData("v", 0, 1, 0);
      print(continued.length + " " + getSimulationTime());
      setParameter("R.1", "R", 1000);
      set_Tend(1e-3);
      initSimulation();
      simulateSteps(500);
      setParameter("R.1", "R", 250);
      simulateSteps(500);
      endSimulation();
      print(java.util.Arrays.equals(continued, getSignalData("v", 0, 1, 0)));
      setParameter("R.1", "R", 1000);
      initSimulation();
      simulateSteps(200);
      endSimulation();
      continueSimulation();
      float[] completed = getSignalData("v", 0, 1, 0);
      runSimulation();
      print(completed.length + " " + java.util.Arrays.equals(completed, getSignalData("v", 0, 1, 0)));`);
    expect(out.trim().split('\n')).to.deep.equal(['1001 0.001', 'true', '1001 true']);
  });

  it('counts steps as GeckoCIRCUITS does under its timing: the engine\'s start is the first step, getSimulationTime() is n·dt after n steps', async () => {
    const out = await runScript(`loadCircuit("${BUCK_IPES}");
      print(get_dt() + " " + get_Tend());
      initSimulation();
      print(getSimulationTime());
      simulateSteps(300);
      double[] t = getTimeArray("u2", 0, 1, 0);
      print(getSimulationTime() + " " + t.length + " " + (t[t.length - 1] + get_dt() == getSimulationTime()));
      simulateSteps(700);
      print(getSimulationTime());
      simulateStep();
      endSimulation();`);
    const [settings, start, after300, end, message] = out.trim().split('\n').filter((l) => !l.startsWith('warning:'));
    expect(settings).to.equal('1.0E-6 0.001');
    expect(start).to.equal('0.0');
    const [time300, samples, consistent] = after300.split(' ');
    expect(Number(time300)).to.be.closeTo(3e-4, 1e-15);
    expect([samples, consistent]).to.deep.equal(['300', 'true']);
    expect(Number(end)).to.be.closeTo(1e-3, 1e-15);
    expect(message).to.equal('simulateStep(): Specified end of simulation reached! Cannot simulate another step.');
  });

  it('acts on a change after n steps from sample n under GeckoCIRCUITS\' timing, as GeckoCIRCUITS does (CONST, GAIN, DC source)', async () => {
    // GeckoCIRCUITS, run headless on this circuit (GeckoExternal: initSimulation, simulateSteps(100),
    // the three setParameter calls, simulateSteps(10)), gives k = 2 up to sample 99 and 15 from
    // sample 100, where the capacitor's voltage steps start to double.
    const netlist: Netlist = {
      name: 'blocks',
      settings: { tEnd: 2048 * 2 ** -20, dt: 2 ** -20, solver: 'backward-euler', timing: 'gecko' },
      elements: rc().elements,
      blocks: [
        { name: 'VOLT.1', type: 'VOLT', inputs: [], outputs: ['v'], params: { nodes: ['out', '0'] } },
        { name: 'CONST.1', type: 'CONST', outputs: ['c'], params: { value: 1 } },
        { name: 'GAIN.1', type: 'GAIN', inputs: ['c'], outputs: ['k'], params: { k: 2 } },
        { name: 'SCOPE.1', type: 'SCOPE', inputs: ['v', 'k'] },
      ],
    };
    const out = await runScript(`loadCircuit("${write('blocks.json', netlist)}");
      initSimulation();
      simulateSteps(100);
      setParameter("CONST.1", "const", 3);
      setParameter("GAIN.1", "r0", 5);
      setParameter("V.1", "value", 2);
      simulateSteps(10);
      float[] k = getSignalData("k", 0, 1, 0);
      float[] v = getSignalData("v", 0, 1, 0);
      print(k[99] + " " + k[100] + " " + k[109]);
      print((v[99] - v[98]) + " " + (v[101] - v[100]));
      endSimulation();`);
    const [gains, steps] = out.trim().split('\n');
    expect(gains).to.equal('2.0 15.0 15.0');
    const [before, after] = steps.split(' ').map(Number);
    // C dv/dt = (V − v)/R: the step grows with V − v, from 1 − v to 2 − v at sample 100
    expect(after / before).to.be.closeTo(2.1, 0.05);
  });

  it('refuses continueSimulation() without a finished run, and reports engine failures at the script line', async () => {
    const none = await scriptError(`loadCircuit("${rcFile}");\ncontinueSimulation();`);
    expect(none.text).to.match(/^test\.pss:2:\d+: continueSimulation: no finished simulation to continue; call runSimulation\(\) first/);
    const dt = await scriptError(`loadCircuit("${rcFile}");\nrunSimulation();\nset_dt(2e-6);\ncontinueSimulation();`);
    expect(dt.text).to.match(/^test\.pss:4:\d+: continueSimulation: the time step changed from 0\.000001 s to 0\.000002 s since the run; set_dt\(0\.000001\) continues it/);
    const refused = await scriptError(`loadCircuit("${rcFile}");\ninitSimulation(1e-3, 1e-6);`);
    expect(refused.text).to.match(/^test\.pss:2:\d+: initSimulation: .*'dt' must not exceed 'tEnd'/);
  });
});

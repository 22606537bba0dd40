// GeckoSCRIPT functions over real circuits: the global matrices, steady-state detection (both
// criteria, GeckoCIRCUITS' refusals and messages), `dt` and `time` in .ipes scripts, and uDC/iMAX
// on sine sources by file version.
import { expect } from 'chai';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { BUCK_IPES as buckIpes, ipesWith, runIpes, runScript, scriptError } from './run-script.js';

const npcIpes = fileURLToPath(new URL('../../fixtures/gecko-corpus/035_NPCmodel.ipes', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'pesim-gecko-functions-'));

describe('script: GeckoSCRIPT functions', function () {
  this.timeout(120000);

  it('lists the circuit\'s components by kind, writes writerOutputErrorLn lines, and endScript() does nothing without a step-wise simulation', async () => {
    const out = await runIpes(ipesWith('', [
      'String all = "";',
      'for (String name : getCircuitElements()) all += name + " ";',
      'System.out.println(all);',
      'System.out.println(getResistors().length + " " + getInductors()[0] + " " + getCapacitors()[0] + " " + getDiodes()[0] + " " + getIdealSwitches()[0]);',
      'System.out.println(getIGBTs().length + " " + getThyristors().length + " " + getThermalElements().length + " " + (getControlElements().length > 0));',
      'endScript();',
      'writerOutputErrorLn("done");',
    ].join('\n')));
    const [all, kinds, counts, done] = out.trim().split('\n');
    expect(all.trim().split(' ')).to.include.members(['R.1', 'L.1', 'C.1', 'D.1', 'S.1']);
    expect(kinds).to.equal('1 L.1 C.1 D.1 S.1');
    expect(counts).to.equal('0 0 0 true');
    expect(done).to.equal('done');
  });

  it('reads and sets the pre-simulation: get/set_Tend_pre (−1: none), get/set_dt_pre (default dt)', async () => {
    const out = await runIpes(ipesWith('', [
      'System.out.println(get_Tend_pre() + " " + (get_dt_pre() == get_dt()));',
      'set_Tend_pre(2e-4); set_dt_pre(5e-7);',
      'System.out.println(get_Tend_pre() + " " + get_dt_pre());',
      'runSimulation();',
      'set_Tend_pre(0);',
      'System.out.println(get_Tend_pre());',
    ].join('\n')));
    expect(out.trim().split('\n')).to.deep.equal(['-1.0 true', '2.0E-4 5.0E-7', '-1.0']);
  });

  it('keeps a global double and float matrix for later calls; null before the first set', async () => {
    const out = await runScript(`
      print(getGlobalDoubleMatrix() == null);
      double[][] m = {{0, 8, 15}, {1.5}};
      setGlobalDoubleMatrix(m);
      m[0][0] = 99;
      double[][] back = getGlobalDoubleMatrix();
      print(back.length + " " + back[0][0] + " " + back[0][2] + " " + back[1][0]);
      setGlobalFloatMatrix(new float[][]{{0.5f, 2f}});
      print(getGlobalFloatMatrix()[0][0] + " " + getGlobalFloatMatrix()[0].length);`);
    expect(out.trim().split('\n')).to.deep.equal(['true', '2 0.0 15.0 1.5', '0.5 2']);
  });

  it('detects the steady state by the state vector of meters: [1, time, period], and says so', async () => {
    // buck_simple switches at 35 kHz; a step of 1/200 of its period puts checks on whole periods.
    const out = await runScript(`loadCircuit("${buckIpes}");
      double step = 1.0 / 35e3 / 200;
      initSteadyStateDetection(new String[]{"VOLT.3", "AMP.1"}, new double[]{35e3}, step, 20e-3);
      double[] s = simulateUntilSteadyState(false);
      print(s.length + " " + s[0] + " " + (s[1] < 20e-3) + " " + (Math.abs(s[2] - 1 / 35e3) <= 2.1 * step));
      print(s[1] + " " + s[2]);
      print(get_dt() + " " + get_Tend() + " " + getSimulationTime());`);
    const lines = out.trim().split('\n').filter((l) => !l.startsWith('warning:'));
    const [time, period] = lines[2].split(' ');
    expect(lines[0]).to.equal(`Steady state reached at ${time} seconds with period of oscillation: ${period} seconds.`);
    expect(lines[1]).to.equal('3 1.0 true true');
    // The circuit's dt and end time stay as they were; the run covered the detection's simulation time.
    const [dt, tEnd, reached] = lines[3].split(' ').map(Number);
    expect([dt, tEnd]).to.deep.equal([1e-6, 1e-3]);
    expect(reached).to.be.closeTo(20e-3, 1e-6);
  });

  it('detects the steady state by the cross-correlation of two periods of named signals', async () => {
    const out = await runScript(`loadCircuit("${buckIpes}");
      initSteadyStateDetection(new String[]{"u2"}, 35e3, 1.0 / 35e3 / 200, 20e-3);
      double[] s = simulateToSteadyState(true);
      print(s[0] + " " + (Math.abs(s[1] * 35e3 - Math.round(s[1] * 35e3)) < 1e-6) + " " + (s[1] < 20e-3) + " " + (s[2] == 1 / 35e3));
      double[] never = simulateToSteadyState(true, 1.1, 0.005);
      print(never[0] + " " + (never[1] >= 20e-3 && never[1] < 20e-3 + 1 / 35e3));`);
    expect(out.trim().split('\n').filter((l) => !l.startsWith('warning:'))).to.deep.equal(['1.0 true true true', '0.0 true']);
  });

  it('refuses as GeckoCIRCUITS does: non-meters, unknown signals, a simulate call without its own initialisation', async () => {
    const out = await runScript(`loadCircuit("${buckIpes}");
      initSteadyStateDetection(new String[]{"R.1"}, new double[]{50e3}, 1e-7, 1e-3);
      print(simulateUntilSteadyState(true) == null);
      initSteadyStateDetection(new String[]{"nothing"}, 50e3, 1e-7, 1e-3);
      print(simulateToSteadyState(true) == null);
      initSteadyStateDetection(new String[]{"VOLT.3"}, new double[]{50e3}, 1e-7, 1e-3);
      print(simulateToSteadyState(true) == null);`);
    expect(out.trim().split('\n')).to.deep.equal([
      'Supplied element R.1 is not a measuring element. Steady state monitoring not initialized!',
      'Steady state detection is not initialized! Please call initSteadyStateDetection() with appropriate arguments first!',
      'true',
      'Could not find signal: nothing',
      'Steady state detection is not initialized! Please call initSteadyStateDetection() with appropriate arguments first!',
      'true',
      'Steady state detection is not initialized! Please call initSteadyStateDetection() with appropriate arguments first!',
      'true',
    ]);
  });

  it('gives .ipes scripts dt and time (the circuit\'s time step and end time) unless they declare them', async () => {
    expect(await runIpes(ipesWith('', 'writeOutputLn(dt + " " + time + " " + (dt == get_dt()) + " " + (time == get_Tend()));')))
      .to.match(/^\S+ \S+ true true\n$/);
    expect(await runIpes(ipesWith('double dt = 2e-6;', 'writeOutputLn(dt + " " + time);'))).to.match(/^2\.0E-6 \S+\n$/);
    expect(await runIpes(ipesWith('', 'double time = 7; writeOutputLn(time);'))).to.equal('7.0\n');
    // Plain script files are not GeckoSCRIPT files: the names stay unknown there.
    const { error } = await scriptError('print(dt);');
    expect(error.reason).to.match(/'dt' is only available in the block's code/);
  });

  it('sets the amplitude of a sine source of a file up to 1.62 by iMAX (its parameter[1]), also once saved; refuses it on other sine sources', async () => {
    const saved = join(dir, 'npc-saved.ipes');
    const out = await runScript(`loadCircuit("${npcIpes}");
      print(getParameter("I.1", "iMAX") + " " + getParameter("I.1", "ampl"));
      setParameter("I.1", "iMAX", 100);
      print(getParameter("I.1", "amplitude") + " " + getParameter("I.1", "iMAX"));
      saveCircuit("${saved}");
      loadCircuit("${saved}");
      setParameter("I.1", "iMAX", 120);
      print(getParameter("I.1", "amplitude"));`);
    expect(out.trim().split('\n').filter((l) => !l.startsWith('warning:'))).to.deep.equal(['311.1269837220809 311.1269837220809', '100.0 100.0', '120.0']);
    // The saved file keeps the 1.62 form (no separate amplitude), as GeckoCIRCUITS reads it.
    expect(gunzipSync(readFileSync(saved)).toString('utf8')).not.to.match(/^amplitude /m);
    // A sine source with its own amplitude (here from a JSON netlist): iMAX is the DC value the sine does not use.
    const json = join(dir, 'sine.json');
    writeFileSync(json, JSON.stringify({
      settings: { tEnd: 1e-3, dt: 1e-6 },
      elements: [
        { name: 'I.1', type: 'I', nodes: ['a', '0'], params: { waveform: 'sine', amplitude: 10, frequency: 50 } },
        { name: 'R.1', type: 'R', nodes: ['a', '0'], params: { R: 1 } },
      ],
    }));
    const { error } = await scriptError(`loadCircuit("${json}"); setParameter("I.1", "iMAX", 100);`);
    expect(error.reason).to.match(/iMAX is the DC value of I\.1, which its sine waveform does not use; its peak value is 'ampl'/);
    expect(await runScript(`loadCircuit("${json}"); setParameter("I.1", "ampl", 50); print(getParameter("I.1", "amplitude"));`)).to.equal('50.0\n');
  });
});

// Every built-in of the scripting language over a real circuit (a buck converter, JSON netlist),
// checked against values computed independently through the Node API (simulate) on the same
// netlist with the same parameter changes.
import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simulate, steadyState, type SimulationResult } from '../../../src/engine/index.js';
import type { Netlist } from '../../../src/formats/netlist.js';
import { buck } from '../../fixtures/circuits.js';
import { runScript, scriptError } from './run-script.js';

const T_END = 2e-3;
const DT = 1e-6;

/** The buck converter with its input voltage as global parameter $vin and a CONST block feeding a GAIN. */
function circuit(): Netlist {
  const netlist = buck({ tEnd: T_END, dt: DT });
  netlist.parameters = { vin: 48 };
  netlist.elements[0].params = { ...netlist.elements[0].params, value: '$vin' };
  netlist.blocks!.push(
    { name: 'CONST.1', type: 'CONST', outputs: ['c'], params: { value: 2 } },
    { name: 'GAIN.1', type: 'GAIN', inputs: ['c'], outputs: ['k'], params: { k: 3 } },
  );
  return netlist;
}

/** ∫ f(x) dt / (t2 − t1) over [t1, t2) with each sample held to the next, as GeckoCIRCUITS averages. */
function geckoMean(result: SimulationResult, key: string, t1: number, t2: number, f: (x: number) => number = (x) => x): number {
  let sum = 0;
  for (let i = 0; i < result.time.length - 1; i++) {
    if (result.time[i] >= t1 && result.time[i] < t2) sum += f(result.signals[key][i]) * (result.time[i + 1] - result.time[i]);
  }
  return sum / (t2 - t1);
}

function windowOf(result: SimulationResult, key: string, t1: number, t2: number): number[] {
  const out: number[] = [];
  result.time.forEach((t, i) => {
    if (t >= t1 && t <= t2) out.push(result.signals[key][i]);
  });
  return out;
}

describe('script: built-ins over a circuit', function () {
  this.timeout(120000);
  let dir: string;
  let file: string;
  let reference: SimulationResult;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pesim-script-'));
    file = join(dir, 'buck.json');
    writeFileSync(file, JSON.stringify(circuit()));
    // The reference: duty 0.4, R 4 Ω, $vin 40 V, through the Node API.
    reference = await simulate(circuit(), { parameters: { 'SIGNAL.1.duty': 0.4, 'R.1.R': 4, $vin: 40 } });
  });

  it('runs the specification functions: setParameter, runSimulation, getMeasurement, print', async () => {
    const out = await runScript(`loadCircuit("${file}");
      setParameter("SIGNAL.1", "duty", 0.4);
      setParameter("R.1", "r", 4);
      setGlobalParameter("vin", 40);
      runSimulation();
      print(getMeasurement("SCOPE.1", "ch1_avg"));
      print(getMeasurement("SCOPE.1", "ch2_max"));`);
    const [avg, max] = out.trim().split('\n').map(Number);
    expect(avg).to.equal(reference.measurements['SCOPE.1.ch1_avg']);
    expect(max).to.equal(reference.measurements['SCOPE.1.ch2_max']);
  });

  it('runSteadyState() finds the settled period: its error, measurements and waveform', async () => {
    const settled = await steadyState(circuit(), { parameters: { 'SIGNAL.1.duty': 0.4 } });
    const out = await runScript(`loadCircuit("${file}");
      setParameter("SIGNAL.1", "duty", 0.4);
      double error = runSteadyState();
      print(error < 1e-9);
      print(getMeasurement("SCOPE.1", "ch1_avg"));
      double[][] w = getWaveform("SCOPE.1", "ch1");
      print(w[0].length);`);
    const [small, avg, points] = out.trim().split('\n');
    expect(small).to.equal('true');
    expect(Number(avg)).to.equal(settled.measurements['SCOPE.1.ch1_avg']);
    expect(Number(points)).to.equal(settled.time.length);
  });

  it('reads parameters, globals, settings and the simulated time', async () => {
    const out = await runScript(`loadCircuit("${file}");
      print(getParameter("R.1", "R")); print(getGlobalParameter("$vin")); print(getGlobalParameterValue("vin"));
      setGlobalParameterValue("$vin", 24); print(getGlobalParameter("vin"));
      print(get_dt()); print(get_Tend()); set_dt(2e-6); set_Tend(1e-3); print(get_dt() + " " + get_Tend());
      print(getSimulationTime()); runSimulation(); print(getSimulationTime());`);
    expect(out.trim().split('\n')).to.deep.equal(['5.0', '48.0', '48.0', '24.0', '1.0E-6', '0.002', '2.0E-6 0.001', '0.0', '0.001']);
  });

  it('uses GeckoCIRCUITS short names, case-insensitively, and setParameters', async () => {
    const out = await runScript(`loadCircuit("${file}");
      setParameter("SIGNAL.1", "D", 0.4); setParameter("signal.1", "f", 25e3); setParameter("V.1", "uDC", 30);
      setParameter("CONST.1", "const", 5); setParameter("GAIN.1", "R0", 7); setParameter("L.1", "l", 2e-4);
      print(getParameter("SIGNAL.1", "duty") + " " + getParameter("SIGNAL.1", "frequency") + " " + getParameter("V.1", "value"));
      print(getParameter("CONST.1", "value") + " " + getParameter("GAIN.1", "k") + " " + getParameter("L.1", "L") + " " + getParameter("GAIN.1", "r0"));
      setParameters("R.1", new String[]{"R"}, new double[]{8});
      print(getParameter("R.1", "R"));`);
    expect(out.trim().split('\n')).to.deep.equal(['0.4 25000.0 30.0', '5.0 7.0 2.0E-4 7.0', '8.0']);
  });

  it('gives the last value of any control block output with getOutput, recorded or not', async () => {
    const out = await runScript(`loadCircuit("${file}");
      setParameter("CONST.1", "const", 4);
      runSimulation();
      print(getOutput("CONST.1")); print(getOutput("GAIN.1")); print(getOutput("GAIN.1", "p")); print(getOutput("VOLT.1", "0"));`);
    const netlist = circuit();
    netlist.blocks!.push({ name: 'SCOPE.ref', type: 'SCOPE', inputs: ['k'] });
    const result = await simulate(netlist, { parameters: { 'CONST.1.value': 4 } });
    const last = (key: string): number => result.signals[key][result.signals[key].length - 1];
    expect(out.trim().split('\n').map(Number)).to.deep.equal([4, 12, 12, last('SCOPE.1.ch1')]);
    expect(last('SCOPE.ref.ch1')).to.equal(12);
  });

  it('computes signal statistics over [t1, t2] by signal name and by scope port', async () => {
    const [t1, t2] = [1e-3, 2e-3];
    const out = await runScript(`loadCircuit("${file}");
      setParameter("SIGNAL.1", "duty", 0.4); setParameter("R.1", "R", 4); setGlobalParameter("vin", 40);
      runSimulation();
      print(getSignalAvg("vout", ${t1}, ${t2})); print(getAvg("SCOPE.1", 0, ${t1}, ${t2}));
      print(getSignalMin("il", ${t1}, ${t2})); print(getSignalMax("il", ${t1}, ${t2})); print(getMax("SCOPE.1", 1, ${t1}, ${t2}));
      print(getSignalRMS("il", ${t1}, ${t2})); print(getRMS("SCOPE.1", 1, ${t1}, ${t2}));
      print(getSignalRipple("vout", ${t1}, ${t2})); print(getSignalTHD("il", ${t1}, ${t2})); print(getTHD("SCOPE.1", 1, ${t1}, ${t2}));
      print(getRipple("SCOPE.1", 0, ${t1}, ${t2}) + " " + getMin("SCOPE.1", 0, ${t1}, ${t2}));`);
    const v = out.trim().split('\n');
    // GeckoCIRCUITS' statistics (CharacteristicsCalculator): samples in [t1, t2), each held to the next.
    const vout = windowOf(reference, 'SCOPE.1.ch1', t1, t2);
    const il = windowOf(reference, 'SCOPE.1.ch2', t1, t2);
    const voutAvg = geckoMean(reference, 'SCOPE.1.ch1', t1, t2);
    const voutRms = Math.sqrt(geckoMean(reference, 'SCOPE.1.ch1', t1, t2, (x) => x * x));
    const ilRms = Math.sqrt(geckoMean(reference, 'SCOPE.1.ch2', t1, t2, (x) => x * x));
    expect(Number(v[0])).to.be.closeTo(voutAvg, 1e-9 * Math.abs(voutAvg));
    expect(v[1]).to.equal(v[0]);
    expect(Number(v[2])).to.equal(Math.min(...il));
    expect(Number(v[3])).to.equal(Math.max(...il));
    expect(v[4]).to.equal(v[3]);
    expect(Number(v[5])).to.be.closeTo(ilRms, 1e-9 * Math.max(...il));
    expect(v[6]).to.equal(v[5]);
    expect(Number(v[7])).to.be.closeTo(Math.sqrt(voutRms * voutRms - voutAvg * voutAvg) / voutAvg, 1e-9);
    expect(Number(v[8])).to.be.greaterThan(0);
    expect(v[9]).to.equal(v[8]);
    expect(v[10]).to.equal(`${v[7]} ${Math.min(...vout) === Math.trunc(Math.min(...vout)) ? Math.min(...vout).toFixed(1) : Math.min(...vout)}`);
  });

  it('returns waveforms: getWaveform, getSignalData and getTimeArray', async () => {
    const out = await runScript(`loadCircuit("${file}");
      setParameter("SIGNAL.1", "duty", 0.4); setParameter("R.1", "R", 4); setGlobalParameter("vin", 40);
      runSimulation();
      double[][] w = getWaveform("SCOPE.1", "ch1");
      print(w[0].length + " " + w[0][w[0].length - 1] + " " + w[1][100]);
      double[] t = getTimeArray("vout", 0.001, 0.002, 9);
      float[] d = getSignalData("vout", 0.001, 0.002, 9);
      print(t.length + " " + d.length + " " + t[1] + " " + d[0]);`);
    const [first, second] = out.trim().split('\n').map((line) => line.split(' ').map(Number));
    const n = reference.time.length;
    expect(first).to.deep.equal([n, reference.time[n - 1], reference.signals['SCOPE.1.ch1'][100]]);
    const from = reference.time.findIndex((t) => t >= 0.001);
    const inWindow = windowOf(reference, 'SCOPE.1.ch1', 0.001, 0.002).length;
    expect(second[0]).to.equal(Math.ceil(inWindow / 10));
    expect(second[1]).to.equal(second[0]);
    expect(second[2]).to.equal(reference.time[from + 10]);
    // A float prints as Java's Float.toString: the shortest decimal that reads back as that float.
    expect(Math.fround(second[3])).to.equal(Math.fround(reference.signals['SCOPE.1.ch1'][from]));
  });

  it('saves the circuit, exports data, stops and resets', async () => {
    const saved = join(dir, 'saved.json');
    const csv = join(dir, 'out.csv');
    const json = join(dir, 'out.json');
    const out = await runScript(`loadCircuit("${file}");
      print(stopSimulation());
      setParameter("R.1", "R", 9);
      saveCircuit("${saved}");
      runSimulation();
      print(exportData("${csv}") == null);
      exportData("${json}", "json");
      resetSimulation();
      print(getParameter("R.1", "R"));
      saveFileAs("${join(dir, 'saved2.json')}"); openFile("${saved}"); print(getParameter("R.1", "R"));`);
    expect(out.trim().split('\n')).to.deep.equal(['false', 'false', '5.0', '9.0']);
    expect((JSON.parse(readFileSync(saved, 'utf8')) as Netlist).elements.find((e) => e.name === 'R.1')!.params!.R).to.equal(9);
    expect(readFileSync(csv, 'utf8').split('\n')[0]).to.match(/^time,/);
    expect(existsSync(json)).to.equal(true);
  });

  it('reports unknown components, parameters and missing results with the session message', async () => {
    const a = await scriptError(`loadCircuit("${file}");\nsetParameter("R.9", "R", 1);`);
    expect(a.error.reason).to.match(/no component "R\.9"; the circuit has: V\.1, S\.1/);
    expect([a.error.position!.line, a.error.position!.column]).to.deep.equal([2, 1]);
    const b = await scriptError(`loadCircuit("${file}");\nsetParameter("R.1", "Q", 1);`);
    expect(b.error.reason).to.match(/R\.1 \(R\) has no parameter "Q"; its parameters: R/);
    const c = await scriptError(`loadCircuit("${file}");\nprint(getOutput("CONST.1"));`);
    expect(c.error.reason).to.equal('getOutput: no completed simulation; call runSimulation() first');
    const d = await scriptError(`loadCircuit("${file}");\nrunSimulation();\nprint(getSignalAvg("nothing", 0, 1));`);
    expect(d.error.reason).to.match(/^no signal "nothing" in the last run/);
  });

  it('reports a failing simulation with the engine message at the call', async () => {
    const broken = join(dir, 'broken.json');
    const netlist = circuit();
    netlist.elements.push({ name: 'V.2', type: 'V', nodes: ['in', '0'], params: { waveform: 'dc', value: 12 } });
    writeFileSync(broken, JSON.stringify(netlist));
    const { error } = await scriptError(`loadCircuit("${broken}");\nrunSimulation();`);
    expect(error.reason).to.match(/^runSimulation: /);
    expect([error.position!.line, error.position!.column]).to.deep.equal([2, 1]);
  });
});

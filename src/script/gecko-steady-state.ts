// GeckoSCRIPT's steady-state detection (GeckoCIRCUITS' AbstractGeckoCustom):
//   initSteadyStateDetection(String[] meters, double[] frequencies, double dt, double simulationTime)
//     then simulateUntilSteadyState(boolean suppressMessages)  — the state-vector criterion;
//   initSteadyStateDetection(String[] signals, double frequency, double dt, double simulationTime)
//     then simulateToSteadyState(boolean suppressMessages[, double targetCorrelation, double targetMeanPctDiff])
//     — the cross-correlation criterion (steady-criteria.ts).
// Each overload of initSteadyStateDetection enables its own simulate function only, as there; a
// refused initialisation or a simulate call without one prints GeckoCIRCUITS' message and the
// simulate function returns null. GeckoCIRCUITS simulates step by step and ends the simulation
// when steady; pesim runs the engine once with that dt over the whole simulation time (the
// circuit's dt and end time are left as they were) and applies the criterion to the recorded
// values: the result is the same, and the last run covers the whole simulation time.
import { javaDouble } from '../formats/ipes/emit.js';
import type { SimulationResult } from '../engine/simulate.js';
import { ScriptError } from './errors.js';
import { blockOutputSamples, sampled, signalByLabel } from './gecko-results.js';
import type { Builtin, Builtins, ScriptHost } from './host.js';
import { scopeChannels } from './probe-runner.js';
import { toSteadyState, untilSteadyState, type SteadyOutcome } from './steady-criteria.js';
import { valueAt } from '../engine/interpolate.js';

/** The measurement blocks the state-vector criterion accepts (ReglerVOLT, ReglerAmperemeter, ReglerTEMP). */
const METERS = new Set(['VOLT', 'AMP', 'TEMP']);
const DEFAULT_TARGET_CORRELATION = 0.998;
const DEFAULT_TARGET_MEAN_PCT_DIFF = 0.005;

interface Detection {
  criterion: 'state-vector' | 'cross-correlation';
  names: string[];
  periods: number[];
  dt: number;
  simulationTime: number;
}


function positive(value: number, what: string): number {
  if (!Number.isFinite(value) || value <= 0) throw new ScriptError('runtime', `initSteadyStateDetection: ${what} must be a positive number, got ${value}`);
  return value;
}

/** The detection a script initialised, and its simulate functions. */
class SteadyStateDetection {
  private detection: Detection | undefined;

  constructor(private readonly host: ScriptHost) {}

  /** GeckoCIRCUITS' writerOutputErrorLn: to the script's output. */
  private error(text: string): void {
    this.host.write(`${text}\n`);
  }

  /** Runs the engine with the detection's dt up to its simulation time; the circuit's settings stay. */
  private async run(d: Detection): Promise<SimulationResult> {
    const s = this.host.session;
    const [dt, tEnd] = [s.getTimeStep(), s.getEndTime()];
    s.setTimeStep(d.dt);
    s.setEndTime(d.simulationTime);
    try {
      await s.runSimulation();
    } finally {
      s.setTimeStep(dt);
      s.setEndTime(tEnd);
    }
    return s.lastRun()!.result;
  }

  private report(outcome: SteadyOutcome, suppress: boolean): number[] {
    if (!suppress) {
      if (outcome.reached) this.host.write(`Steady state reached at ${javaDouble(outcome.time)} seconds with period of oscillation: ${javaDouble(outcome.period)} seconds.\n`);
      else this.error('Steady state could not be reached.');
    }
    return [outcome.reached ? 1 : 0, outcome.time, outcome.period];
  }

  private initialized(criterion: Detection['criterion']): Detection | undefined {
    if (this.detection?.criterion === criterion) return this.detection;
    this.error('Steady state detection is not initialized! Please call initSteadyStateDetection() with appropriate arguments first!');
    return undefined;
  }

  initByMeters(names: string[], frequencies: number[], dt: number, simulationTime: number): void {
    this.detection = undefined;
    const blocks = this.host.session.circuit().blocks ?? [];
    for (const name of names) {
      const block = blocks.find((b) => b.name === name) ?? blocks.find((b) => b.name.toLowerCase() === name.toLowerCase());
      if (!block || !METERS.has(block.type)) {
        this.error(`Supplied element ${name} is not a measuring element. Steady state monitoring not initialized!`);
        return;
      }
    }
    if (frequencies.length === 0 || names.length === 0) {
      this.error('Steady state monitoring not initialized: no supplied frequencies or state variables!');
      return;
    }
    this.host.probes.probe(names);
    this.detection = {
      criterion: 'state-vector', names, periods: frequencies.map((f) => 1 / f),
      dt: positive(dt, 'dt'), simulationTime: positive(simulationTime, 'the simulation time'),
    };
  }

  initBySignals(names: string[], frequency: number, dt: number, simulationTime: number): void {
    this.detection = undefined;
    const circuit = this.host.session.circuit();
    const recorded = scopeChannels(circuit);
    const owners = new Map<string, string>();
    for (const block of circuit.blocks ?? []) for (const output of block.outputs ?? []) owners.set(output, block.name);
    const missing = names.find((name) => !recorded.has(name) && !owners.has(name));
    if (missing !== undefined) {
      this.error(`Could not find signal: ${missing}`);
      return;
    }
    if (names.length === 0 || frequency === 0) {
      this.error('Steady state monitoring not initialized: no supplied frequencies or state variables!');
      return;
    }
    this.host.probes.probe(names.filter((n) => !recorded.has(n)).map((n) => owners.get(n)!));
    this.detection = {
      criterion: 'cross-correlation', names, periods: [1 / frequency],
      dt: positive(dt, 'dt'), simulationTime: positive(simulationTime, 'the simulation time'),
    };
  }

  async untilSteady(suppress: boolean): Promise<number[] | null> {
    const d = this.initialized('state-vector');
    if (!d) return null;
    const result = await this.run(d);
    const samples = d.names.map((name) => blockOutputSamples(this.host, result, name));
    const stateAt = (t: number): number[] => samples.map((values) => valueAt(result.time, values, t));
    return this.report(untilSteadyState(stateAt, d.dt, d.simulationTime, d.periods), suppress);
  }

  async toSteady(suppress: boolean, targetCorrelation: number, targetMeanPctDiff: number): Promise<number[] | null> {
    const d = this.initialized('cross-correlation');
    if (!d) return null;
    const result = await this.run(d);
    const signals = d.names.map((name) => signalByLabel(this.host, result, name));
    const window = (start: number, end: number): number[][] =>
      signals.map((values) => sampled(result, values, start, end, 0, 'simulateToSteadyState').map(Math.fround));
    return this.report(toSteadyState(window, d.periods[0], d.simulationTime, targetCorrelation, targetMeanPctDiff), suppress);
  }
}

export function geckoSteadyStateBuiltins(host: ScriptHost): Builtins {
  const detection = new SteadyStateDetection(host);
  const list: Builtin[] = [
    { name: 'initSteadyStateDetection', signatures: [
      { params: ['String[]', 'double[]', 'double', 'double'], returns: 'void' },
      { params: ['String[]', 'double', 'double', 'double'], returns: 'void' },
    ], call: (a) => {
      const [names, frequencies, dt, simulationTime] = a as [string[], number[] | number, number, number];
      if (Array.isArray(frequencies)) detection.initByMeters(names, frequencies, dt, simulationTime);
      else detection.initBySignals(names, frequencies, dt, simulationTime);
    } },
    { name: 'simulateUntilSteadyState', signatures: [{ params: ['boolean'], returns: 'double[]' }], call: (a) => detection.untilSteady(a[0] as boolean) },
    { name: 'simulateToSteadyState', signatures: [
      { params: ['boolean'], returns: 'double[]' },
      { params: ['boolean', 'double', 'double'], returns: 'double[]' },
    ], call: (a) => detection.toSteady(a[0] as boolean, (a[1] as number | undefined) ?? DEFAULT_TARGET_CORRELATION, (a[2] as number | undefined) ?? DEFAULT_TARGET_MEAN_PCT_DIFF) },
  ];
  return new Map(list.map((b) => [b.name, b]));
}

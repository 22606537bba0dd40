// GeckoSCRIPT's step-wise simulation (AbstractGeckoCustom → SimulationAccess → SimulationRunner.initSim
// and SimulationsKern.simulateOneStep / simulateTime / endSim) and continueSimulation
// (SimulationRunner.continueCalculation), over the engine's step-wise run (engine/step-session.ts):
//   initSimulation() / initSimulation(dt, tEnd)  starts a run (the latter sets the circuit's dt and
//     end time, as initSim does); a run already going is dropped;
//   simulateStep(), simulateSteps(n), simulateTime(t)  go on; simulateTime(t) steps while the step's
//     time is at most the present time + t, as SimulationsKern does (⌊t/dt⌋ + 1 steps); at the end
//     time they stop and print GeckoCIRCUITS' message; called before initSimulation they start a run
//     with the circuit's settings and print GeckoCIRCUITS' warning. Under GeckoCIRCUITS' timing (the
//     .ipes default) the engine's start is GeckoCIRCUITS' first step, at t = 0 (Transient::startRun):
//     the first step asked for is that one, so the steps, getSimulationTime() (the time of the next
//     step, n·dt after n steps) and the step a parameter change first acts on are GeckoCIRCUITS';
//   endSimulation()  ends the run: its result becomes the last run's; endScript() does so too and
//     warns, as GeckoCIRCUITS does, when a run was left going;
//   getSimulationTime()  the time simulated to;
//   runSimulation()  drops a step-wise run going, then runs the whole simulation;
//   continueSimulation()  continues the last finished run (runSimulation or an ended step-wise run)
//     as SimulationRunner.continueCalculation does: a run that reached its end time goes on for
//     another end time (set_Tend: the new end is the old end + get_Tend()), one ended early goes on to
//     its end time. pesim runs it again from the start, step-wise, with the parameters each part ran
//     with, then goes on with the present ones (the same numbers as a run kept alive, at the cost of
//     simulating the first part twice).
// Parameters set between steps (setParameter, setParameters, setGlobalParameter) take effect from the
// next step: the circuit is built again with the new values and the run goes on from the state it
// reached. GeckoCIRCUITS does the same for a source's DC value and for CONST and GAIN blocks (checked
// by running it); it keeps a SIGNAL block's waveform until the next initSimulation, and a passive
// element's value (R, L, C) until a switching event rewrites its system matrix (SimulationsKern
// .simulateOneTimeStep), where pesim uses every new value from the next step.
// The result functions (getSignalData, getSignalAvg, getOutput, getFourier, …) read what the run
// recorded so far. The engine's run is released by endSimulation, by the next initSimulation or
// runSimulation, and when the script ends (release()).
import { StepSession } from '../engine/step-session.js';
import { EngineError } from '../engine/errors.js';
import type { SimulationResult } from '../engine/simulate.js';
import type { ControlBlock, Netlist } from '../formats/netlist.js';
import type { RemoteRun } from '../remote/types.js';
import type { RemoteSession } from '../remote/session.js';
import { ScriptError } from './errors.js';
import type { Builtin, Builtins } from './host.js';
import type { ProbingRunner } from './probe-runner.js';

const END_REACHED = 'Specified end of simulation reached! Cannot simulate another step.';
const TIME_BEYOND_END = 'Specified simulation time goes beyond specified simulated end time; simulated only up to end time';
const NOT_INITIALIZED = (fn: string): string =>
  `Warning: Simulation was not initialized prior to calling ${fn}(). Simulation has been initialized to values specified in GeckoCIRCUITS.`;
const NOT_ENDED = 'Warning: Did not call endSimulation() after using simulation control methods! Please call this method at the end of your script after using simulateStep(), simulateSteps(), or simulateTime().';

/** A part of a run: the netlist it ran with, from main step `from` on. */
interface Segment {
  netlist: Netlist;
  from: number;
}

/** A finished run that continueSimulation can continue: its parts, steps and step size, whether it reached its end time, and the run it gave. */
interface Finished {
  segments: Segment[];
  steps: number;
  dt: number;
  complete: boolean;
  run: RemoteRun;
}

interface Stepping {
  session: StepSession;
  segments: Segment[];
  /** The run's settings (those it started with). */
  settings: Netlist['settings'];
  /** The hidden probe scope the run records block outputs with (none: empty), and its channels. */
  extra: ControlBlock[];
  probes?: Map<string, string>;
  /** The netlist the circuit was last built from, as JSON (a change means a parameter was set). */
  built: string;
  cached?: RemoteRun;
  id: string;
  /** GeckoCIRCUITS' timing: the engine's start was GeckoCIRCUITS' first step, not yet asked for. */
  startStepPending: boolean;
}

/** `netlist` as the run builds it: its settings, with the probe scope. */
function buildOf(stepping: Pick<Stepping, 'settings' | 'extra'>, netlist: Netlist): Netlist {
  return { ...netlist, settings: stepping.settings, blocks: [...(netlist.blocks ?? []), ...stepping.extra] };
}

function engineFailure(fn: string, error: unknown): unknown {
  if (error instanceof EngineError) return new ScriptError('runtime', `${fn}: ${error.code}: ${error.message}`);
  return error;
}

export class GeckoStepping {
  private stepping: Stepping | undefined;
  private finished: Finished | undefined;
  private runs = 0;

  constructor(
    private readonly session: RemoteSession,
    private readonly probes: ProbingRunner,
    private readonly write: (text: string) => void,
  ) {}

  /** Starts a run of the first segment's netlist (its settings are the run's), recording the blocks the script reads. */
  private start(fn: string, segments: Segment[]): Stepping {
    this.release();
    const first = segments[0].netlist;
    const probed = this.probes.withProbes(first);
    const extra = (probed.netlist.blocks ?? []).slice((first.blocks ?? []).length);
    let session: StepSession;
    try {
      session = new StepSession(probed.netlist);
    } catch (error) {
      throw engineFailure(fn, error);
    }
    const stepping: Stepping = {
      session, segments, settings: first.settings, extra, probes: probed.probes, built: JSON.stringify(probed.netlist), id: `step-${++this.runs}`,
      startStepPending: first.settings.timing === 'gecko',
    };
    this.stepping = stepping;
    this.session.followRun(() => this.liveRun(stepping));
    return stepping;
  }

  private liveRun(stepping: Stepping): RemoteRun {
    if (!stepping.cached) {
      const result = stepping.session.result();
      this.probes.remember(result, stepping.probes);
      stepping.cached = { id: stepping.id, result };
    }
    return stepping.cached;
  }

  /** initSimulation([dt, tEnd]). */
  init(dt?: number, tEnd?: number): void {
    if (dt !== undefined && tEnd !== undefined) {
      this.session.setTimeStep(dt);
      this.session.setEndTime(tEnd);
    }
    this.start('initSimulation', [{ netlist: structuredClone(this.session.circuit()), from: 0 }]);
  }

  /** The run going, started with a warning when there is none (GeckoCIRCUITS' simulateStep and friends). */
  private running(fn: string): Stepping {
    if (!this.stepping) {
      this.write(`${NOT_INITIALIZED(fn)}\n`);
      this.init();
    }
    const stepping = this.stepping!;
    this.session.followRun(() => this.liveRun(stepping));
    // A parameter set since the last step: the circuit built again, from the next step on.
    const circuit = this.session.circuit();
    const next = buildOf(stepping, circuit);
    const json = JSON.stringify(next);
    if (json !== stepping.built) {
      this.rebuild(fn, stepping, next, json);
      stepping.segments.push({ netlist: structuredClone({ ...circuit, settings: stepping.settings }), from: stepping.session.stepsDone });
    }
    return stepping;
  }

  private rebuild(fn: string, stepping: Stepping, netlist: Netlist, json: string): void {
    stepping.cached = undefined;
    try {
      stepping.session.rebuild(netlist);
    } catch (error) {
      throw engineFailure(fn, error);
    }
    stepping.built = json;
  }

  /** Runs up to `steps` steps (GeckoCIRCUITS' count); false when the end was reached first. */
  private advance(fn: string, stepping: Stepping, steps: number): boolean {
    let wanted = Number.isFinite(steps) ? Math.max(0, Math.floor(steps)) : 0;
    if (wanted > 0 && stepping.startStepPending) {
      stepping.startStepPending = false;  // done by the engine's start
      wanted--;
    }
    const left = stepping.session.totalSteps - stepping.session.stepsDone;
    this.engineSteps(fn, stepping, Math.min(wanted, left));
    return wanted <= left;
  }

  private engineSteps(fn: string, stepping: Stepping, steps: number): void {
    if (steps <= 0) return;
    stepping.cached = undefined;
    try {
      stepping.session.step(steps);
    } catch (error) {
      throw engineFailure(fn, error);
    }
  }

  simulateSteps(fn: string, steps: number): void {
    const stepping = this.running(fn);
    if (!this.advance(fn, stepping, steps)) this.write(`${fn}(): ${END_REACHED}\n`);
  }

  simulateTime(time: number): void {
    const stepping = this.running('simulateTime');
    const dt = stepping.settings.dt;
    // SimulationsKern.simulateTime: steps while t <= t0 + time (t the time of the step about to run).
    const steps = time >= 0 ? Math.floor(time / dt + 1e-9) + 1 : 0;
    if (!this.advance('simulateTime', stepping, steps)) this.write(`simulateTime(): ${TIME_BEYOND_END}\n`);
  }

  /** endSimulation(): the run's result becomes the last run's. */
  end(): void {
    const stepping = this.stepping;
    if (!stepping) return;
    this.stepping = undefined;
    const steps = stepping.session.stepsDone;
    const complete = steps === stepping.session.totalSteps;
    let result: SimulationResult;
    try {
      result = stepping.session.finish();
    } catch (error) {
      this.session.adoptRun(undefined);
      throw engineFailure('endSimulation', error);
    }
    this.probes.remember(result, stepping.probes);
    const run = { id: stepping.id, result };
    this.session.adoptRun(run);
    this.finished = { segments: stepping.segments, steps, dt: stepping.settings.dt, complete, run };
  }

  /** endScript(): ends a run left going, with GeckoCIRCUITS' warning. */
  endScript(): void {
    if (!this.stepping) return;
    this.end();
    this.write(`${NOT_ENDED}\n`);
  }

  /**
   * getSimulationTime(): the time a step-wise run has reached (under GeckoCIRCUITS' timing its
   * SimulationsKern.t, the time of the next step: the last step's + dt once one was asked for),
   * else the end of the last run (0 without one).
   */
  getSimulationTime(): number {
    const stepping = this.stepping;
    if (stepping) {
      if (stepping.settings.timing !== 'gecko') return stepping.session.time;
      return stepping.startStepPending ? 0 : stepping.session.time + stepping.settings.dt;
    }
    const time = this.session.lastRun()?.result.time;
    return time && time.length > 0 ? time[time.length - 1] : 0;
  }

  /** runSimulation(): a step-wise run going is dropped; the run is remembered for continueSimulation. */
  async runSimulation(): Promise<void> {
    this.release();
    const netlist = structuredClone(this.session.circuit());
    await this.session.runSimulation();
    const run = this.session.lastRun()!;
    this.finished = { segments: [{ netlist, from: 0 }], steps: run.result.stats.steps, dt: netlist.settings.dt, complete: true, run };
  }

  /** continueSimulation(): the last finished run continued (SimulationRunner.continueCalculation). */
  continueSimulation(): void {
    const finished = this.finished;
    if (!finished || this.session.lastRun() !== finished.run) {
      throw new ScriptError('runtime', 'continueSimulation: no finished simulation to continue; call runSimulation() first');
    }
    const { dt, tEnd } = this.session.circuit().settings;
    if (dt !== finished.dt) {
      throw new ScriptError('runtime', `continueSimulation: the time step changed from ${finished.dt} s to ${dt} s since the run; set_dt(${finished.dt}) continues it`);
    }
    // A run that reached its end goes on for another end time (tEND += tDURATION); one ended early, to its end.
    const end = finished.segments[0].netlist.settings.tEnd;
    const settings = { ...finished.segments[0].netlist.settings, tEnd: finished.complete ? end + tEnd : end };
    const segments = finished.segments.map((s) => ({ netlist: { ...s.netlist, settings }, from: s.from }));
    const stepping = this.start('continueSimulation', segments);
    stepping.startStepPending = false;
    // The run again as it went, part by part, then on with the present parameters.
    for (let i = 0; i < segments.length; i++) {
      if (i > 0) {
        const part = buildOf(stepping, segments[i].netlist);
        this.rebuild('continueSimulation', stepping, part, JSON.stringify(part));
      }
      const until = i + 1 < segments.length ? segments[i + 1].from : finished.steps;
      this.engineSteps('continueSimulation', stepping, until - stepping.session.stepsDone);
    }
    const present = this.running('continueSimulation');
    this.engineSteps('continueSimulation', present, present.session.totalSteps - present.session.stepsDone);
    this.end();
  }

  /** Frees the engine's run, if any (the script ended, or another run starts). */
  release(): void {
    if (!this.stepping) return;
    this.stepping.session.release();
    this.stepping = undefined;
    this.session.adoptRun(undefined);
  }
}

export function geckoSteppingBuiltins(stepping: GeckoStepping): Builtins {
  const none = { params: [], returns: 'void' };
  const list: Builtin[] = [
    { name: 'initSimulation', signatures: [none, { params: ['double', 'double'], returns: 'void' }], call: (a) => stepping.init(a[0] as number | undefined, a[1] as number | undefined) },
    { name: 'simulateStep', signatures: [none], call: () => stepping.simulateSteps('simulateStep', 1) },
    { name: 'simulateSteps', signatures: [{ params: ['int'], returns: 'void' }], call: (a) => stepping.simulateSteps('simulateSteps', a[0] as number) },
    { name: 'simulateTime', signatures: [{ params: ['double'], returns: 'void' }], call: (a) => stepping.simulateTime(a[0] as number) },
    { name: 'endSimulation', signatures: [none], call: () => stepping.end() },
    { name: 'endScript', signatures: [none], call: () => stepping.endScript() },
    { name: 'continueSimulation', signatures: [none], call: () => stepping.continueSimulation() },
    { name: 'runSimulation', signatures: [none], call: () => stepping.runSimulation() },
    { name: 'getSimulationTime', signatures: [{ params: [], returns: 'double' }], call: () => stepping.getSimulationTime() },
  ];
  return new Map(list.map((b) => [b.name, b]));
}

// A transient run taken a few steps at a time and kept alive between the calls (the addon's
// stepSession, native/core/include/pesim/step_session.hpp): GeckoSCRIPT's initSimulation /
// simulateStep / simulateSteps / simulateTime / endSimulation. Stepping it to the end gives
// simulate()'s result exactly; rebuild() continues the run with the circuit built from a netlist
// with other parameter values (the same structure), from the next step on. The calls run on the
// calling thread. release() (or finish()) frees the engine's run.
import { prepareNetlist, toResult, type SimulationResult } from './simulate.js';
import { bindingFeature } from './binding.js';
import { toEngineError } from './errors.js';
import type { Netlist } from '../formats/netlist.js';
import type { NativeResult } from './types.js';

interface NativeStepSession {
  step(steps: number): number;
  done(): number;
  total(): number;
  time(): number;
  result(): NativeResult;
  rebuild(netlist: Netlist): void;
  finish(): NativeResult;
  release(): void;
}

interface StepSessionBinding {
  stepSession(netlist: Netlist): NativeStepSession;
}

function engineCall<T>(call: () => T): T {
  try {
    return call();
  } catch (error) {
    throw toEngineError(error);
  }
}

export class StepSession {
  private native: NativeStepSession | undefined;

  /** Builds the circuit and does all before the main run's first step (initial step, pre-simulation). Throws EngineError. */
  constructor(netlist: Netlist) {
    const binding = bindingFeature<StepSessionBinding>(['stepSession'], 'step-wise runs');
    const prepared = prepareNetlist(netlist);
    this.native = engineCall(() => binding.stepSession(prepared));
  }

  private live(): NativeStepSession {
    if (!this.native) throw new Error('the step-wise run has ended');
    return this.native;
  }

  get ended(): boolean {
    return this.native === undefined;
  }

  /** Runs the next `steps` steps (at most those left); returns how many ran. */
  step(steps: number): number {
    return engineCall(() => this.live().step(steps));
  }

  get stepsDone(): number {
    return this.live().done();
  }

  get totalSteps(): number {
    return this.live().total();
  }

  /** Time of the last step [s] (0 before the first). */
  get time(): number {
    return this.live().time();
  }

  /** What the run recorded so far (a copy; the run goes on). */
  result(): SimulationResult {
    return toResult(engineCall(() => this.live().result()));
  }

  /** Continues the run with the circuit built from `netlist` (other parameter values; the session's settings). */
  rebuild(netlist: Netlist): void {
    const prepared = prepareNetlist(netlist);
    engineCall(() => this.live().rebuild(prepared));
  }

  /** The result of the run as far as it went; the session is over. */
  finish(): SimulationResult {
    const raw = engineCall(() => this.live().finish());
    this.native = undefined;
    return toResult(raw);
  }

  release(): void {
    this.native?.release();
    this.native = undefined;
  }
}

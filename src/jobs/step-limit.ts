// The one step limit of every way a run is submitted (the simulation service, the job queue, the
// circuit settings and validation, XML-RPC): simulated time / time step may not exceed a configured
// count (sim.api.max-steps, the job queue's orchestration.max_steps; 5·10⁷ by default), so that a
// model asking for hours of computation is refused before it is queued, with the same message.

/** Default largest number of time steps of a run. */
export const DEFAULT_MAX_STEPS = 5e7;

/** Time steps of a run: simulated time / time step. */
export function stepCount(settings: { tEnd: number; dt: number }): number {
  return settings.tEnd / settings.dt;
}

export interface StepLimitExceeded {
  steps: number;
  limit: number;
  /** The sentence each service puts in its error. */
  message: string;
}

export interface StepLimitNames {
  /** What the client calls the simulated time and the step (`simulationTime / timeStep`). */
  ratio: string;
  /** The setting that holds the limit (`sim.api.max-steps`). */
  setting: string;
}

/** Undefined when the run stays within `maxSteps`; else what exceeds it. */
export function checkStepLimit(settings: { tEnd: number; dt: number }, maxSteps: number, names: StepLimitNames): StepLimitExceeded | undefined {
  const steps = stepCount(settings);
  if (!(steps > maxSteps)) return undefined;
  return {
    steps,
    limit: maxSteps,
    message: `${steps.toExponential(3)} steps (${names.ratio}) exceed the limit of ${maxSteps} (${names.setting}); use a longer time step or a shorter simulation`,
  };
}
